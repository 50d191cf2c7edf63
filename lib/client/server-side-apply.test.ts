import { describe, expect, it } from "vitest";
import type { KubeObject } from "../kinds";
import { applyConfiguration, applyConflicts, conflictsByManager, locateField, withoutFields } from "./server-side-apply";

const pod: KubeObject = {
  apiVersion: "v1",
  kind: "Pod",
  metadata: {
    name: "web",
    namespace: "default",
    uid: "u-1",
    resourceVersion: "42",
    generation: 3,
    creationTimestamp: "2026-01-01T00:00:00Z",
    managedFields: [{ manager: "kubectl", operation: "Apply" }],
    labels: { "app.kubernetes.io/name": "web", app: "x" },
  },
  spec: {
    containers: [
      { name: "sidecar", image: "busybox" },
      { name: "app", image: "nginx", ports: [{ containerPort: 80, protocol: "TCP" }, { containerPort: 53, protocol: "UDP" }] },
    ],
    finalizers: ["a", "b"],
  },
  status: { phase: "Running" },
};

describe("applyConfiguration", () => {
  it("drops status and server-owned metadata, keeps the rest, leaves the input alone", () => {
    const config = applyConfiguration(pod);
    expect(config.status).toBeUndefined();
    expect(Object.keys(config.metadata).sort()).toEqual(["labels", "name", "namespace"]);
    expect(config.spec).toEqual(pod.spec);
    expect(pod.metadata.resourceVersion).toBe("42");
    expect(pod.status).toBeDefined();
  });
});

describe("applyConflicts", () => {
  it("reads kube's FieldManagerConflict causes: Apply and Update managers, subresources, Go quoting", () => {
    const conflicts = applyConflicts([
      { reason: "FieldManagerConflict", message: 'conflict with "kubectl-client-side-apply" using v1', field: ".data.key" },
      { reason: "FieldManagerConflict", message: 'conflict with "e2e-other"', field: '.spec.containers[name="app"].image' },
      { reason: "FieldManagerConflict", message: 'conflict with "kubelet" with subresource "status" using v1', field: ".status.phase" },
      { reason: "FieldManagerConflict", message: 'conflict with "say \\"hi\\""', field: ".data.q" },
      { reason: "FieldValueInvalid", message: "nope", field: "data" },
    ]);
    expect(conflicts).toEqual([
      { field: ".data.key", manager: "kubectl-client-side-apply", operation: "Update", apiVersion: "v1" },
      { field: '.spec.containers[name="app"].image', manager: "e2e-other", operation: "Apply" },
      { field: ".status.phase", manager: "kubelet", operation: "Update", apiVersion: "v1", subresource: "status" },
      { field: ".data.q", manager: 'say "hi"', operation: "Apply" },
    ]);
  });

  it("groups fields by manager in kube's order", () => {
    const groups = conflictsByManager(
      applyConflicts([
        { reason: "FieldManagerConflict", message: 'conflict with "a"', field: ".data.x" },
        { reason: "FieldManagerConflict", message: 'conflict with "b" using v1', field: ".data.y" },
        { reason: "FieldManagerConflict", message: 'conflict with "a"', field: ".data.z" },
      ]),
    );
    expect(groups.map((g) => [g.manager, g.operation, g.fields])).toEqual([
      ["a", "Apply", [".data.x", ".data.z"]],
      ["b", "Update", [".data.y"]],
    ]);
  });
});

describe("locateField", () => {
  it("follows fields, merge keys, set values and indexes as kube prints them", () => {
    expect(locateField(pod, '.spec.containers[name="app"].image')).toEqual(["spec", "containers", 1, "image"]);
    expect(locateField(pod, '.spec.containers[name="app"].ports[containerPort=53,protocol="UDP"].protocol')).toEqual(["spec", "containers", 1, "ports", 1, "protocol"]);
    expect(locateField(pod, '.spec.finalizers[="b"]')).toEqual(["spec", "finalizers", 1]);
    expect(locateField(pod, ".spec.containers[0].name")).toEqual(["spec", "containers", 0, "name"]);
  });

  it("matches map keys that contain dots against the keys the object has", () => {
    expect(locateField(pod, ".metadata.labels.app.kubernetes.io/name")).toEqual(["metadata", "labels", "app.kubernetes.io/name"]);
    expect(locateField(pod, ".metadata.labels.app")).toEqual(["metadata", "labels", "app"]);
  });

  it("answers undefined for a field the object does not have", () => {
    expect(locateField(pod, '.spec.containers[name="db"].image')).toBeUndefined();
    expect(locateField(pod, ".data.key")).toBeUndefined();
    expect(locateField(pod, ".spec.containers[name=")).toBeUndefined();
  });
});

describe("withoutFields", () => {
  it("removes each field from a copy and reports those it could not find", () => {
    const { config, missing } = withoutFields(pod, ['.spec.containers[name="app"].image', '.spec.finalizers[="a"]', ".metadata.labels.app.kubernetes.io/name", ".data.gone"]);
    const spec = config.spec as { containers: Record<string, unknown>[]; finalizers: string[] };
    expect(spec.containers[1]).toEqual({ name: "app", ports: [{ containerPort: 80, protocol: "TCP" }, { containerPort: 53, protocol: "UDP" }] });
    expect(spec.finalizers).toEqual(["b"]);
    expect(config.metadata.labels).toEqual({ app: "x" });
    expect(missing).toEqual([".data.gone"]);
    expect((pod.spec as { containers: Record<string, unknown>[] }).containers[1].image).toBe("nginx");
  });
});
