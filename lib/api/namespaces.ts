// Namespaces are implicit here: any valid name exists and is Active, so clients that look one up (kubectl
// does after a NotFound, and `kubectl get ns`) get the answer a cluster with that namespace would give.
import { createHash } from "node:crypto";
import { namespaceErrors } from "../validation/object-meta";
import { errors } from "./errors";

export function namespaceObject(name: string) {
  if (namespaceErrors(name).length) throw errors.notFound("namespaces", name);
  const h = createHash("sha256").update(`namespace/${name}`).digest("hex");
  const uid = `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  return {
    kind: "Namespace", apiVersion: "v1",
    metadata: { name, uid, creationTimestamp: null, labels: { "kubernetes.io/metadata.name": name } },
    spec: { finalizers: ["kubernetes"] },
    status: { phase: "Active" },
  };
}

export function namespaceList(names: string[]) {
  return { kind: "NamespaceList", apiVersion: "v1", metadata: { resourceVersion: "" }, items: names.map(namespaceObject) };
}

type Ns = ReturnType<typeof namespaceObject>;

export function namespaceTable(value: Ns | ReturnType<typeof namespaceList>) {
  const items: Ns[] = "items" in value ? value.items : [value];
  return {
    kind: "Table", apiVersion: "meta.k8s.io/v1", metadata: {},
    columnDefinitions: [
      { name: "Name", type: "string", format: "name", description: "Name of the namespace", priority: 0 },
      { name: "Status", type: "string", format: "", description: "The phase of the namespace", priority: 0 },
    ],
    rows: items.map((n) => ({ cells: [n.metadata.name, n.status.phase], object: { kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata: n.metadata } })),
  };
}
