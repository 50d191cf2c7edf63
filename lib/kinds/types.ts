// The contract between a kind's one declaration (lib/kinds/<kind>.ts) and the generic code
// (lib/registry, lib/api, lib/openapi, the console). Generic code reads these fields and never names a kind.
import type { JSONSchemaProps } from "../crd-schema/types";
import type { FieldError } from "../status";
import type { ApiGroupNaming } from "./schema/resource";
import type { Schema } from "./schema/schema";

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  selfLink?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string | null;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  [key: string]: unknown;
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  [key: string]: unknown;
}

/** One column of `kubectl get` output (server-side Table) and of the console's list view. */
export interface Column {
  /** Exact kube-apiserver column name, e.g. "Name", "Ready", "Age". */
  name: string;
  type: "string" | "integer" | "number" | "boolean" | "date";
  /** "name" for the name column, otherwise "". */
  format?: string;
  /** 0 = default view; 1 = only with `-o wide`. */
  priority: 0 | 1;
  description: string;
  /** The cell for one object; `now` is the time to compute ages against (ms since epoch). */
  cell: (obj: KubeObject, now: number) => string | number | boolean;
}

export type NameRule = "dns1123-subdomain" | "dns1123-label" | "dns1035-label" | "path-segment";

export interface KindDefinition<T extends KubeObject = KubeObject> {
  kind: string;
  /** API group: "" (the default) for core/v1 under /api/v1, else served at /apis/<group>/v1. */
  group?: string;
  /**
   * Further groups that serve the same stored objects at `/apis/<group>/v1` (OpenShift's SCCs also under
   * security.openshift.io), each with how its Go package names OpenAPI components. Objects are stored with the
   * kind's own apiVersion; a request to such a group reads and writes them with that group's apiVersion.
   */
  alsoServedBy?: ApiGroupNaming[];
  /** Set only on the copy of a kind served for one of its `alsoServedBy` groups: the kind as declared. */
  servedFrom?: KindDefinition<T>;
  /** The version served (default `v1`); a custom kind has one declaration per served version. */
  version?: string;
  /**
   * The storage key's resource (default `plural`). Custom kinds store under `<plural>.<group>`, unique across
   * groups; every served version of one custom kind shares it.
   */
  storageResource?: string;
  /**
   * A custom kind's OpenAPI description (lib/openapi publishes it as kube's apiextensions-apiserver does): the
   * version's `openAPIV3Schema` as the CRD declares it (none: any object), whether the version is served (the
   * storage version's declaration exists even when it is not), the CRD's `listKind` and
   * `spec.preserveUnknownFields`, and its `/scale` subresource.
   */
  openapi?: { schema?: JSONSchemaProps; served: boolean; listKind: string; preserveUnknownFields?: boolean; scale?: boolean };
  /** Lower-case plural: the URL segment (`configmaps`). */
  plural: string;
  singular: string;
  shortNames: string[];
  categories: string[];
  namespaced: boolean;
  /** Rule applied to metadata.name (kube-apiserver 1.32's per-kind name validation). */
  nameRule: NameRule;
  /**
   * Metadata is validated by apimachinery's generic ValidateObjectMeta rather than core's (kube's apiextensions
   * kinds): any qualified name is a valid finalizer, not only the standard ones.
   */
  genericObjectMeta?: boolean;
  /** The kind has a `/status` subresource: main-resource writes keep status, `/status` writes change only status. */
  hasStatus: boolean;
  /**
   * The server keeps `metadata.generation` (kube's custom resource strategy): 1 on create, one more whenever
   * an update changes anything outside metadata and status. Only custom kinds (lib/kinds/custom-kind.ts): kube 1.32's strategies for
   * them never set it (a client's value on create is kept, and no update can change it).
   */
  generation?: boolean;
  /**
   * Further subresources that update the stored object through their own strategy (Namespace `finalize`).
   * Each behaves like `/status`: get, update and patch, keeping everything the strategy does not let change.
   */
  updateSubresources?: Record<string, {
    /** Copy from `body` onto `old`'s clone what this subresource may change; return the object to store. */
    merge: (body: T, old: T) => T;
    validateUpdate?: (obj: T, old: T) => FieldError[];
  }>;
  /**
   * A `/scale` subresource (a CRD version's `subresources.scale`): how the object's replicas and selector read as
   * autoscaling/v1 Scale, and how a Scale's `spec.replicas` is written back (mutates `obj`).
   */
  scale?: {
    read: (obj: T) => { specReplicas: number; statusReplicas: number; selector?: string };
    setReplicas: (obj: T, replicas: number) => void;
  };
  /**
   * Create-only subresources answered by a server-side handler registered under `<plural>/<name>`
   * (ServiceAccount `token`, kube's TokenRequest); the kind file only names them.
   */
  actionSubresources?: string[];
  /**
   * The object as this kind's version answers it, when that differs from the stored one (custom resources: pruned
   * and defaulted by the storage version's schema, then by the requested version's, with its apiVersion); undefined
   * when the stored object is answered as it is. Must not change `stored`.
   */
  readAs?: (stored: T) => T | undefined;
  /**
   * `readAs` over the store's own entry, as JSON: the serialisation to answer, or undefined when the stored one is
   * answered as it is. Remembered per entry (entries never change), so a read of an object already read through this
   * version neither parses nor re-serialises it.
   */
  readJsonAs?: (stored: { readonly object: T; readonly json: string }) => string | undefined;
  /** Set while creates are refused with 405 and this message (a CRD being deleted: kube's terminating handler). */
  createRefusal?: string;
  /** The Warning header every request to this version gets (a CRD's deprecated version). */
  deprecationWarning?: string;
  /** Discovery's verbs when they are not the default set (kube lists a custom resource's in its own order). */
  verbs?: string[];
  /** False when the kind has no delete-collection verb (Namespace: kube's namespace storage has none; 405). */
  deleteCollection?: boolean;
  /** PUT to a missing object creates it (201). */
  allowCreateOnUpdate: boolean;
  /** PUT without metadata.resourceVersion is a last-write-wins overwrite (otherwise 422). */
  allowUnconditionalUpdate: boolean;
  /** Body of an immediate DELETE: the object as last stored, or a Success Status. */
  deleteReturns: "object" | "status";
  /** Body of a delete-collection: the list of deleted objects (default) or a Success Status (spec 4.5, PersistentVolume). */
  deleteCollectionReturns?: "list" | "status";
  /**
   * Field selector fields besides metadata.name and metadata.namespace, with how to read them.
   * A field whose getter yields undefined compares as "".
   */
  selectableFields: Record<string, (obj: T) => string | undefined>;
  /** Which error kube-apiserver gives for an unsupported field selector field:
   *  "label-not-supported" → `field label not supported: <f>`;
   *  "known-only" → `"<f>" is not a known field selector: only "metadata.name", "metadata.namespace"`. */
  fieldSelectorError: "label-not-supported" | "known-only";
  /** Table columns in kube-apiserver 1.32 printer order (Name first, priority-1 columns included). */
  columns: Column[];
  /**
   * `rows[].conditions` of a Table row (kube-apiserver sets them only for finished pods: type `Completed`).
   * Undefined for no conditions.
   */
  tableRowConditions?: (obj: T) => { type: string; status: string; reason: string; message: string }[] | undefined;
  /** A ready-to-create example (console template, tests); `metadata.name` set, no namespace. */
  template: T;
  /**
   * Dotted paths a timer rewrites with nothing else changing (a Lease's `spec.renewTime`, an Event's count
   * and last time when it recurs): an update that moves only these (and resourceVersion/managedFields) is a
   * heartbeat, which the console's change feeds leave out. Unset: every update is news.
   */
  heartbeatFields?: string[];
  /**
   * The kind's fields (spec section 2, exact names) with strategic-merge metadata (lib/kinds/schema/<kind>.ts):
   * drives unknown-field detection, strategic merge patch and the OpenAPI documents.
   */
  schema?: Schema;
  /**
   * Server-side apply's field structure for kinds without `schema` (custom resources: their version's structural
   * schema as kube's structured-merge-diff type sees it, lib/kinds/custom-kind-structure.ts).
   */
  fieldStructure?: Schema;

  // Strategy hooks. All optional; the registry runs them in a fixed order (see lib/registry/README.md).
  /**
   * A request body kube-apiserver's decoder would refuse (e.g. Secret data that is not base64): the decoder
   * message, answered as 400 `<Kind> in version "v1" cannot be handled as a <Kind>: <message>`. Runs first, on
   * the body as received (create, update, and the result of a patch). Does not mutate.
   */
  decodeError?: (obj: T) => string | undefined;
  /** Fill defaults as kube-apiserver's defaulting does (mutates). Runs on create and update. */
  applyDefaults?: (obj: T) => void;
  /** Reset what a client may not set on create (e.g. status to its initial value). Mutates. */
  prepareForCreate?: (obj: T) => void;
  /** Adjust an update before validation; `old` is the stored object. Mutates `obj`. */
  prepareForUpdate?: (obj: T, old: T) => void;
  /** Kind-specific validation on create (metadata is validated generically). */
  validate?: (obj: T) => FieldError[];
  /** Kind-specific validation on update, e.g. immutable fields. */
  validateUpdate?: (obj: T, old: T) => FieldError[];
  /**
   * Validation that sees the stored object on update (`old` undefined on create), for kinds whose checks ratchet
   * (custom resources: an unchanged invalid value is not failed again). Runs after validate/validateUpdate.
   * `warn` takes what the write should answer as Warning headers (a ratcheted CEL rule failure).
   */
  validateWithOld?: (obj: T, old: T | undefined, warn?: (text: string) => void) => FieldError[];
  /**
   * Unknown-field pruning for kinds without a `schema` (custom resources, by their version's structural schema):
   * drops unknown fields of `obj` in place and returns their paths (`spec.foo`), for the Warning headers or the
   * Strict refusal. `strictMessage(paths)` is the 400's message under fieldValidation=Strict.
   */
  pruneUnknown?: (obj: T) => string[];
  strictMessage?: (paths: string[]) => string;
  /**
   * The `/status` subresource's own update hooks (kube-apiserver's status strategy). A status write keeps
   * everything but status from the stored object, then runs these instead of prepareForUpdate/validate/
   * validateUpdate.
   */
  statusStrategy?: {
    prepareForUpdate?: (obj: T, old: T) => void;
    validateUpdate?: (obj: T, old: T, warn?: (text: string) => void) => FieldError[];
  };
  /** Normalise the stored form (e.g. Endpoints subsets repacked, ServiceAccount secrets reduced). Mutates. */
  canonicalize?: (obj: T) => void;
  /**
   * Graceful deletion: the grace period in seconds for this delete, given the client's request
   * (undefined when not set). Kinds without this hook are deleted immediately.
   */
  gracePeriodSeconds?: (obj: T, requested: number | undefined) => number;
  /**
   * Kind-specific deletion (Namespace): mark `obj` (a clone of the stored object, deletionTimestamp already
   * set to `now`) as being deleted and return it to be kept, or return undefined to delete it the usual way.
   */
  beginDeletion?: (obj: T, now: string) => T | undefined;
  /** True while kind-specific finalizers (Namespace `spec.finalizers`) keep an object whose deletion began. */
  holdsDeletion?: (obj: T) => boolean;
  /** The 409 Conflict detail a repeated delete gets while `holdsDeletion` keeps the object (kube's namespace text). */
  deletionPendingMessage?: string;
}

export type AnyKind = KindDefinition<any>;
