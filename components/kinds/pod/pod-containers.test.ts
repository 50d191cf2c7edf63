import { describe, expect, it } from "vitest";
import { containerRows, containerState, podIPs, probeText, qosClass, resourcesText } from "./pod-containers";

describe("probeText", () => {
  it("reads an HTTP probe with kube's defaults", () => {
    expect(probeText({ httpGet: { path: "/healthz", port: 8080 } })).toBe("HTTP GET :8080/healthz every 10s, timeout 1s, fails after 3 misses");
  });
  it("names the scheme, a named port, the delay and thresholds", () => {
    expect(probeText({ httpGet: { scheme: "HTTPS", path: "ready", port: "web" }, periodSeconds: 5, initialDelaySeconds: 15, timeoutSeconds: 2, failureThreshold: 1, successThreshold: 2 })).toBe(
      "HTTPS GET :web/ready every 5s, first after 15s, timeout 2s, fails after 1 miss, 2 successes to pass",
    );
  });
  it("reads TCP, exec and gRPC probes", () => {
    expect(probeText({ tcpSocket: { port: 5432 } })).toMatch(/^TCP :5432 every 10s/);
    expect(probeText({ exec: { command: ["cat", "/tmp/healthy"] }, periodSeconds: 30 })).toMatch(/^exec cat \/tmp\/healthy every 30s/);
    expect(probeText({ grpc: { port: 9090, service: "health" } })).toMatch(/^gRPC :9090 service health every 10s/);
    expect(probeText(undefined)).toBe("");
  });
});

describe("resourcesText", () => {
  it("lists requests then limits", () => {
    expect(resourcesText({ requests: { cpu: "100m", memory: "64Mi" }, limits: { memory: "128Mi" } })).toBe("requests cpu 100m, memory 64Mi; limits memory 128Mi");
    expect(resourcesText({})).toBeUndefined();
  });
});

describe("containerState", () => {
  it("says running, waiting with the reason, terminated with reason and exit code", () => {
    expect(containerState({ ready: true, state: { running: { startedAt: "t" } } }, "container")).toEqual({ text: "Running", tone: "ok", since: "t" });
    expect(containerState({ ready: false, state: { running: {} } }, "container")).toMatchObject({ text: "Running, not ready", tone: "warning" });
    expect(containerState({ state: { waiting: { reason: "CrashLoopBackOff", message: "back-off 40s" } } }, "container")).toEqual({ text: "Waiting: CrashLoopBackOff", tone: "error", message: "back-off 40s" });
    expect(containerState({ state: { waiting: { reason: "ContainerCreating" } } }, "container")).toMatchObject({ tone: "warning" });
    expect(containerState({ state: { terminated: { exitCode: 1, reason: "Error", finishedAt: "f" } } }, "container")).toMatchObject({ text: "Terminated: Error (exit code 1)", tone: "error", since: "f" });
    expect(containerState({ state: { terminated: { exitCode: 0, reason: "Completed" } } }, "init")).toMatchObject({ text: "Terminated: Completed (exit code 0)", tone: "neutral" });
    expect(containerState(undefined, "container")).toMatchObject({ text: "Not started yet", tone: "neutral" });
  });
});

describe("containerRows", () => {
  const now = Date.parse("2026-01-01T00:10:00Z");
  const pod = {
    kind: "Pod",
    metadata: { name: "p", namespace: "ns" },
    spec: {
      initContainers: [{ name: "setup", image: "busybox" }, { name: "proxy", image: "envoy", restartPolicy: "Always" }],
      containers: [
        {
          name: "app",
          image: "registry/app:1",
          ports: [{ containerPort: 8080, name: "http" }, { containerPort: 53, protocol: "UDP", hostPort: 5353 }],
          livenessProbe: { httpGet: { path: "/healthz", port: 8080 } },
          readinessProbe: { tcpSocket: { port: 8080 } },
          resources: { requests: { cpu: "100m" } },
        },
      ],
    },
    status: {
      initContainerStatuses: [{ name: "setup", state: { terminated: { exitCode: 0, reason: "Completed" } }, restartCount: 0 }],
      containerStatuses: [
        { name: "app", ready: false, restartCount: 4, imageID: "registry/app@sha256:abc", state: { waiting: { reason: "CrashLoopBackOff" } }, lastState: { terminated: { exitCode: 137, reason: "OOMKilled", finishedAt: "2026-01-01T00:07:00Z" } } },
      ],
    },
  };

  it("joins spec and status by name, init containers first, with roles", () => {
    const rows = containerRows(pod as never, now);
    expect(rows.map((r) => [r.name, r.role])).toEqual([["setup", "init"], ["proxy", "sidecar"], ["app", "container"]]);
    expect(rows[1].state.text).toBe("Not started yet");
    const app = rows[2];
    expect(app).toMatchObject({ image: "registry/app:1", imageID: "registry/app@sha256:abc", ready: false, restarts: 4, lastTermination: "OOMKilled (exit code 137), 3m ago", resources: "requests cpu 100m" });
    expect(app.ports).toEqual(["8080/TCP (http)", "53/UDP → host 5353"]);
    expect(app.probes.map((p) => p.kind)).toEqual(["liveness", "readiness"]);
    expect(app.probes[0].text).toMatch(/^HTTP GET :8080\/healthz every 10s/);
    expect(rows[0].ready).toBeUndefined();
  });
});

describe("qosClass and podIPs", () => {
  it("uses the server's class, else computes it", () => {
    expect(qosClass({ metadata: {}, status: { qosClass: "Burstable" } } as never)).toBe("Burstable");
    expect(qosClass({ metadata: {}, spec: { containers: [{ name: "a", resources: { limits: { cpu: "1", memory: "1Gi" } } }] } } as never)).toBe("Guaranteed");
    expect(qosClass({ metadata: {}, spec: { containers: [{ name: "a" }] } } as never)).toBe("BestEffort");
  });
  it("lists dual-stack IPs, else podIP", () => {
    expect(podIPs({ metadata: {}, status: { podIP: "10.0.0.1", podIPs: [{ ip: "10.0.0.1" }, { ip: "fd00::1" }] } } as never)).toEqual(["10.0.0.1", "fd00::1"]);
    expect(podIPs({ metadata: {}, status: { podIP: "10.0.0.1" } } as never)).toEqual(["10.0.0.1"]);
    expect(podIPs({ metadata: {} } as never)).toEqual([]);
  });
});
