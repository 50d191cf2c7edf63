import { describe, expect, it } from "vitest";
import { kinds } from "../kinds";
import type { ResourceQuota } from "../kinds/resource-quota";
import type { KubeObject } from "../kinds/types";
import { QuotaEvaluators } from "./evaluators";
import { toResourceList } from "./resource-list";
import { calculateUsage } from "./usage";

const evaluators = new QuotaEvaluators(kinds).entries();
const quota = (hard: Record<string, string>, spec: Record<string, unknown> = {}): ResourceQuota =>
  ({ apiVersion: "v1", kind: "ResourceQuota", metadata: { name: "q", namespace: "ns" }, spec: { hard, ...spec } });

function pod(name: string, opts: { phase?: string; requests?: Record<string, string>; limits?: Record<string, string>; init?: Record<string, unknown>[]; meta?: Record<string, unknown>; spec?: Record<string, unknown> } = {}): KubeObject {
  return {
    apiVersion: "v1", kind: "Pod", metadata: { name, namespace: "ns", ...opts.meta },
    spec: { containers: [{ name: "c", image: "x", resources: { requests: opts.requests, limits: opts.limits } }], initContainers: opts.init, ...opts.spec },
    status: { phase: opts.phase ?? "Running" },
  };
}

const measure = (q: ResourceQuota, objects: Record<string, KubeObject[]>, now = Date.now()) =>
  toResourceList(calculateUsage(q, evaluators, (resource) => objects[resource] ?? [], now));

describe("quota usage measured from the objects", () => {
  it("stops charging finished pods for compute but keeps them in count/pods", () => {
    const pods = [
      pod("a", { requests: { cpu: "250m", memory: "64Mi" } }),
      pod("b", { requests: { cpu: "250m", memory: "128Mi" } }),
      pod("done", { phase: "Succeeded", requests: { cpu: "1", memory: "1Gi" } }),
      pod("failed", { phase: "Failed", requests: { cpu: "1" } }),
    ];
    expect(measure(quota({ pods: "10", "count/pods": "10", "requests.cpu": "4", cpu: "4", "requests.memory": "1Gi", "limits.cpu": "8" }), { pods })).toEqual({
      "count/pods": "4", cpu: "500m", "limits.cpu": "0", pods: "2", "requests.cpu": "500m", "requests.memory": "192Mi",
    });
  });

  it("stops charging a pod whose deletion grace period ran out", () => {
    const now = Date.parse("2025-01-01T00:01:00Z");
    const stuck = pod("stuck", { meta: { deletionTimestamp: "2025-01-01T00:00:00Z", deletionGracePeriodSeconds: 30 } });
    const leaving = pod("leaving", { meta: { deletionTimestamp: "2025-01-01T00:00:50Z", deletionGracePeriodSeconds: 30 } });
    expect(measure(quota({ pods: "5" }), { pods: [stuck, leaving] }, now)).toEqual({ pods: "1" });
  });

  it("sums sidecars with the app and takes the largest init container, as the scheduler does", () => {
    const p = pod("p", {
      requests: { cpu: "100m" }, limits: { cpu: "200m" },
      init: [
        { name: "setup", image: "x", resources: { requests: { cpu: "1" }, limits: { cpu: "1" } } },
        { name: "proxy", image: "x", restartPolicy: "Always", resources: { requests: { cpu: "50m" }, limits: { cpu: "100m" } } },
      ],
    });
    expect(measure(quota({ "requests.cpu": "4", "limits.cpu": "4" }), { pods: [p] })).toEqual({ "limits.cpu": "1", "requests.cpu": "1" });
    const late = pod("late", {
      requests: { cpu: "100m" },
      init: [
        { name: "proxy", image: "x", restartPolicy: "Always", resources: { requests: { cpu: "50m" } } },
        { name: "setup", image: "x", resources: { requests: { cpu: "1" } } },
      ],
    });
    expect(measure(quota({ "requests.cpu": "4" }), { pods: [late] })).toEqual({ "requests.cpu": "1050m" });
  });

  it("counts only the pods in the quota's scopes", () => {
    const pods = [
      pod("be"),
      pod("burst", { requests: { memory: "1Gi" } }),
      pod("job", { spec: { activeDeadlineSeconds: 10 } }),
      pod("prio", { spec: { priorityClassName: "high" }, requests: { cpu: "1" } }),
    ];
    expect(measure(quota({ pods: "9" }, { scopes: ["BestEffort"] }), { pods })).toEqual({ pods: "2" });
    expect(measure(quota({ pods: "9" }, { scopes: ["NotBestEffort", "NotTerminating"] }), { pods })).toEqual({ pods: "2" });
    expect(measure(quota({ pods: "9" }, { scopes: ["Terminating"] }), { pods })).toEqual({ pods: "1" });
    expect(measure(quota({ pods: "9", "requests.cpu": "9" }, { scopeSelector: { matchExpressions: [{ scopeName: "PriorityClass", operator: "In", values: ["high"] }] } }), { pods }))
      .toEqual({ pods: "1", "requests.cpu": "1" });
    expect(measure(quota({ pods: "9" }, { scopeSelector: { matchExpressions: [{ scopeName: "PriorityClass", operator: "DoesNotExist" }] } }), { pods })).toEqual({ pods: "3" });
  });

  it("counts services' node ports and load balancers, and leaves untracked names out", () => {
    const svc = (name: string, type: string, ports: number) => ({ apiVersion: "v1", kind: "Service", metadata: { name, namespace: "ns" }, spec: { type, ports: Array.from({ length: ports }, (_, i) => ({ port: 80 + i })) } });
    const services = [svc("a", "ClusterIP", 1), svc("b", "NodePort", 2), svc("c", "LoadBalancer", 3)];
    expect(measure(quota({ services: "9", "services.nodeports": "9", "services.loadbalancers": "9", "count/widgets.example.com": "1", replicationcontrollers: "2" }), { services }))
      .toEqual({ replicationcontrollers: "0", services: "3", "services.loadbalancers": "1", "services.nodeports": "5" });
  });
});
