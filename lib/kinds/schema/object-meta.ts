// metav1 shapes every kind shares (spec 2.1): ObjectMeta, OwnerReference, the Status object used in
// metadata.initializers.result, and ListMeta.
import { metaType } from "./names";
import { any, arr, bool, describe, int, int64, map, obj, str, time } from "./schema";

export const ownerReference = obj(
  {
    apiVersion: str({ description: "API version of the owner." }),
    blockOwnerDeletion: bool({
      description: "When true, and the owner has the foregroundDeletion finalizer, the owner cannot be removed from storage before this object is.",
    }),
    controller: bool({ description: "True when the owner is the managing controller; at most one owner reference may say so." }),
    kind: str({ description: "Kind of the owner." }),
    name: str({ description: "Name of the owner." }),
    uid: str({ description: "UID of the owner." }),
  },
  {
    name: metaType("OwnerReference"),
    description: "Identifies an owning object in the same namespace (or a cluster-scoped owner). Dependents are garbage-collected with their owner.",
    required: ["apiVersion", "kind", "name", "uid"],
  },
);

export const listMeta = obj(
  {
    continue: str({ description: "Opaque token for the next page of a paginated list; absent on the last page." }),
    remainingItemCount: int64({ description: "How many more items a paginated list holds after this page (an estimate)." }),
    resourceVersion: str({ description: "Version of the store this list reflects; start a watch here to miss nothing." }),
    selfLink: str({ description: "Deprecated: URL of this list." }),
  },
  { name: metaType("ListMeta"), description: "Metadata of a list response." },
);

export const statusCause = obj(
  {
    field: str({ description: "Path of the field that caused the error, e.g. `spec.containers[0].name`." }),
    message: str({ description: "Human-readable description of the cause." }),
    reason: str({ description: "Machine-readable cause, e.g. FieldValueRequired." }),
  },
  { name: metaType("StatusCause"), description: "One cause of an error." },
);

export const statusDetails = obj(
  {
    causes: arr(statusCause, { description: "Individual causes, e.g. one per invalid field." }),
    group: str({ description: "API group of the resource concerned." }),
    kind: str({ description: "Kind (or resource) of the object concerned." }),
    name: str({ description: "Name of the object concerned." }),
    retryAfterSeconds: int({ description: "Seconds to wait before retrying, when the error is temporary." }),
    uid: str({ description: "UID of the object concerned." }),
  },
  { name: metaType("StatusDetails"), description: "Extra data about an error." },
);

export const status = obj(
  {
    apiVersion: str({ description: "Versioned schema of this representation (v1)." }),
    code: int({ description: "HTTP status code of the outcome." }),
    details: statusDetails,
    kind: str({ description: "Always Status." }),
    message: str({ description: "Human-readable description of the outcome." }),
    metadata: listMeta,
    reason: str({ description: "Machine-readable reason (NotFound, Invalid, Conflict, ...); empty when unknown." }),
    status: str({ description: "Success or Failure." }),
  },
  { name: metaType("Status"), description: "Outcome of an operation that does not return an object, and the body of every error." },
);

export const managedFieldsEntry = obj(
  {
    apiVersion: str({ description: "Version of the object the field set describes." }),
    fieldsType: str({ description: "Format of fieldsV1; always FieldsV1." }),
    fieldsV1: any({ description: "The set of fields this manager owns." }),
    manager: str({ description: "Name of the manager (e.g. kubectl-client-side-apply)." }),
    operation: str({ description: "Apply or Update." }),
    subresource: str({ description: "Subresource written through, e.g. status; empty for the main resource." }),
    time: time({ description: "When the manager last changed its fields." }),
  },
  { name: metaType("ManagedFieldsEntry"), description: "Which fields one manager set, and how." },
);

export const initializers = obj(
  {
    pending: arr(obj({ name: str({ description: "Name of the initializer process." }) }, {
      name: metaType("Initializer"),
      description: "One pending initializer.",
      required: ["name"],
    }), { mergeKey: "name", strategy: "merge", description: "Initializers that still have to act on the object, in order." }),
    result: describe(status, "Set when initialization failed: why."),
  },
  { name: metaType("Initializers"), description: "Deprecated: pending initializers of an object not yet visible to clients." },
);

export const objectMeta = obj(
  {
    annotations: map(str(), { description: "Unstructured key/value data for tools; not used for selection." }),
    clusterName: str({ description: "Deprecated: name of the cluster the object belongs to." }),
    creationTimestamp: time({ description: "When the server created the object (RFC 3339, UTC). Read-only." }),
    deletionGracePeriodSeconds: int64({ description: "Seconds the object has left to terminate once deletionTimestamp is set. Read-only." }),
    deletionTimestamp: time({ description: "When the object will be (or began to be) deleted. Set by the server on a graceful delete or while finalizers remain. Read-only." }),
    finalizers: arr(str(), {
      strategy: "merge",
      description: "Conditions that must clear (each removed by its owner) before a deleted object leaves storage.",
    }),
    generateName: str({ description: "Prefix for a server-generated unique name, used when name is empty." }),
    generation: int64({ description: "Counter of changes to the desired state. Read-only." }),
    initializers: initializers,
    labels: map(str(), { description: "Key/value pairs used to organise and select objects (label selectors)." }),
    managedFields: arr(managedFieldsEntry, { description: "Which manager set which fields. Internal housekeeping; clients normally leave it alone." }),
    name: str({ description: "Name, unique within the namespace (or the cluster for cluster-scoped kinds). Cannot be changed." }),
    namespace: str({ description: "Namespace the object lives in; empty for cluster-scoped kinds. Cannot be changed." }),
    ownerReferences: arr(ownerReference, {
      mergeKey: "uid",
      strategy: "merge",
      description: "Objects this one depends on; when all owners are gone the object is garbage-collected.",
    }),
    resourceVersion: str({ description: "Opaque version of the object, for optimistic concurrency and watches. Read-only." }),
    selfLink: str({ description: "Deprecated: URL of this object. Read-only." }),
    uid: str({ description: "Unique identifier for the object's whole lifetime, set by the server. Read-only." }),
  },
  { name: metaType("ObjectMeta"), description: "Metadata every persisted object has: name, namespace, labels, annotations and server-managed fields." },
);
