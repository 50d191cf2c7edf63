// Expectations are worked by hand from k8s.io/apimachinery's strategicpatch rules (merge by key, union of
// scalar sets, ordering: $setElementOrder, then patch order, then live order, new elements first).
import { describe, expect, it } from "vitest";
import { StatusError } from "../status";
import { kinds } from "../kinds";
import type { Schema } from "../kinds/schema/schema";
import { strategicMergePatch } from "./strategic-merge";

const schemaOf = (kind: string): Schema => kinds.find((k) => k.kind === kind)!.schema!;
const podSchema = schemaOf("Pod");

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

const pod = deepFreeze({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name: "web", namespace: "default", labels: { app: "web", tier: "front" }, finalizers: ["a", "b", "c"] },
  spec: {
    containers: [
      {
        name: "app",
        image: "app:1",
        env: [{ name: "A", value: "1" }, { name: "B", value: "2" }, { name: "C", value: "3" }],
        ports: [{ containerPort: 80, name: "http" }, { containerPort: 443, name: "https" }],
        volumeMounts: [{ name: "data", mountPath: "/data" }],
      },
      { name: "sidecar", image: "side:1" },
    ],
    volumes: [{ name: "data", emptyDir: { medium: "Memory" } }, { name: "cfg", configMap: { name: "cfg" } }],
    tolerations: [{ key: "a", operator: "Exists" }, { key: "b", operator: "Exists" }],
    imagePullSecrets: [{ name: "r1" }],
    hostAliases: [{ ip: "10.0.0.1", hostnames: ["a"] }],
    nodeSelector: { disk: "ssd", zone: "z1" },
  },
  status: {
    phase: "Running",
    conditions: [{ type: "Ready", status: "False" }, { type: "PodScheduled", status: "True" }],
  },
});

type PodLike = typeof pod;
const apply = (patch: unknown, original: unknown = pod, schema: Schema = podSchema) => strategicMergePatch(original, patch, schema) as PodLike;
const names = (list: { name: string }[]) => list.map((c) => c.name);

function statusOf(fn: () => unknown): { code: number; reason: string; message: string; details?: unknown } {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(StatusError);
    const s = (err as StatusError).toStatus();
    return { code: s.code!, reason: s.reason!, message: s.message!, details: s.details };
  }
  throw new Error("expected an error");
}

describe("strategicMergePatch: maps", () => {
  it("merges maps key by key and deletes keys set to null", () => {
    const out = apply({ metadata: { labels: { tier: null, env: "prod" } }, spec: { nodeSelector: { zone: "z2" } } });
    expect(out.metadata.labels).toEqual({ app: "web", env: "prod" });
    expect(out.spec.nodeSelector).toEqual({ disk: "ssd", zone: "z2" });
    expect(out.spec.containers).toEqual(pod.spec.containers);
  });

  it("$patch: replace makes a map exactly the rest of the patch map", () => {
    expect(apply({ spec: { nodeSelector: { $patch: "replace", gpu: "yes" } } }).spec.nodeSelector).toEqual({ gpu: "yes" });
  });

  it("$patch: delete empties a map", () => {
    expect(apply({ metadata: { labels: { $patch: "delete" } } }).metadata.labels).toEqual({});
  });

  it("refuses any other $patch value on a map (400, kube's unknown patch type message)", () => {
    expect(statusOf(() => apply({ metadata: { labels: { $patch: "merge", a: "b" } } }))).toEqual({
      code: 400, reason: "BadRequest", message: "unknown patch type: merge in map: map[$patch:merge a:b]", details: undefined,
    });
  });

  it("never modifies its inputs (both are frozen here)", () => {
    const patch = deepFreeze({ spec: { containers: [{ name: "app", image: "app:2", env: [{ name: "B", $patch: "delete" }] }] } });
    expect(() => apply(patch)).not.toThrow();
    expect(patch.spec.containers[0].env).toHaveLength(1);
  });

  it("a null patch changes nothing; a non-object patch is a 400 decode error", () => {
    expect(apply(null)).toEqual(pod);
    expect(statusOf(() => apply(["x"]))).toMatchObject({ code: 400, reason: "BadRequest", message: "json: cannot unmarshal array into Go value of type map[string]interface {}" });
  });
});

describe("strategicMergePatch: lists merged by key", () => {
  it("patching one container's image keeps the other containers and fields", () => {
    const out = apply({ spec: { containers: [{ name: "sidecar", image: "side:2" }] } });
    expect(out.spec.containers).toEqual([pod.spec.containers[0], { name: "sidecar", image: "side:2" }]);
  });

  it("a container new to the list goes first (kubectl's patch tutorial order)", () => {
    const out = apply({ spec: { containers: [{ name: "debug", image: "busybox" }] } });
    expect(names(out.spec.containers)).toEqual(["debug", "app", "sidecar"]);
  });

  it("patch order wins over live order for the elements it names", () => {
    const out = apply({ spec: { containers: [{ name: "sidecar", image: "s" }, { name: "app", image: "a" }] } });
    expect(names(out.spec.containers)).toEqual(["sidecar", "app"]);
  });

  it("merges nested lists: env by name, ports by containerPort, volumeMounts by mountPath", () => {
    const out = apply({
      spec: {
        containers: [{
          name: "app",
          env: [{ name: "B", value: "two" }, { name: "D", value: "4" }],
          ports: [{ containerPort: 443, protocol: "TCP" }],
          volumeMounts: [{ mountPath: "/data", readOnly: true }],
        }],
      },
    });
    const app = out.spec.containers[0];
    expect(app.env).toEqual([{ name: "A", value: "1" }, { name: "B", value: "two" }, { name: "D", value: "4" }, { name: "C", value: "3" }]);
    expect(app.ports).toEqual([{ containerPort: 80, name: "http" }, { containerPort: 443, name: "https", protocol: "TCP" }]);
    expect(app.volumeMounts).toEqual([{ name: "data", mountPath: "/data", readOnly: true }]);
    expect(app.image).toBe("app:1");
  });

  it("$patch: delete removes one env var", () => {
    const out = apply({ spec: { containers: [{ name: "app", env: [{ name: "B", $patch: "delete" }] }] } });
    expect(out.spec.containers[0].env).toEqual([{ name: "A", value: "1" }, { name: "C", value: "3" }]);
  });

  it("$patch: replace as a list element replaces the whole list with the other elements", () => {
    const out = apply({ spec: { containers: [{ name: "only", image: "o" }, { $patch: "replace" }] } });
    expect(out.spec.containers).toEqual([{ name: "only", image: "o" }]);
  });

  it("$patch: merge as a list element is refused as kube refuses it", () => {
    expect(statusOf(() => apply({ spec: { containers: [{ name: "app", $patch: "merge" }] } }))).toMatchObject({
      code: 400, reason: "BadRequest", message: "merging lists cannot yet be specified in the patch",
    });
  });

  it("an element without the merge key is a 400 with kube's Go-formatted map", () => {
    expect(statusOf(() => apply({ spec: { containers: [{ image: "nginx:1.25" }] } }))).toEqual({
      code: 400, reason: "BadRequest", message: "map: map[image:nginx:1.25] does not contain declared merge key: name", details: undefined,
    });
    expect(statusOf(() => apply({ spec: { containers: [{ image: "x", $patch: "delete" }] } })).message)
      .toBe("map: map[$patch:delete image:x] does not contain declared merge key: name");
  });

  it("merges imagePullSecrets by name, hostAliases by ip, status.conditions by type", () => {
    const out = apply({
      spec: { imagePullSecrets: [{ name: "r2" }], hostAliases: [{ ip: "10.0.0.1", hostnames: ["b"] }] },
      status: { conditions: [{ type: "Ready", status: "True" }] },
    });
    expect(out.spec.imagePullSecrets).toEqual([{ name: "r2" }, { name: "r1" }]);
    expect(out.spec.hostAliases).toEqual([{ ip: "10.0.0.1", hostnames: ["b"] }]);
    expect(out.status.conditions).toEqual([{ type: "Ready", status: "True" }, { type: "PodScheduled", status: "True" }]);
  });

  it("a list of lists is refused with kube's generic 422", () => {
    expect(statusOf(() => apply({ spec: { initContainers: [["x"]] } }))).toEqual({
      code: 422, reason: "Invalid", message: "the server rejected our request due to an error in our request", details: {},
    });
  });

  it("mixed element types are a 400 (also a list element that is a list, when the live list has objects)", () => {
    expect(statusOf(() => apply({ spec: { containers: ["x"] } })).message).toBe(
      "list element types are not identical: [[map[env:[map[name:A value:1] map[name:B value:2] map[name:C value:3]] image:app:1 name:app ports:[map[containerPort:80 name:http] map[containerPort:443 name:https]] volumeMounts:[map[mountPath:/data name:data]]] map[image:side:1 name:sidecar]] [x]]",
    );
  });
});

describe("strategicMergePatch: atomic lists and scalar sets", () => {
  it("replaces lists without a merge strategy (tolerations)", () => {
    expect(apply({ spec: { tolerations: [{ key: "c", operator: "Exists" }] } }).spec.tolerations).toEqual([{ key: "c", operator: "Exists" }]);
  });

  it("finalizers merge as a set union (duplicates removed), new values first", () => {
    // a (live 0) < b (live 1) → a; c (live 2) > b → b; d is new → d; then c.
    expect(apply({ metadata: { finalizers: ["b", "d"] } }).metadata.finalizers).toEqual(["a", "b", "d", "c"]);
    expect(apply({ metadata: { finalizers: ["d"] } }).metadata.finalizers).toEqual(["d", "a", "b", "c"]);
    expect(apply({ metadata: { finalizers: [] } }).metadata.finalizers).toEqual(["a", "b", "c"]);
  });

  it("$deleteFromPrimitiveList removes values from a scalar list", () => {
    expect(apply({ metadata: { "$deleteFromPrimitiveList/finalizers": ["a", "c", "zz"] } }).metadata.finalizers).toEqual(["b"]);
    // also on a list without a merge strategy, and a no-op on a list the object lacks
    const out = apply({ spec: { containers: [{ name: "app", "$deleteFromPrimitiveList/command": ["x"], "$deleteFromPrimitiveList/args": ["y"] }] } }, {
      spec: { containers: [{ name: "app", command: ["x", "y"] }] },
    });
    expect(out.spec.containers[0]).toEqual({ name: "app", command: ["y"] });
  });

  it("null deletes a whole list", () => {
    expect(apply({ spec: { tolerations: null } }).spec).not.toHaveProperty("tolerations");
  });
});

describe("strategicMergePatch: $setElementOrder", () => {
  it("reorders a list without changing its elements", () => {
    const out = apply({ spec: { "$setElementOrder/containers": [{ name: "sidecar" }, { name: "app" }] } });
    expect(out.spec.containers).toEqual([pod.spec.containers[1], pod.spec.containers[0]]);
  });

  it("orders merged elements; server-only elements keep their live position", () => {
    const out = apply({
      spec: { "$setElementOrder/containers": [{ name: "sidecar" }, { name: "new" }, { name: "app" }], containers: [{ name: "new", image: "n" }] },
    });
    expect(names(out.spec.containers)).toEqual(["sidecar", "new", "app"]);
  });

  it("works with $deleteFromPrimitiveList the way kubectl apply sends them", () => {
    const out = apply({
      metadata: { "$setElementOrder/finalizers": ["c", "d", "a"], "$deleteFromPrimitiveList/finalizers": ["b"], finalizers: ["d"] },
    });
    expect(out.metadata.finalizers).toEqual(["c", "d", "a"]);
  });

  it("refuses a patch list whose order contradicts the directive", () => {
    const s = statusOf(() =>
      apply({ spec: { "$setElementOrder/containers": [{ name: "sidecar" }, { name: "app" }], containers: [{ name: "app" }, { name: "sidecar" }] } }));
    expect(s).toMatchObject({ code: 400, reason: "BadRequest" });
    expect(s.message).toBe(
      "The order in patch list:\n[map[name:app] map[name:sidecar]]\n doesn't match $setElementOrder list:\n[map[name:sidecar] map[name:app]]\n",
    );
  });

  it("malformed directives are 400s or kube's type errors", () => {
    expect(statusOf(() => apply({ spec: { "$setElementOrder/containers": "x" } }))).toMatchObject({
      code: 400, message: "expected a []interface {}, but received a string",
    });
    expect(statusOf(() => apply({ metadata: { "$deleteFromPrimitiveListfinalizers": ["a"] } }))).toMatchObject({
      code: 400, reason: "BadRequest", message: "invalid patch format of primitive list",
    });
    expect(statusOf(() => apply({ metadata: { $setElementOrderfinalizers: ["a"] } }))).toMatchObject({
      code: 400, message: "invalid patch format of setElementOrder list",
    });
  });
});

describe("strategicMergePatch: $retainKeys", () => {
  it("clears the keys not retained before merging (switching a volume's source)", () => {
    const out = apply({ spec: { volumes: [{ name: "data", hostPath: { path: "/srv" }, $retainKeys: ["hostPath", "name"] }] } });
    expect(out.spec.volumes).toEqual([{ name: "data", hostPath: { path: "/srv" } }, { name: "cfg", configMap: { name: "cfg" } }]);
  });

  it("refuses a patch key missing from the list (400)", () => {
    expect(statusOf(() => apply({ spec: { volumes: [{ name: "data", hostPath: { path: "/srv" }, $retainKeys: ["name"] }] } }))).toMatchObject({
      code: 400, reason: "BadRequest", message: "invalid patch format of retainKeys",
    });
    expect(statusOf(() => apply({ spec: { nodeSelector: { $retainKeys: "disk" } } })).message).toBe("invalid patch format of retainKeys");
  });

  it("is honoured on any map, as on the server", () => {
    expect(apply({ spec: { nodeSelector: { $retainKeys: ["zone"] } } }).spec.nodeSelector).toEqual({ zone: "z1" });
  });
});

describe("strategicMergePatch: fields the schema does not know", () => {
  it("behave like a JSON merge patch (maps merge, lists replace)", () => {
    const original = { spec: { extra: { a: 1, b: 2 }, extraList: [1, 2], containers: [] } };
    const out = strategicMergePatch(original, { spec: { extra: { b: null, c: 3 }, extraList: [3], other: { x: null, y: 1 } } }, podSchema);
    expect(out).toEqual({ spec: { extra: { a: 1, c: 3 }, extraList: [3], containers: [], other: { y: 1 } } });
  });

  it("without any schema the whole patch is a merge patch", () => {
    expect(strategicMergePatch({ a: [1], b: { c: 1 } }, { a: [2], b: { d: 2 } }, undefined)).toEqual({ a: [2], b: { c: 1, d: 2 } });
  });

  it("a new field's value is merged into an empty one: directives take effect, nulls are dropped", () => {
    const out = apply({ spec: { affinity: { nodeAffinity: { $patch: "replace", x: null } }, dnsConfig: { nameservers: ["1.1.1.1"], searches: null } } });
    expect(out.spec).toMatchObject({ affinity: { nodeAffinity: {} }, dnsConfig: { nameservers: ["1.1.1.1"] } });
  });

  it("a value of another JSON type replaces the old one", () => {
    expect(apply({ spec: { nodeSelector: "x" } }).spec.nodeSelector).toBe("x");
  });
});

describe("strategicMergePatch: per kind", () => {
  it("adds a label on every kind's template and keeps the rest", () => {
    for (const kind of kinds) {
      const out = strategicMergePatch(kind.template, { metadata: { labels: { patched: "yes" } } }, kind.schema) as { metadata: { labels: object } };
      expect(out.metadata.labels, kind.kind).toMatchObject({ patched: "yes" });
      expect({ ...out, metadata: kind.template.metadata }, kind.kind).toEqual(kind.template);
    }
  });

  it("Service ports merge by port", () => {
    const svc = { spec: { ports: [{ name: "http", port: 80, targetPort: 8080 }, { name: "https", port: 443 }], selector: { app: "a" } } };
    const out = strategicMergePatch(svc, { spec: { ports: [{ port: 443, targetPort: "tls" }], selector: { tier: "b" } } }, schemaOf("Service"));
    expect(out).toEqual({
      spec: { ports: [{ name: "http", port: 80, targetPort: 8080 }, { name: "https", port: 443, targetPort: "tls" }], selector: { app: "a", tier: "b" } },
    });
  });

  it("ServiceAccount secrets merge by name, imagePullSecrets are replaced", () => {
    const sa = { secrets: [{ name: "t1" }], imagePullSecrets: [{ name: "p1" }] };
    expect(strategicMergePatch(sa, { secrets: [{ name: "t2" }], imagePullSecrets: [{ name: "p2" }] }, schemaOf("ServiceAccount")))
      .toEqual({ secrets: [{ name: "t2" }, { name: "t1" }], imagePullSecrets: [{ name: "p2" }] });
  });

  it("Endpoints subsets are atomic", () => {
    const ep = { subsets: [{ addresses: [{ ip: "10.0.0.1" }], ports: [{ port: 80 }] }] };
    const patch = { subsets: [{ addresses: [{ ip: "10.0.0.2" }] }] };
    expect(strategicMergePatch(ep, patch, schemaOf("Endpoints"))).toEqual(patch);
  });

  it("Event nested objects merge as maps; ConfigMap and Secret data merge per key", () => {
    const ev = { involvedObject: { kind: "Pod", name: "p" }, count: 1 };
    expect(strategicMergePatch(ev, { involvedObject: { uid: "u" }, count: 2 }, schemaOf("Event")))
      .toEqual({ involvedObject: { kind: "Pod", name: "p", uid: "u" }, count: 2 });
    expect(strategicMergePatch({ data: { a: "1", b: "2" } }, { data: { a: null, c: "3" } }, schemaOf("ConfigMap"))).toEqual({ data: { b: "2", c: "3" } });
    expect(strategicMergePatch({ data: { a: "MQ==" }, type: "Opaque" }, { data: { b: "Mg==" } }, schemaOf("Secret"))).toEqual({ data: { a: "MQ==", b: "Mg==" }, type: "Opaque" });
  });

  it("LimitRange limits and ResourceQuota scopes are atomic, quota hard merges", () => {
    expect(strategicMergePatch({ spec: { limits: [{ type: "Container", max: { cpu: "2" } }] } }, { spec: { limits: [{ type: "Pod" }] } }, schemaOf("LimitRange")))
      .toEqual({ spec: { limits: [{ type: "Pod" }] } });
    expect(strategicMergePatch({ spec: { hard: { pods: "10" }, scopes: ["BestEffort"] } }, { spec: { hard: { services: "2" }, scopes: ["Terminating"] } }, schemaOf("ResourceQuota")))
      .toEqual({ spec: { hard: { pods: "10", services: "2" }, scopes: ["Terminating"] } });
  });

  it("PersistentVolume and claim: accessModes atomic, capacity and requests merge, claimRef merges", () => {
    expect(strategicMergePatch(
      { spec: { accessModes: ["ReadWriteOnce"], capacity: { storage: "1Gi" }, claimRef: { name: "c", namespace: "d" } } },
      { spec: { accessModes: ["ReadOnlyMany"], capacity: { storage: "2Gi" }, claimRef: { uid: "u" } } },
      schemaOf("PersistentVolume"),
    )).toEqual({ spec: { accessModes: ["ReadOnlyMany"], capacity: { storage: "2Gi" }, claimRef: { name: "c", namespace: "d", uid: "u" } } });
    expect(strategicMergePatch(
      { spec: { accessModes: ["ReadWriteOnce", "ReadOnlyMany"], resources: { requests: { storage: "1Gi" } } } },
      { spec: { accessModes: ["ReadWriteMany"], resources: { limits: { storage: "5Gi" } } } },
      schemaOf("PersistentVolumeClaim"),
    )).toEqual({ spec: { accessModes: ["ReadWriteMany"], resources: { requests: { storage: "1Gi" }, limits: { storage: "5Gi" } } } });
  });

  it("SecurityContextConstraints lists are atomic", () => {
    expect(strategicMergePatch({ users: ["a"], volumes: ["secret"] }, { users: ["b"] }, schemaOf("SecurityContextConstraints"))).toEqual({ users: ["b"], volumes: ["secret"] });
  });

  it("ownerReferences merge by uid", () => {
    const out = apply({ metadata: { ownerReferences: [{ uid: "2", kind: "X", name: "x2", apiVersion: "v1" }, { uid: "1", controller: true }] } }, {
      metadata: { ownerReferences: [{ uid: "1", kind: "X", name: "x1", apiVersion: "v1" }] },
    });
    expect(out.metadata).toEqual({
      ownerReferences: [
        { uid: "2", kind: "X", name: "x2", apiVersion: "v1" },
        { uid: "1", kind: "X", name: "x1", apiVersion: "v1", controller: true },
      ],
    });
  });
});

describe("strategicMergePatch: bounds", () => {
  it("refuses a patch nested deeper than 100 levels with a 400 instead of recursing", () => {
    let deep: unknown = "x";
    for (let i = 0; i < 5000; i++) deep = { a: deep };
    expect(statusOf(() => apply({ metadata: { annotations: deep } }))).toMatchObject({ code: 400, reason: "BadRequest" });
  });
});
