import { describe, expect, it } from "vitest";
import { isStatusError, type StatusError } from "../status";
import { kindByKind } from "../kinds";
import type { AnyKind, KubeObject } from "../kinds/types";
import { applyConfiguration, trackUpdate, type ApplyOutcome } from "./field-manager";
import { LAST_APPLIED_ANNOTATION } from "./last-applied";
import type { ManagedFieldsEntry } from "./managed-fields";

const configMap = kindByKind("ConfigMap")!;
const pod = kindByKind("Pod")!;
const service = kindByKind("Service")!;

type Obj = Record<string, unknown>;
const cm = (data: Record<string, string>, metadata: Obj = {}): Obj => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c", ...metadata }, data });

/** A stored object: what the registry would keep after a write (system metadata set, managedFields attached). */
function store(outcome: ApplyOutcome): KubeObject {
  const obj = structuredClone(outcome.object);
  obj.metadata.uid ??= "uid-1";
  obj.metadata.namespace ??= "default";
  if (outcome.managedFields) obj.metadata.managedFields = outcome.managedFields as KubeObject["metadata"]["managedFields"];
  return obj;
}

function applyAs(kind: AnyKind, live: KubeObject | undefined, manager: string, config: Obj, force = false): KubeObject {
  return store(applyConfiguration({ kind }, live, config, manager, force));
}

function refused(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (err) {
    if (isStatusError(err)) return err;
    throw err;
  }
  throw new Error("expected a Status error");
}

const entries = (obj: KubeObject) => (obj.metadata.managedFields ?? []) as ManagedFieldsEntry[];
const entry = (obj: KubeObject, manager: string, operation = "Apply") => entries(obj).find((e) => e.manager === manager && e.operation === operation);
const managers = (obj: KubeObject) => entries(obj).map((e) => `${e.manager}/${e.operation}`);

describe("apply", () => {
  it("creates from an empty object and owns exactly the applied fields", () => {
    const obj = applyAs(configMap, undefined, "alice", cm({ a: "1" }, { labels: { app: "x" } }));
    expect(obj.data).toEqual({ a: "1" });
    expect(entries(obj)).toEqual([{
      manager: "alice", operation: "Apply", apiVersion: "v1", time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      fieldsType: "FieldsV1", fieldsV1: { "f:data": { "f:a": {} }, "f:metadata": { "f:labels": { "f:app": {} } } },
    }]);
  });

  it("lets two managers share a field that they set to the same value", () => {
    let obj = applyAs(configMap, undefined, "alice", cm({ shared: "1", a: "1" }));
    obj = applyAs(configMap, obj, "bob", cm({ shared: "1", b: "2" }));
    expect(obj.data).toEqual({ shared: "1", a: "1", b: "2" });
    expect(entry(obj, "alice")!.fieldsV1).toEqual({ "f:data": { "f:a": {}, "f:shared": {} } });
    expect(entry(obj, "bob")!.fieldsV1).toEqual({ "f:data": { "f:b": {}, "f:shared": {} } });
    // alice stops applying it: bob still owns it, so it stays
    obj = applyAs(configMap, obj, "alice", cm({ a: "1" }));
    expect(obj.data).toEqual({ shared: "1", a: "1", b: "2" });
    expect(entry(obj, "alice")!.fieldsV1).toEqual({ "f:data": { "f:a": {} } });
  });

  it("answers a conflicting change with kube's 409", () => {
    const obj = applyAs(configMap, undefined, "alice", cm({ key: "1" }));
    const err = refused(() => applyAs(configMap, obj, "bob", cm({ key: "2" })));
    expect(err.toStatus()).toEqual({
      kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", code: 409, reason: "Conflict",
      message: 'Apply failed with 1 conflict: conflict with "alice": .data.key',
      details: { causes: [{ reason: "FieldManagerConflict", message: 'conflict with "alice"', field: ".data.key" }] },
    });
  });

  it("names an Update manager with its version, and lists several conflicts per manager", () => {
    let obj = trackUpdate({ kind: configMap }, undefined, { ...cm({ a: "1", b: "1" }), metadata: { name: "c" } } as KubeObject, "kubectl-client-side-apply");
    obj = { ...obj, metadata: { ...obj.metadata, uid: "u" } };
    obj = applyAs(configMap, obj, "carol", cm({ c: "1" }));
    const err = refused(() => applyAs(configMap, obj, "bob", cm({ a: "2", b: "2", c: "2" })));
    expect(err.message).toBe([
      "Apply failed with 3 conflicts: conflicts with \"carol\":",
      "- .data.c",
      "conflicts with \"kubectl-client-side-apply\" using v1:",
      "- .data.a",
      "- .data.b",
    ].join("\n"));
    expect(err.details!.causes!.map((c) => [c.field, c.message])).toEqual([
      [".data.c", 'conflict with "carol"'],
      [".data.a", 'conflict with "kubectl-client-side-apply" using v1'],
      [".data.b", 'conflict with "kubectl-client-side-apply" using v1'],
    ]);
  });

  it("takes conflicting fields over with force", () => {
    let obj = applyAs(configMap, undefined, "alice", cm({ key: "1", other: "1" }));
    obj = applyAs(configMap, obj, "bob", cm({ key: "2" }), true);
    expect(obj.data).toEqual({ key: "2", other: "1" });
    expect(entry(obj, "alice")!.fieldsV1).toEqual({ "f:data": { "f:other": {} } });
    expect(entry(obj, "bob")!.fieldsV1).toEqual({ "f:data": { "f:key": {} } });
  });

  it("removes a field the applier stops applying, but not one another manager changed since", () => {
    let obj = applyAs(configMap, undefined, "alice", cm({ a: "1", b: "1", c: "1" }));
    // an update by someone else takes c
    obj = trackUpdate({ kind: configMap }, obj, { ...structuredClone(obj), data: { a: "1", b: "1", c: "edited" } }, "kubectl-edit");
    obj = applyAs(configMap, obj, "alice", cm({ a: "1" }));
    expect(obj.data).toEqual({ a: "1", c: "edited" });
    expect(managers(obj)).toEqual(["alice/Apply", "kubectl-edit/Update"]);
  });

  it("does not touch fields the applier never owned", () => {
    let obj = trackUpdate({ kind: configMap }, undefined, cm({ mine: "1" }) as KubeObject, "kubectl-create");
    obj.metadata.uid = "u";
    obj = applyAs(configMap, obj, "alice", cm({ a: "1" }));
    obj = applyAs(configMap, obj, "alice", cm({}));
    expect(obj.data).toEqual({ mine: "1" });
    expect(managers(obj)).toEqual(["kubectl-create/Update"]);
  });

  it("owns containers by name and removes only the one no longer applied", () => {
    const podOf = (containers: Obj[]) => ({ apiVersion: "v1", kind: "Pod", metadata: { name: "p" }, spec: { containers } });
    let obj = applyAs(pod, undefined, "alice", podOf([{ name: "app", image: "app:1" }]));
    obj = applyAs(pod, obj, "bob", podOf([{ name: "sidecar", image: "side:1" }]));
    expect((obj.spec as { containers: Obj[] }).containers.map((c) => c.name)).toEqual(["app", "sidecar"]);
    expect(entry(obj, "bob")!.fieldsV1).toEqual({ "f:spec": { "f:containers": { 'k:{"name":"sidecar"}': { ".": {}, "f:image": {}, "f:name": {} } } } });
    obj = applyAs(pod, obj, "bob", podOf([]));
    expect((obj.spec as { containers: Obj[] }).containers).toEqual([{ name: "app", image: "app:1" }]);
  });

  it("owns env by name, ports by containerPort and protocol, volumes by name", () => {
    const podOf = (env: Obj[], ports: Obj[], volumes: Obj[]) => ({
      apiVersion: "v1", kind: "Pod", metadata: { name: "p" },
      spec: { containers: [{ name: "app", env, ports }], volumes },
    });
    let obj = applyAs(pod, undefined, "alice", podOf([{ name: "A", value: "1" }], [{ containerPort: 80 }], [{ name: "v1", emptyDir: {} }]));
    obj = applyAs(pod, obj, "bob", podOf([{ name: "B", value: "2" }], [{ containerPort: 80, protocol: "UDP" }], [{ name: "v2", emptyDir: {} }]));
    const spec = obj.spec as { containers: { env: Obj[]; ports: Obj[] }[]; volumes: Obj[] };
    expect(spec.containers[0].env).toEqual([{ name: "A", value: "1" }, { name: "B", value: "2" }]);
    expect(spec.containers[0].ports).toEqual([{ containerPort: 80 }, { containerPort: 80, protocol: "UDP" }]);
    expect(spec.volumes.map((v) => v.name)).toEqual(["v1", "v2"]);
    const bob = entry(obj, "bob")!.fieldsV1!["f:spec"];
    expect(Object.keys(bob["f:containers"]['k:{"name":"app"}']["f:ports"])).toEqual(['k:{"containerPort":80,"protocol":"UDP"}']);
    const err = refused(() => applyAs(pod, obj, "bob", podOf([{ name: "A", value: "changed" }], [], [])));
    expect(err.message).toBe('Apply failed with 1 conflict: conflict with "alice": .spec.containers[name="app"].env[name="A"].value');
    // alice drops port 80/TCP: bob's 80/UDP stays
    obj = applyAs(pod, obj, "alice", podOf([{ name: "A", value: "1" }], [], [{ name: "v1", emptyDir: {} }]));
    expect((obj.spec as typeof spec).containers[0].ports).toEqual([{ containerPort: 80, protocol: "UDP" }]);
  });

  it("owns service ports by port and protocol", () => {
    const svc = (ports: Obj[]) => ({ apiVersion: "v1", kind: "Service", metadata: { name: "s" }, spec: { ports } });
    let obj = applyAs(service, undefined, "alice", svc([{ port: 53, protocol: "UDP", name: "dns-udp" }]));
    obj = applyAs(service, obj, "bob", svc([{ port: 53, name: "dns-tcp" }]));
    expect((obj.spec as { ports: Obj[] }).ports).toEqual([{ port: 53, protocol: "UDP", name: "dns-udp" }, { port: 53, name: "dns-tcp" }]);
    expect(Object.keys(entry(obj, "bob")!.fieldsV1!["f:spec"]["f:ports"])).toEqual(['k:{"port":53,"protocol":"TCP"}']);
  });

  it("never gives an applier the status of a main resource", () => {
    const obj = applyAs(pod, undefined, "alice", { apiVersion: "v1", kind: "Pod", metadata: { name: "p" }, spec: { containers: [{ name: "a" }] }, status: { phase: "Running" } });
    expect(Object.keys(entry(obj, "alice")!.fieldsV1!)).toEqual(["f:spec"]);
  });

  it("puts an untracked object's fields under before-first-apply", () => {
    const live = { ...cm({ key: "old" }), metadata: { name: "c", uid: "u" } } as KubeObject;
    const err = refused(() => applyAs(configMap, live, "alice", cm({ key: "new" })));
    expect(err.message).toBe('Apply failed with 1 conflict: conflict with "before-first-apply" using v1: .data.key');
    const forced = applyAs(configMap, live, "alice", cm({ key: "new" }), true);
    // before-first-apply keeps the map itself, which it set when the object was created
    expect(managers(forced)).toEqual(["alice/Apply", "before-first-apply/Update"]);
    expect(entry(forced, "before-first-apply", "Update")!.fieldsV1).toEqual({ "f:data": {} });
  });

  it("refuses what it cannot apply with kube's 400s", () => {
    expect(refused(() => applyAs(configMap, undefined, "a", { ...cm({}), kind: "Secret" })).message).toBe("invalid object type: /v1, Kind=Secret");
    expect(refused(() => applyAs(configMap, undefined, "a", { kind: "ConfigMap", metadata: { name: "c" } })).message).toBe("invalid object type: /, Kind=ConfigMap");
    expect(refused(() => applyAs(configMap, undefined, "a", cm({}, { managedFields: [] }))).message).toBe("metadata.managedFields must be nil");
    const err = refused(() => applyAs(configMap, undefined, "a", { ...cm({}, { namespace: "ns" }), spec: {} }));
    expect([err.code, err.message]).toEqual([400, "failed to create typed patch object (ns/c; /v1, Kind=ConfigMap): .spec: field not declared in schema"]);
  });
});

describe("client-side apply to server-side apply", () => {
  const manifest = (data: Record<string, string>) => cm(data);
  /** What `kubectl apply` (client-side) stores: the object, its annotation, and a kubectl-client-side-apply Update entry. */
  function clientSideApplied(data: Record<string, string>): KubeObject {
    const annotation = `${JSON.stringify(manifest(data))}\n`;
    const obj = trackUpdate({ kind: configMap }, undefined, cm(data, { annotations: { [LAST_APPLIED_ANNOTATION]: annotation } }) as KubeObject, "kubectl-client-side-apply");
    obj.metadata.uid = "u";
    return obj;
  }

  it("lets kubectl take over the fields client-side apply set and keeps the annotation current", () => {
    const obj = applyAs(configMap, clientSideApplied({ key: "old" }), "kubectl", manifest({ key: "new" }));
    expect(obj.data).toEqual({ key: "new" });
    expect(JSON.parse(obj.metadata.annotations![LAST_APPLIED_ANNOTATION])).toEqual(manifest({ key: "new" }));
    expect(obj.metadata.annotations![LAST_APPLIED_ANNOTATION]).toBe('{"apiVersion":"v1","data":{"key":"new"},"kind":"ConfigMap","metadata":{"name":"c"}}\n');
    expect(entry(obj, "kubectl")!.fieldsV1).toEqual({ "f:data": { "f:key": {} } });
  });

  it("still conflicts for another manager, and for fields changed since client-side apply", () => {
    expect(refused(() => applyAs(configMap, clientSideApplied({ key: "old" }), "other", manifest({ key: "new" }))).code).toBe(409);
    const edited = trackUpdate({ kind: configMap }, clientSideApplied({ key: "old" }), cm({ key: "edited" }) as KubeObject, "kubectl-client-side-apply");
    expect(refused(() => applyAs(configMap, edited, "kubectl", manifest({ key: "new" }))).code).toBe(409);
  });
});

describe("managedFields of non-apply writes", () => {
  const created = () => {
    const obj = trackUpdate({ kind: configMap }, undefined, cm({ a: "1" }) as KubeObject, "kubectl-create");
    obj.metadata.uid = "u";
    return obj;
  };

  it("records an Update entry, with a '.' for maps the write added", () => {
    expect(entries(created())).toEqual([{
      manager: "kubectl-create", operation: "Update", apiVersion: "v1", time: expect.any(String), fieldsType: "FieldsV1",
      fieldsV1: { "f:data": { "f:a": {}, ".": {} } },
    }]);
  });

  it("moves changed fields to the writer and leaves the time of an entry that took nothing alone", () => {
    const old = created();
    entries(old)[0].time = "2020-01-01T00:00:00Z";
    const next = trackUpdate({ kind: configMap }, old, { ...structuredClone(old), data: { a: "1", b: "2" } }, "kubectl-edit");
    expect(entry(next, "kubectl-create", "Update")!.time).toBe("2020-01-01T00:00:00Z");
    expect(entry(next, "kubectl-edit", "Update")!.fieldsV1).toEqual({ "f:data": { "f:b": {} } });
    const same = trackUpdate({ kind: configMap }, next, structuredClone(next), "kubectl-replace");
    expect(managers(same)).toEqual(managers(next));
  });

  it("resets on [] or [{}], keeps the stored ones when the list is missing or undecodable, keeps valid ones sent", () => {
    const old = created();
    expect(trackUpdate({ kind: configMap }, old, { ...structuredClone(old), metadata: { ...old.metadata, managedFields: [] } }, "x").metadata.managedFields).toBeUndefined();
    expect(trackUpdate({ kind: configMap }, old, { ...structuredClone(old), metadata: { ...old.metadata, managedFields: [{}] } } as KubeObject, "x").metadata.managedFields).toBeUndefined();
    const { managedFields: _m, ...withoutList } = old.metadata;
    expect(entries(trackUpdate({ kind: configMap }, old, { ...structuredClone(old), metadata: withoutList }, "x"))).toEqual(entries(old));
    const bad = [{ manager: "m", operation: "Bogus", apiVersion: "v1", fieldsType: "FieldsV1", fieldsV1: {} }];
    expect(entries(trackUpdate({ kind: configMap }, old, { ...structuredClone(old), metadata: { ...old.metadata, managedFields: bad } } as KubeObject, "x"))).toEqual(entries(old));
    const mine = [{ manager: "someone", operation: "Apply", apiVersion: "v1", time: "2020-01-01T00:00:00Z", fieldsType: "FieldsV1", fieldsV1: { "f:data": { "f:a": {} } } }];
    expect(entries(trackUpdate({ kind: configMap }, old, { ...structuredClone(old), metadata: { ...old.metadata, managedFields: mine } } as KubeObject, "x"))).toEqual(mine);
  });

  it("records a status write for its subresource and ignores managedFields sent with it", () => {
    const p = { apiVersion: "v1", kind: "Pod", metadata: { name: "p" }, spec: { containers: [{ name: "a", image: "x" }] } };
    const old = trackUpdate({ kind: pod }, undefined, p as KubeObject, "kubectl-create");
    old.metadata.uid = "u";
    const next = trackUpdate({ kind: pod, subresource: "status" }, old, { ...structuredClone(old), metadata: { ...old.metadata, managedFields: [] }, status: { phase: "Running" } } as KubeObject, "kubelet");
    expect(entry(next, "kubelet", "Update")).toMatchObject({ subresource: "status", fieldsV1: { "f:status": { "f:phase": {}, ".": {} } } });
    expect(entry(next, "kubectl-create", "Update")).toBeDefined();
  });

  it("keeps at most 10 Update entries, merging the oldest into ancient-changes", () => {
    let obj = created();
    for (let i = 0; i < 12; i++) {
      obj = trackUpdate({ kind: configMap }, obj, { ...structuredClone(obj), data: { ...(obj.data as Obj), [`k${i}`]: "v" } } as KubeObject, `writer-${String(i).padStart(2, "0")}`);
    }
    expect(entries(obj)).toHaveLength(10);
    expect(managers(obj)).toContain("ancient-changes/Update");
  });
});
