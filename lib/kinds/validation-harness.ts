// Test support for the per-kind validation tables (`<kind>.validation.test.ts`): runs a kind's hooks in the
// registry's write order and reports the causes of the 422 it would answer. Not imported by production code.
import type { FieldError } from "../status";
import { validateObjectMeta, validateObjectMetaUpdate } from "../validation/object-meta";
import type { AnyKind, KubeObject } from "./types";

export interface Cause {
  field: string;
  reason: FieldError["type"];
  message: string;
}

const toCause = (e: FieldError): Cause => ({ field: e.field, reason: e.type, message: e.detail });

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** The kind's template in a namespace (for namespaced kinds), ready to mutate. */
export function templateOf<T extends KubeObject>(kind: AnyKind, namespace = "default"): T {
  const obj = clone(kind.template) as T;
  if (kind.namespaced) obj.metadata.namespace = namespace;
  return obj;
}

/** Create: decode check, defaults, prepareForCreate, metadata and kind validation. Returns the stored form too. */
export function create(kind: AnyKind, body: KubeObject): { decodeError?: string; causes: Cause[]; object: KubeObject } {
  const obj = clone(body);
  const decodeError = kind.decodeError?.(obj);
  if (decodeError) return { decodeError, causes: [], object: obj };
  kind.applyDefaults?.(obj);
  kind.prepareForCreate?.(obj);
  const errors = [...validateObjectMeta(obj.metadata, { namespaced: kind.namespaced, nameRule: kind.nameRule, genericObjectMeta: kind.genericObjectMeta }), ...(kind.validate?.(obj) ?? [])];
  return { causes: errors.map(toCause), object: obj };
}

/** The object as stored after a successful create (throws when the create would fail). */
export function created<T extends KubeObject>(kind: AnyKind, body: KubeObject): T {
  const result = create(kind, body);
  if (result.decodeError || result.causes.length) throw new Error(`create failed: ${result.decodeError ?? JSON.stringify(result.causes)}`);
  return result.object as T;
}

/** Update of a stored object: defaults, prepareForUpdate, and create plus update validation (status carried over). */
export function update(kind: AnyKind, old: KubeObject, body: KubeObject): { decodeError?: string; causes: Cause[]; object: KubeObject } {
  const obj = clone(body);
  const prev = clone(old);
  // The registry decodes an update's body as it decodes a create's.
  const decodeError = kind.decodeError?.(obj);
  if (decodeError) return { decodeError, causes: [], object: obj };
  if (kind.hasStatus) obj.status = clone(prev.status);
  kind.applyDefaults?.(obj);
  kind.prepareForUpdate?.(obj, prev);
  const errors = [
    ...validateObjectMeta(obj.metadata, { namespaced: kind.namespaced, nameRule: kind.nameRule, genericObjectMeta: kind.genericObjectMeta }),
    ...validateObjectMetaUpdate(obj.metadata, prev.metadata),
    ...(kind.validate?.(obj) ?? []),
    ...(kind.validateUpdate?.(obj, prev) ?? []),
  ];
  return { causes: errors.map(toCause), object: obj };
}

/** A table row: what to change in a valid object, and the one cause expected (or none: still valid). */
export type Row<T> = [name: string, mutate: (obj: T) => void, expected: Partial<Cause> | Partial<Cause>[] | null];

/** Applies `mutate` to a fresh copy of `base`. */
export function variant<T extends KubeObject>(base: T, mutate: (obj: T) => void): T {
  const obj = clone(base);
  mutate(obj);
  return obj;
}
