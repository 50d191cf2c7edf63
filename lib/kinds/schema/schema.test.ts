import { describe, expect, it } from "vitest";
import { kinds } from "../index";
import { fieldSchema, itemSchema, type Schema } from "./schema";
import { podSchema } from "./pod";
import { serviceSchema } from "./service";

/** Schema at a dotted path; `[]` steps into list elements (`spec.containers[].env`). */
function at(schema: Schema, path: string): Schema {
  let s: Schema | undefined = schema;
  for (const part of path.split(".")) {
    const list = part.endsWith("[]");
    s = fieldSchema(s, list ? part.slice(0, -2) : part);
    if (list) s = itemSchema(s);
    if (!s) throw new Error(`no schema at ${path} (${part})`);
  }
  return s;
}

const patchMeta = (s: Schema) =>
  s.type === "array" ? { mergeKey: s.mergeKey, strategy: s.strategy, listType: s.listType } : { type: s.type };

describe("kind schemas", () => {
  it("every kind has a schema named and tagged like kube-apiserver's", () => {
    for (const kind of kinds) {
      const s = kind.schema;
      expect(s?.type, kind.kind).toBe("object");
      if (s?.type !== "object") continue;
      const goPackage = {
        "": "io.k8s.api.core", "rbac.authorization.k8s.io": "io.k8s.api.rbac", "coordination.k8s.io": "io.k8s.api.coordination",
        "apiextensions.k8s.io": "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions",
      }[kind.group ?? ""];
      expect(s.name).toBe(`${goPackage}.v1.${kind.kind}`);
      expect(s.gvk).toEqual({ group: kind.group ?? "", version: "v1", kind: kind.kind });
      expect(Object.keys(s.properties)).toEqual(expect.arrayContaining(["apiVersion", "kind", "metadata"]));
      expect(s.description).toBeTruthy();
    }
  });

  it("object metadata has exactly the spec 2.1 fields plus managedFields", () => {
    const meta = at(podSchema, "metadata");
    expect(meta.type === "object" && Object.keys(meta.properties).sort()).toEqual([
      "annotations", "clusterName", "creationTimestamp", "deletionGracePeriodSeconds", "deletionTimestamp", "finalizers",
      "generateName", "generation", "initializers", "labels", "managedFields", "name", "namespace", "ownerReferences",
      "resourceVersion", "selfLink", "uid",
    ]);
  });

  it("container has the spec 2.13 fields and the three 1.32 ones", () => {
    const c = at(podSchema, "spec.containers[]");
    expect(c.type === "object" && Object.keys(c.properties).sort()).toEqual([
      "args", "command", "env", "envFrom", "image", "imagePullPolicy", "lifecycle", "livenessProbe", "name", "ports",
      "readinessProbe", "resizePolicy", "resources", "restartPolicy", "securityContext", "startupProbe", "stdin", "stdinOnce",
      "terminationMessagePath", "terminationMessagePolicy", "tty", "volumeDevices", "volumeMounts", "workingDir",
    ]);
  });

  it("pod volumes carry every Pod volume source of spec 2.14, PersistentVolume spec the PV ones", () => {
    const volume = at(podSchema, "spec.volumes[]");
    expect(volume.type === "object" && Object.keys(volume.properties).length).toBe(31); // name + 27 spec sources + csi, ephemeral, image
    const pv = kinds.find((k) => k.kind === "PersistentVolume")!.schema!;
    const spec = at(pv, "spec");
    const keys = spec.type === "object" ? Object.keys(spec.properties) : [];
    expect(keys).toContain("local");
    expect(keys).not.toContain("configMap");
    expect(keys).not.toContain("emptyDir");
    expect(at(pv, "spec.hostPath").type === "object" && Object.keys((at(pv, "spec.hostPath") as { properties: object }).properties)).toEqual(["path"]);
    expect(Object.keys((at(podSchema, "spec.volumes[].hostPath") as { properties: object }).properties)).toEqual(["path", "type"]);
    expect(at(pv, "spec.storageos.secretRef")).toMatchObject({ name: "io.k8s.api.core.v1.ObjectReference" });
    expect(at(podSchema, "spec.volumes[].storageos.secretRef")).toMatchObject({ name: "io.k8s.api.core.v1.LocalObjectReference" });
    expect(Object.keys((at(pv, "spec.iscsi") as { properties: object }).properties)).not.toContain("initiatorName");
  });

  it("uses kube-apiserver's strategic merge keys and strategies (kinds.md 8.5 and per-kind SMP notes)", () => {
    const kind = (k: string) => kinds.find((d) => d.kind === k)!.schema!;
    const cases: [Schema, string, object][] = [
      [podSchema, "spec.containers", { mergeKey: "name", strategy: "merge", listType: "map" }],
      [podSchema, "spec.initContainers", { mergeKey: "name", strategy: "merge" }],
      [podSchema, "spec.containers[].env", { mergeKey: "name", strategy: "merge" }],
      [podSchema, "spec.containers[].ports", { mergeKey: "containerPort", strategy: "merge" }],
      [podSchema, "spec.containers[].volumeMounts", { mergeKey: "mountPath", strategy: "merge" }],
      [podSchema, "spec.containers[].volumeDevices", { mergeKey: "devicePath", strategy: "merge" }],
      [podSchema, "spec.containers[].envFrom", { mergeKey: undefined, strategy: undefined, listType: "atomic" }],
      [podSchema, "spec.containers[].command", { strategy: undefined, listType: "atomic" }],
      [podSchema, "spec.containers[].args", { strategy: undefined, listType: "atomic" }],
      [podSchema, "spec.containers[].securityContext.capabilities.add", { listType: "atomic" }],
      [podSchema, "spec.containers[].lifecycle.preStop.httpGet.httpHeaders", { listType: "atomic" }],
      [podSchema, "spec.volumes", { mergeKey: "name", strategy: "merge,retainKeys", listType: "map" }],
      [podSchema, "spec.imagePullSecrets", { mergeKey: "name", strategy: "merge" }],
      [podSchema, "spec.hostAliases", { mergeKey: "ip", strategy: "merge" }],
      [podSchema, "spec.hostAliases[].hostnames", { listType: "atomic" }],
      [podSchema, "spec.tolerations", { mergeKey: undefined, strategy: undefined, listType: "atomic" }],
      [podSchema, "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms", { listType: "atomic" }],
      [podSchema, "spec.securityContext.supplementalGroups", { listType: "atomic" }],
      [podSchema, "spec.dnsConfig.nameservers", { listType: "atomic" }],
      [podSchema, "spec.volumes[].secret.items", { listType: "atomic" }],
      [podSchema, "spec.volumes[].projected.sources", { listType: "atomic" }],
      [podSchema, "status.conditions", { mergeKey: "type", strategy: "merge" }],
      [podSchema, "status.containerStatuses", { listType: "atomic" }],
      [podSchema, "metadata.finalizers", { mergeKey: undefined, strategy: "merge", listType: "set" }],
      [podSchema, "metadata.ownerReferences", { mergeKey: "uid", strategy: "merge" }],
      [podSchema, "metadata.initializers.pending", { mergeKey: "name", strategy: "merge" }],
      [podSchema, "spec.ephemeralContainers", { mergeKey: "name", strategy: "merge" }],
      [podSchema, "spec.topologySpreadConstraints", { mergeKey: "topologyKey", strategy: "merge", listType: "map" }],
      [podSchema, "spec.schedulingGates", { mergeKey: "name", strategy: "merge" }],
      [podSchema, "spec.resourceClaims", { mergeKey: "name", strategy: "merge,retainKeys" }],
      [podSchema, "spec.readinessGates", { listType: "atomic" }],
      [podSchema, "spec.securityContext.sysctls", { listType: "atomic" }],
      [podSchema, "status.podIPs", { mergeKey: "ip", strategy: "merge" }],
      [podSchema, "status.hostIPs", { mergeKey: "ip", strategy: "merge", listType: "atomic" }],
      [podSchema, "spec.containers[].resizePolicy", { listType: "atomic" }],
      [serviceSchema, "spec.clusterIPs", { listType: "atomic" }],
      [serviceSchema, "status.conditions", { mergeKey: "type", strategy: "merge" }],
      [kind("PersistentVolume"), "spec.mountOptions", { listType: "atomic" }],
      [kind("PersistentVolumeClaim"), "status.conditions", { mergeKey: "type", strategy: "merge" }],
      [serviceSchema, "spec.ports", { mergeKey: "port", strategy: "merge" }],
      [serviceSchema, "spec.externalIPs", { listType: "atomic" }],
      [serviceSchema, "spec.loadBalancerSourceRanges", { listType: "atomic" }],
      [serviceSchema, "status.loadBalancer.ingress", { listType: "atomic" }],
      [kind("ServiceAccount"), "secrets", { mergeKey: "name", strategy: "merge" }],
      [kind("ServiceAccount"), "imagePullSecrets", { mergeKey: undefined, strategy: undefined, listType: "atomic" }],
      [kind("Endpoints"), "subsets", { listType: "atomic" }],
      [kind("Endpoints"), "subsets[].addresses", { listType: "atomic" }],
      [kind("LimitRange"), "spec.limits", { listType: "atomic" }],
      [kind("ResourceQuota"), "spec.scopes", { listType: "atomic" }],
      [kind("PersistentVolumeClaim"), "spec.accessModes", { listType: "atomic" }],
      [kind("PersistentVolumeClaim"), "spec.selector.matchExpressions", { listType: "atomic" }],
      [kind("PersistentVolume"), "spec.accessModes", { listType: "atomic" }],
      [kind("SecurityContextConstraints"), "volumes", { strategy: undefined, listType: "atomic" }],
    ];
    for (const [schema, path, expected] of cases) expect(patchMeta(at(schema, path)), path).toMatchObject(expected);
    for (const path of ["metadata.labels", "metadata.annotations", "spec.nodeSelector", "spec.containers[].resources.limits"]) {
      expect(at(podSchema, path).type, path).toBe("map");
    }
    expect(at(kind("Secret"), "data")).toMatchObject({ type: "map", values: { type: "bytes" } });
    expect(at(kind("PersistentVolume"), "spec.capacity")).toMatchObject({ type: "map", values: { type: "quantity" } });
  });

  it("uses the exact spec field names for scalar types that matter on the wire", () => {
    expect(at(podSchema, "spec.containers[].ports[].containerPort")).toMatchObject({ type: "integer", format: "int32" });
    expect(at(podSchema, "spec.activeDeadlineSeconds")).toMatchObject({ type: "integer", format: "int64" });
    expect(at(serviceSchema, "spec.ports[].targetPort").type).toBe("int-or-string");
    expect(at(podSchema, "metadata.creationTimestamp").type).toBe("time");
    expect(at(kinds.find((k) => k.kind === "Event")!.schema!, "eventTime").type).toBe("micro-time");
  });
});
