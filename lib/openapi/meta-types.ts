// meta/v1 types the API's operations use besides the kinds themselves: list wrappers, DeleteOptions, WatchEvent,
// Patch and the discovery documents, declared in the same schema language as the kinds.
import { listMeta, objectMeta } from "../kinds/schema/object-meta";
import { coreType, metaType, RAW_EXTENSION_TYPE } from "../kinds/schema/names";
import { arr, bool, describe, int, int64, obj, str, type ObjectSchema } from "../kinds/schema/schema";

/** `<Kind>List`: what list operations answer, named and grouped like the kind (`io.k8s.api.rbac.v1.RoleList`). */
export function listSchema(kind: ObjectSchema & { gvk: { group: string; kind: string } }): ObjectSchema {
  const listKind = `${kind.gvk.kind}List`;
  const apiVersion = kind.gvk.group ? `${kind.gvk.group}/v1` : "v1";
  return obj(
    {
      apiVersion: str({ description: `Versioned schema of this representation; always ${apiVersion}.` }),
      items: arr(kind, { description: `The ${kind.gvk.kind} objects.` }),
      kind: str({ description: `Always ${listKind}.` }),
      metadata: describe(listMeta, "List metadata: resourceVersion to watch from, continue token for the next page."),
    },
    {
      name: kind.name ? `${kind.name}List` : coreType(listKind),
      description: `A list of ${kind.gvk.kind} objects.`,
      required: ["items"],
      gvk: { group: kind.gvk.group, version: "v1", kind: listKind },
    },
  );
}

export const preconditions = obj(
  {
    resourceVersion: str({ description: "The target's resourceVersion must equal this." }),
    uid: str({ description: "The target's UID must equal this." }),
  },
  { name: metaType("Preconditions"), description: "Conditions that must hold for a delete to proceed." },
);

export const deleteOptions = obj(
  {
    apiVersion: str({ description: "Versioned schema of this representation." }),
    dryRun: arr(str(), { description: "All: run every stage but persist nothing." }),
    gracePeriodSeconds: int64({ description: "Seconds before the object is deleted; 0 deletes at once; unset uses the kind's default." }),
    kind: str({ description: "Always DeleteOptions." }),
    orphanDependents: bool({ description: "Deprecated (use propagationPolicy): true orphans the dependents, false garbage-collects them." }),
    preconditions: describe(preconditions, "Must be fulfilled before the deletion is carried out."),
    propagationPolicy: str({ description: "Garbage collection of dependents: Orphan, Background or Foreground." }),
  },
  {
    name: metaType("DeleteOptions"),
    description: "Options of a delete request.",
    gvk: { group: "", version: "v1", kind: "DeleteOptions" },
  },
);

export const watchEvent = obj(
  {
    object: describe(
      obj({}, { name: RAW_EXTENSION_TYPE, description: "An embedded object, serialised as JSON." }),
      "The object in its state after the event (ADDED, MODIFIED), its last state (DELETED), the latest resourceVersion (BOOKMARK) or a Status (ERROR).",
    ),
    type: str({ description: "ADDED, MODIFIED, DELETED, BOOKMARK or ERROR." }),
  },
  {
    name: metaType("WatchEvent"),
    description: "One change notification of a watch stream.",
    required: ["type", "object"],
    gvk: { group: "", version: "v1", kind: "WatchEvent" },
  },
);

export const patch = obj({}, {
  name: metaType("Patch"),
  description: "Body of a PATCH request; its format is given by the Content-Type (JSON patch, merge patch or strategic merge patch).",
});

const serverAddressByClientCIDR = obj(
  {
    clientCIDR: str({ description: "CIDR of the clients this address applies to." }),
    serverAddress: str({ description: "Address (host or host:port) clients in the CIDR should use." }),
  },
  { name: metaType("ServerAddressByClientCIDR"), description: "Server address for a range of clients.", required: ["clientCIDR", "serverAddress"] },
);

export const apiVersions = obj(
  {
    apiVersion: str({ description: "Versioned schema of this representation." }),
    kind: str({ description: "Always APIVersions." }),
    serverAddressByClientCIDRs: arr(serverAddressByClientCIDR, { description: "Server addresses per client CIDR." }),
    versions: arr(str(), { description: "API versions served under /api." }),
  },
  {
    name: metaType("APIVersions"),
    description: "The API versions available under /api.",
    required: ["versions", "serverAddressByClientCIDRs"],
    gvk: { group: "", version: "v1", kind: "APIVersions" },
  },
);

const apiResource = obj(
  {
    categories: arr(str(), { description: "Groups the resource belongs to, e.g. all." }),
    group: str({ description: "Group of a subresource served from another group." }),
    kind: str({ description: "Kind of the resource." }),
    name: str({ description: "Plural name of the resource (or <plural>/<subresource>)." }),
    namespaced: bool({ description: "Whether the resource lives in namespaces." }),
    shortNames: arr(str(), { description: "Short names for the CLI." }),
    singularName: str({ description: "Singular name of the resource." }),
    storageVersionHash: str({ description: "Hash of the storage version." }),
    verbs: arr(str(), { description: "Verbs the resource supports." }),
    version: str({ description: "Version of a subresource served from another version." }),
  },
  { name: metaType("APIResource"), description: "One resource of a group version.", required: ["name", "singularName", "namespaced", "kind", "verbs"] },
);

export const apiResourceList = obj(
  {
    apiVersion: str({ description: "Versioned schema of this representation." }),
    groupVersion: str({ description: "The group version listed." }),
    kind: str({ description: "Always APIResourceList." }),
    resources: arr(apiResource, { description: "The resources." }),
  },
  {
    name: metaType("APIResourceList"),
    description: "The resources of one group version.",
    required: ["groupVersion", "resources"],
    gvk: { group: "", version: "v1", kind: "APIResourceList" },
  },
);


/** autoscaling/v1 Scale: what a custom kind's `/scale` subresource reads and writes. */
export const scale = obj(
  {
    apiVersion: str({ description: "Versioned schema of this representation; always autoscaling/v1." }),
    kind: str({ description: "Always Scale." }),
    metadata: describe(objectMeta, "The scaled object's metadata."),
    spec: obj(
      { replicas: int({ description: "Desired number of replicas." }) },
      { name: "io.k8s.api.autoscaling.v1.ScaleSpec", description: "The desired scale." },
    ),
    status: obj(
      {
        replicas: int({ description: "Observed number of replicas." }),
        selector: str({ description: "Label selector of the scaled pods, in its string form (e.g. app=web)." }),
      },
      { name: "io.k8s.api.autoscaling.v1.ScaleStatus", description: "The observed scale.", required: ["replicas"] },
    ),
  },
  {
    name: "io.k8s.api.autoscaling.v1.Scale",
    description: "The replica count of a scalable object, and the selector of what it runs.",
    gvk: { group: "autoscaling", version: "v1", kind: "Scale" },
  },
);
