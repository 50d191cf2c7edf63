import { describe, expect, it } from "vitest";
import { podStatus } from "./pod-status";
import { statusTone } from "./status-tone";

const running = { running: { startedAt: "2026-01-01T00:00:00Z" } };
const pod = (status: object, spec: object = { containers: [{ name: "app", image: "nginx" }] }, metadata: object = {}) =>
  ({ kind: "Pod", metadata: { name: "p", namespace: "ns", ...metadata }, spec, status }) as never;
const cs = (state: object, extra: object = {}) => ({ name: "app", image: "nginx", state, ready: false, restartCount: 0, ...extra });

describe("podStatus", () => {
  it("a running pod with every container ready is Running and ok", () => {
    expect(podStatus(pod({ phase: "Running", conditions: [{ type: "Ready", status: "True" }], containerStatuses: [cs(running, { ready: true })] }))).toEqual({ text: "Running", tone: "ok", ready: "1/1" });
  });

  it("a running pod whose container is not ready yet is Running but a warning", () => {
    expect(podStatus(pod({ phase: "Running", containerStatuses: [cs(running)] }))).toMatchObject({ text: "Running", tone: "warning", ready: "0/1" });
  });

  it("a pod nobody has started is Pending, a warning", () => {
    expect(podStatus(pod({ phase: "Pending" }))).toMatchObject({ text: "Pending", tone: "warning", ready: "0/1" });
  });

  it("a container being created is ContainerCreating, a warning", () => {
    expect(podStatus(pod({ phase: "Pending", containerStatuses: [cs({ waiting: { reason: "ContainerCreating" } })] }))).toMatchObject({ text: "ContainerCreating", tone: "warning" });
  });

  it("CrashLoopBackOff is not Running: an error, though the phase is Running", () => {
    const status = { phase: "Running", containerStatuses: [cs({ waiting: { reason: "CrashLoopBackOff", message: "back-off 5m0s" } }, { restartCount: 7, lastState: { terminated: { exitCode: 1, reason: "Error" } } })] };
    expect(podStatus(pod(status))).toMatchObject({ text: "CrashLoopBackOff", tone: "error" });
  });

  it("image pull failures are errors", () => {
    expect(podStatus(pod({ phase: "Pending", containerStatuses: [cs({ waiting: { reason: "ImagePullBackOff" } })] }))).toMatchObject({ text: "ImagePullBackOff", tone: "error" });
    expect(podStatus(pod({ phase: "Pending", containerStatuses: [cs({ waiting: { reason: "ErrImagePull" } })] }))).toMatchObject({ text: "ErrImagePull", tone: "error" });
  });

  it("a container that exited 0 is Completed (neutral); a failure is Error, or its exit code or signal when no reason", () => {
    expect(podStatus(pod({ phase: "Succeeded", containerStatuses: [cs({ terminated: { exitCode: 0, reason: "Completed" } })] }))).toMatchObject({ text: "Completed", tone: "neutral" });
    expect(podStatus(pod({ phase: "Failed", containerStatuses: [cs({ terminated: { exitCode: 2, reason: "Error" } })] }))).toMatchObject({ text: "Error", tone: "error" });
    expect(podStatus(pod({ phase: "Failed", containerStatuses: [cs({ terminated: { exitCode: 137 } })] }))).toMatchObject({ text: "ExitCode:137", tone: "error" });
    expect(podStatus(pod({ phase: "Failed", containerStatuses: [cs({ terminated: { exitCode: 0, signal: 9 } })] }))).toMatchObject({ text: "Signal:9", tone: "error" });
    expect(podStatus(pod({ phase: "Failed", containerStatuses: [cs({ terminated: { exitCode: 137, reason: "OOMKilled" } })] }))).toMatchObject({ text: "OOMKilled", tone: "error" });
  });

  it("a pod being deleted is Terminating (neutral), unless it already finished", () => {
    const deleting = { deletionTimestamp: "2026-01-01T00:00:00Z" };
    expect(podStatus(pod({ phase: "Running", containerStatuses: [cs(running, { ready: true })] }, undefined, deleting))).toMatchObject({ text: "Terminating", tone: "neutral" });
    expect(podStatus(pod({ phase: "Succeeded", containerStatuses: [cs({ terminated: { exitCode: 0, reason: "Completed" } })] }, undefined, deleting))).toMatchObject({ text: "Completed" });
  });

  it("init containers: Init:0/1 while they run, Init:Error or Init:CrashLoopBackOff when they fail", () => {
    const spec = { initContainers: [{ name: "setup", image: "busybox" }], containers: [{ name: "app", image: "nginx" }] };
    const init = (state: object, extra: object = {}) => ({ name: "setup", image: "busybox", ready: false, restartCount: 0, state, ...extra });
    const waitingApp = cs({ waiting: { reason: "PodInitializing" } });
    expect(podStatus(pod({ phase: "Pending", initContainerStatuses: [init(running)], containerStatuses: [waitingApp] }, spec))).toMatchObject({ text: "Init:0/1", tone: "warning" });
    expect(podStatus(pod({ phase: "Pending", initContainerStatuses: [init({ terminated: { exitCode: 1, reason: "Error" } })], containerStatuses: [waitingApp] }, spec))).toMatchObject({ text: "Init:Error", tone: "error" });
    expect(podStatus(pod({ phase: "Pending", initContainerStatuses: [init({ waiting: { reason: "CrashLoopBackOff" } }, { restartCount: 3 })], containerStatuses: [waitingApp] }, spec))).toMatchObject({ text: "Init:CrashLoopBackOff", tone: "error" });
    expect(podStatus(pod({ phase: "Pending", initContainerStatuses: [init({ terminated: { exitCode: 3 } })], containerStatuses: [waitingApp] }, spec))).toMatchObject({ text: "Init:ExitCode:3", tone: "error" });
  });

  it("an evicted pod (phase Failed, reason Evicted) is an error", () => {
    expect(podStatus(pod({ phase: "Failed", reason: "Evicted", message: "The node was low on resource: memory." }))).toMatchObject({ text: "Evicted", tone: "error" });
  });

  it("a pod with no status at all reads Unknown rather than nothing", () => {
    expect(podStatus(pod(undefined as never))).toMatchObject({ text: "Unknown", tone: "warning" });
  });
});

describe("statusTone", () => {
  it("reads container reasons too", () => {
    expect(statusTone("CreateContainerConfigError")).toBe("error");
    expect(statusTone("PodInitializing")).toBe("warning");
    expect(statusTone("Running")).toBe("ok");
  });
});
