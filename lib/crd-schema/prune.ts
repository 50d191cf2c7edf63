// Pruning unknown fields as kube-apiserver 1.32 does for a custom resource (apiextensions' pruning algorithm
// and objectmeta coercion): a field the schema does not specify is dropped, unless the schema (or an ancestor
// up to the nearest specified field) has x-kubernetes-preserve-unknown-fields; apiVersion, kind and metadata
// are kept at the root and in every x-kubernetes-embedded-resource, where metadata is cut down to ObjectMeta's
// fields. Each dropped field is returned as kube names it in a warning or a strict refusal: `spec.foo`,
// `spec.list[0].bar` (sorted), then the root's `metadata.foo`.
import type { JSONSchemaProps } from "./types";

/** metav1.ObjectMeta's JSON fields: the rest of a metadata object is unknown. */
export const OBJECT_META_FIELDS: ReadonlySet<string> = new Set([
  "name", "generateName", "namespace", "selfLink", "uid", "resourceVersion", "generation", "creationTimestamp",
  "deletionTimestamp", "deletionGracePeriodSeconds", "labels", "annotations", "ownerReferences", "finalizers",
  "managedFields",
]);

const META_FIELDS = new Set(["apiVersion", "kind", "metadata"]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export interface PruneOptions {
  /** The value is a whole resource (the default): its apiVersion, kind and metadata are kept. */
  isResourceRoot?: boolean;
}

const join = (path: string, k: string) => (path ? `${path}.${k}` : k);

/** Drops, in place, every field of `obj` that `schema` does not specify; returns the dropped paths as kube
 *  reports them: the pruned fields sorted, then the root metadata's unknown fields (an embedded resource's
 *  metadata is cut silently, as kube's coercion does). */
export function prune(obj: unknown, schema: JSONSchemaProps | undefined, opts: PruneOptions = {}): string[] {
  const out: string[] = [];
  const root = opts.isResourceRoot ?? true;
  const s = root ? { ...(schema ?? {}), "x-kubernetes-embedded-resource": true } : schema;
  walk(obj, s, "", out, true);
  const pruned = out.filter((p) => !p.startsWith("\0")).sort();
  const meta = out.filter((p) => p.startsWith("\0")).map((p) => p.slice(1));
  return [...pruned, ...meta];
}

/** The fields of ObjectMeta's lists of structs (strict decoding names their unknown fields too). */
const META_LIST_FIELDS: Record<string, ReadonlySet<string>> = {
  ownerReferences: new Set(["apiVersion", "kind", "name", "uid", "controller", "blockOwnerDeletion"]),
  managedFields: new Set(["manager", "operation", "apiVersion", "time", "fieldsType", "fieldsV1", "subresource"]),
};

/** Cuts a resource's metadata to ObjectMeta's fields; only the root's cut fields are reported (marked \0). */
function embeddedMeta(x: Record<string, unknown>, path: string, out: string[], isRoot: boolean): void {
  const meta = x.metadata;
  if (!isObject(meta)) return;
  const metaPath = join(path, "metadata");
  const report = (p: string) => {
    if (isRoot) out.push(`\0${p}`);
  };
  for (const k of Object.keys(meta)) {
    if (!OBJECT_META_FIELDS.has(k)) {
      report(join(metaPath, k));
      delete meta[k];
      continue;
    }
    const known = META_LIST_FIELDS[k];
    const list = meta[k];
    if (!known || !Array.isArray(list)) continue;
    list.forEach((item, i) => {
      if (!isObject(item)) return;
      for (const f of Object.keys(item)) {
        if (known.has(f)) continue;
        report(`${join(metaPath, k)}[${i}].${f}`);
        delete item[f];
      }
    });
  }
}

function walk(x: unknown, s: JSONSchemaProps | undefined, path: string, out: string[], isRoot = false): void {
  if (s?.["x-kubernetes-preserve-unknown-fields"]) {
    skip(x, s, path, out, isRoot);
    return;
  }
  if (Array.isArray(x)) {
    const items = s && !Array.isArray(s.items) ? s.items : undefined;
    x.forEach((v, i) => walk(v, items, `${path}[${i}]`, out));
    return;
  }
  if (!isObject(x)) return;
  if (!s) {
    for (const k of Object.keys(x)) {
      out.push(join(path, k));
      delete x[k];
    }
    return;
  }
  fields(x, s, path, out, isRoot, true);
}

/** Below x-kubernetes-preserve-unknown-fields: unknown fields stay, specified ones are still pruned inside. */
function skip(x: unknown, s: JSONSchemaProps, path: string, out: string[], isRoot = false): void {
  if (Array.isArray(x)) {
    const items = !Array.isArray(s.items) ? s.items : undefined;
    if (items) x.forEach((v, i) => skip(v, items, `${path}[${i}]`, out));
    return;
  }
  if (!isObject(x)) return;
  fields(x, s, path, out, isRoot, false);
}

/**
 * An object's fields: an embedded resource's apiVersion/kind/metadata handled as kube does, specified fields
 * (properties, additionalProperties) pruned inside, and the unknown ones dropped and reported when `dropUnknown`
 * (not below x-kubernetes-preserve-unknown-fields). Root metadata is not reported (kube prunes it silently).
 */
function fields(x: Record<string, unknown>, s: JSONSchemaProps, path: string, out: string[], isRoot: boolean, dropUnknown: boolean): void {
  const embedded = !!s["x-kubernetes-embedded-resource"];
  if (embedded) embeddedMeta(x, path, out, isRoot);
  for (const k of Object.keys(x)) {
    if (embedded && META_FIELDS.has(k)) continue;
    const prop = s.properties?.[k];
    if (prop) walk(x[k], prop, join(path, k), out);
    else if (s.additionalProperties !== undefined) {
      walk(x[k], typeof s.additionalProperties === "object" ? s.additionalProperties : undefined, join(path, k), out);
    } else if (dropUnknown) {
      if (!META_FIELDS.has(k) || path) out.push(join(path, k));
      delete x[k];
    }
  }
}

/** kube's warning text for one dropped field. */
export const unknownFieldWarning = (path: string): string => `unknown field ${JSON.stringify(path)}`;

/** The 400's message when fieldValidation=Strict meets unknown fields (kube's strict decoding error). */
export const strictDecodingMessage = (kind: string, version: string, paths: string[]): string =>
  `${kind} in version ${JSON.stringify(version)} cannot be handled as a ${kind}: strict decoding error: ${paths.map(unknownFieldWarning).join(", ")}`;
