import { describe, expect, it } from "vitest";
import { isStatusError } from "../status";
import { kinds } from "../kinds";
import type { ResourceQuota } from "../kinds/resource-quota";
import type { KubeObject } from "../kinds/types";
import { checkRequest, type QuotaRequest } from "./check-request";
import { QuotaEvaluators } from "./evaluators";

const evaluators = new QuotaEvaluators(kinds);
const ev = (plural: string, group = "") => evaluators.forKind({ plural, group })!;

function quota(name: string, hard: Record<string, string>, used: Record<string, string>, spec: Record<string, unknown> = {}): ResourceQuota {
  return { apiVersion: "v1", kind: "ResourceQuota", metadata: { name, namespace: "ns", resourceVersion: "1" }, spec: { hard, ...spec }, status: { hard, used } };
}

function pod(name: string, containers: { name: string; requests?: Record<string, string>; limits?: Record<string, string> }[], extra: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: "v1", kind: "Pod", metadata: { name, namespace: "ns" },
    spec: { containers: containers.map((c) => ({ name: c.name, image: "x", resources: { requests: c.requests, limits: c.limits } })), ...extra },
    status: { phase: "Pending" },
  };
}

const create = (groupResource: string, object: KubeObject): QuotaRequest => ({ operation: "CREATE", groupResource, name: object.metadata.name!, object });

function refusal(fn: () => unknown): { code: number; message: string } {
  try { fn(); } catch (err) { if (isStatusError(err)) return { code: err.code, message: err.message }; throw err; }
  throw new Error("not refused");
}

describe("quota admission decision", () => {
  it("charges a pod to the quota and refuses the one past the limit with kube's message", () => {
    const q = quota("q", { pods: "2" }, { pods: "1" });
    const charged = checkRequest([q], create("pods", pod("a", [{ name: "c" }])), ev("pods"), Date.now());
    expect(charged.changed).toEqual([0]);
    expect(charged.quotas[0].status!.used).toEqual({ pods: "2" });
    const full = quota("q", { pods: "2" }, { pods: "2" });
    expect(refusal(() => checkRequest([full], create("pods", pod("p3", [{ name: "c" }])), ev("pods"), Date.now()))).toEqual({
      code: 403, message: `pods "p3" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2`,
    });
  });

  it("names only the exceeded resources, rendered as kube renders quantities", () => {
    const q = quota("compute", { "requests.memory": "1Gi", "requests.cpu": "2", pods: "10" }, { "requests.memory": "768Mi", "requests.cpu": "500m", pods: "3" });
    const p = pod("big", [{ name: "a", requests: { cpu: "250m", memory: "200Mi" } }, { name: "b", requests: { cpu: "250m", memory: "100Mi" } }]);
    expect(refusal(() => checkRequest([q], create("pods", p), ev("pods"), Date.now())).message).toBe(
      `pods "big" is forbidden: exceeded quota: compute, requested: requests.memory=300Mi, used: requests.memory=768Mi, limited: requests.memory=1Gi`);
    const fits = pod("ok", [{ name: "a", requests: { cpu: "250m", memory: "128Mi" } }, { name: "b", requests: { cpu: "750m", memory: "128Mi" } }]);
    expect(checkRequest([q], create("pods", fits), ev("pods"), Date.now()).quotas[0].status!.used)
      .toEqual({ pods: "4", "requests.cpu": "1500m", "requests.memory": "1Gi" });
  });

  it("makes every container declare tracked cpu and memory (failed quota: must specify ...)", () => {
    const q = quota("q", { "limits.cpu": "4", "requests.memory": "4Gi" }, { "limits.cpu": "0", "requests.memory": "0" });
    const p = pod("p", [{ name: "c", requests: { cpu: "1" } }, { name: "b", requests: { memory: "1Gi" } }]);
    expect(refusal(() => checkRequest([q], create("pods", p), ev("pods"), Date.now())).message).toBe(
      `pods "p" is forbidden: failed quota: q: must specify limits.cpu for: b,c; requests.memory for: c`);
  });

  it("refuses while the controller has not measured a tracked resource yet", () => {
    const q = quota("fresh", { pods: "2", "count/pods": "5" }, { pods: "0" });
    expect(refusal(() => checkRequest([q], create("pods", pod("p", [{ name: "c" }])), ev("pods"), Date.now())).message).toBe(
      `pods "p" is forbidden: status unknown for quota: fresh, resources: count/pods,pods`);
  });

  it("applies scoped quotas only to the pods in their scopes", () => {
    const bestEffort = quota("be", { pods: "0" }, { pods: "0" }, { scopes: ["BestEffort"] });
    const burstable = pod("burst", [{ name: "c", requests: { cpu: "100m" } }]);
    expect(checkRequest([bestEffort], create("pods", burstable), ev("pods"), Date.now()).changed).toEqual([]);
    expect(refusal(() => checkRequest([bestEffort], create("pods", pod("be", [{ name: "c" }])), ev("pods"), Date.now())).message)
      .toContain("exceeded quota: be, requested: pods=1, used: pods=0, limited: pods=0");
    const high = quota("high", { pods: "1" }, { pods: "1" }, { scopeSelector: { matchExpressions: [{ scopeName: "PriorityClass", operator: "In", values: ["high"] }] } });
    expect(checkRequest([high], create("pods", pod("low", [{ name: "c" }], { priorityClassName: "low" })), ev("pods"), Date.now()).changed).toEqual([]);
    expect(() => checkRequest([high], create("pods", pod("h", [{ name: "c" }], { priorityClassName: "high" })), ev("pods"), Date.now())).toThrow(/exceeded quota: high/);
    const terminating = quota("t", { pods: "0" }, { pods: "0" }, { scopes: ["Terminating"] });
    expect(checkRequest([terminating], create("pods", pod("forever", [{ name: "c" }])), ev("pods"), Date.now()).changed).toEqual([]);
    expect(() => checkRequest([terminating], create("pods", pod("job", [{ name: "c" }], { activeDeadlineSeconds: 60 })), ev("pods"), Date.now())).toThrow(/exceeded quota: t/);
  });

  it("never counts other kinds in a scoped quota", () => {
    const scoped = quota("s", { pods: "5", configmaps: "0" }, { pods: "0", configmaps: "0" }, { scopes: ["NotTerminating"] });
    const cm = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c", namespace: "ns" } };
    expect(checkRequest([scoped], create("configmaps", cm), ev("configmaps"), Date.now()).changed).toEqual([]);
  });

  it("counts configmaps under both names and grouped kinds as count/<resource>.<group>", () => {
    const q = quota("objects", { configmaps: "3", "count/configmaps": "3", "count/roles.rbac.authorization.k8s.io": "1" },
      { configmaps: "1", "count/configmaps": "1", "count/roles.rbac.authorization.k8s.io": "1" });
    const cm = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c", namespace: "ns" } };
    expect(checkRequest([q], create("configmaps", cm), ev("configmaps"), Date.now()).quotas[0].status!.used)
      .toMatchObject({ configmaps: "2", "count/configmaps": "2" });
    const role = { apiVersion: "rbac.authorization.k8s.io/v1", kind: "Role", metadata: { name: "r", namespace: "ns" } };
    expect(refusal(() => checkRequest([q], create("roles.rbac.authorization.k8s.io", role), ev("roles", "rbac.authorization.k8s.io"), Date.now())).message).toBe(
      `roles.rbac.authorization.k8s.io "r" is forbidden: exceeded quota: objects, requested: count/roles.rbac.authorization.k8s.io=1, used: count/roles.rbac.authorization.k8s.io=1, limited: count/roles.rbac.authorization.k8s.io=1`);
  });

  it("charges a service update only for what it adds", () => {
    const q = quota("q", { "services.nodeports": "2", services: "5" }, { "services.nodeports": "1", services: "2" });
    const svc = (type: string, ports: number) => ({ apiVersion: "v1", kind: "Service", metadata: { name: "s", namespace: "ns", resourceVersion: "5" }, spec: { type, ports: Array.from({ length: ports }, (_, i) => ({ port: 80 + i })) } });
    const update = (from: KubeObject, to: KubeObject): QuotaRequest => ({ operation: "UPDATE", groupResource: "services", name: "s", object: to, oldObject: from });
    const grown = checkRequest([q], update(svc("ClusterIP", 1), svc("NodePort", 1)), ev("services"), Date.now());
    expect(grown.quotas[0].status!.used).toEqual({ "services.nodeports": "2", services: "2" });
    expect(refusal(() => checkRequest([q], update(svc("ClusterIP", 2), svc("NodePort", 2)), ev("services"), Date.now())).message).toBe(
      `services "s" is forbidden: exceeded quota: q, requested: services.nodeports=2, used: services.nodeports=1, limited: services.nodeports=2`);
    expect(checkRequest([q], update(svc("NodePort", 1), svc("NodePort", 1)), ev("services"), Date.now()).changed).toEqual([]);
  });

  it("charges claims per storage class, in whole bytes", () => {
    const q = quota("storage", { "requests.storage": "10Gi", "gold.storageclass.storage.k8s.io/requests.storage": "1Gi", "gold.storageclass.storage.k8s.io/persistentvolumeclaims": "1" },
      { "requests.storage": "0", "gold.storageclass.storage.k8s.io/requests.storage": "0", "gold.storageclass.storage.k8s.io/persistentvolumeclaims": "0" });
    const claim = (cls: string, size: string) => ({ apiVersion: "v1", kind: "PersistentVolumeClaim", metadata: { name: "c", namespace: "ns" }, spec: { storageClassName: cls, resources: { requests: { storage: size } } } });
    expect(checkRequest([q], create("persistentvolumeclaims", claim("silver", "2Gi")), ev("persistentvolumeclaims"), Date.now()).quotas[0].status!.used)
      .toEqual({ "requests.storage": "2Gi", "gold.storageclass.storage.k8s.io/requests.storage": "0", "gold.storageclass.storage.k8s.io/persistentvolumeclaims": "0" });
    expect(refusal(() => checkRequest([q], create("persistentvolumeclaims", claim("gold", "2Gi")), ev("persistentvolumeclaims"), Date.now())).message).toBe(
      `persistentvolumeclaims "c" is forbidden: exceeded quota: storage, requested: gold.storageclass.storage.k8s.io/requests.storage=2Gi, used: gold.storageclass.storage.k8s.io/requests.storage=0, limited: gold.storageclass.storage.k8s.io/requests.storage=1Gi`);
  });
});
