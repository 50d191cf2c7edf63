// Label and field selectors of a list or watch, compiled once into a predicate over objects of one kind.
import type { AnyKind, KubeObject } from "../kinds/types";
import { checkFieldSelector, matchesFields, parseFieldSelector, pinnedValue } from "../selectors/field-selector";
import { matchesLabels, parseLabelSelector } from "../selectors/label-selector";

export interface ObjectFilter {
  matches: (obj: KubeObject) => boolean;
  /** Set when the field selector pins metadata.name (a single-object list or watch). */
  name?: string;
  /** Set when the field selector pins metadata.namespace. */
  namespace?: string;
  /** True when no selector was given (remainingItemCount is only reported then). */
  empty: boolean;
  /** Set when only a label selector was given: `matches` is then `matchesLabels` of the object's labels. */
  matchesLabels?: (labels: Readonly<Record<string, string>> | undefined) => boolean;
}

const supportedFields = new WeakMap<AnyKind, ReadonlySet<string>>();

export function fieldValue(kind: AnyKind, obj: KubeObject, name: string): string {
  if (name === "metadata.name") return obj.metadata?.name ?? "";
  if (name === "metadata.namespace") return obj.metadata?.namespace ?? "";
  const get = kind.selectableFields[name];
  return (get ? get(obj) : undefined) ?? "";
}

export function compileFilter(kind: AnyKind, labelSelector: string, fieldSelector: string): ObjectFilter {
  const labels = parseLabelSelector(labelSelector);
  const fields = parseFieldSelector(fieldSelector);
  let supported = supportedFields.get(kind);
  if (!supported) { supported = new Set(Object.keys(kind.selectableFields)); supportedFields.set(kind, supported); }
  checkFieldSelector(fields, supported, kind.fieldSelectorError);
  return {
    // A method, not a named arrow: watchers hold their filter for minutes (see registry.ts's prepareWatch).
    matches(obj: KubeObject) {
      return (labels.length === 0 || matchesLabels(labels, obj.metadata?.labels)) &&
        (fields.length === 0 || matchesFields(fields, (f) => fieldValue(kind, obj, f)));
    },
    ...(fields.length === 0 && labels.length > 0 ? { matchesLabels: (l: Readonly<Record<string, string>> | undefined) => matchesLabels(labels, l) } : {}),
    name: pinnedValue(fields, "metadata.name"),
    namespace: pinnedValue(fields, "metadata.namespace"),
    empty: labels.length === 0 && fields.length === 0,
  };
}
