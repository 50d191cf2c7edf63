// kubectl's client-side apply annotation, which server-side apply keeps in step when the applier is `kubectl`
// (kube's lastAppliedUpdater) and reads to forgive conflicts with the fields client-side apply last set
// (lastAppliedManager): the upgrade path from `kubectl apply` to `kubectl apply --server-side`.
import type { Schema } from "../kinds/schema/schema";
import type { KubeObject } from "../kinds/types";
import { TOTAL_ANNOTATION_SIZE } from "../validation/object-meta";
import { compare } from "./compare";
import type { FieldSet } from "./field-set";
import { goJson } from "./go-json";
import { fieldSetOf } from "./to-field-set";
import { validateConfiguration } from "./validate";

export const LAST_APPLIED_ANNOTATION = "kubectl.kubernetes.io/last-applied-configuration";

/** The manager whose applies maintain the annotation and may take over client-side apply's fields. */
export const KUBECTL_MANAGER = "kubectl";

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function hasLastApplied(obj: KubeObject): boolean {
  return !!obj.metadata?.annotations?.[LAST_APPLIED_ANNOTATION];
}

/** The annotation's value for an applied configuration: the configuration without the annotation, as Go JSON. */
export function buildLastApplied(config: Record<string, unknown>): string {
  const copy = structuredClone(config);
  const meta = copy.metadata;
  if (isMap(meta) && isMap(meta.annotations)) delete meta.annotations[LAST_APPLIED_ANNOTATION];
  return `${goJson(copy)}\n`;
}

/** Sets the annotation unless that would take the annotations over kube's total size limit. */
export function setLastApplied(obj: KubeObject, value: string): void {
  const annotations: Record<string, string> = { ...(obj.metadata.annotations ?? {}), [LAST_APPLIED_ANNOTATION]: value };
  let size = 0;
  for (const [k, v] of Object.entries(annotations)) size += utf8Length(k) + utf8Length(v);
  if (size > TOTAL_ANNOTATION_SIZE) delete annotations[LAST_APPLIED_ANNOTATION];
  obj.metadata.annotations = annotations;
}

const utf8 = new TextEncoder();
const utf8Length = (s: string) => utf8.encode(s).length;

/**
 * Fields client-side apply last set and that still hold the value it set: conflicts on them do not stop
 * `kubectl` from taking them over. Undefined when the object has no usable annotation.
 */
export function allowedConflicts(live: KubeObject, schema: Schema | undefined, apiVersion: string): FieldSet | undefined {
  const raw = live.metadata?.annotations?.[LAST_APPLIED_ANNOTATION];
  if (!raw) return undefined;
  let lastApplied: unknown;
  try {
    lastApplied = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!isMap(lastApplied) || lastApplied.apiVersion !== apiVersion) return undefined;
  if (schema && validateConfiguration(lastApplied, schema).length) return undefined;
  const c = compare(lastApplied, live, schema);
  return fieldSetOf(lastApplied, schema).difference(c.modified).difference(c.added).difference(c.removed);
}
