// The console's saves are server-side applies under one field manager. Pure helpers: the configuration the
// editor sends (server-owned fields stripped, as a manifest kubectl applies would carry none of them), the
// conflicts of a 409 apply answer (field and owning manager, from kube's `FieldManagerConflict` causes), and
// "leave these fields": the configuration without the fields another manager owns.
import type { KubeObject } from "../kinds";
import { valueString, type Json } from "../apply/path-element";
import type { StatusCause } from "./api-error";

/** The field manager every console write is recorded under (`?fieldManager=`). */
export const CONSOLE_FIELD_MANAGER = "cluster-core-console";

/** metadata fields the server sets; an apply configuration never carries them (managedFields must be nil). */
const SERVER_METADATA = ["managedFields", "resourceVersion", "uid", "creationTimestamp", "generation", "selfLink", "deletionTimestamp", "deletionGracePeriodSeconds"] as const;

/** The object as an apply configuration: a copy without status and the server's metadata. */
export function applyConfiguration(obj: KubeObject): KubeObject {
  const copy = structuredClone(obj) as KubeObject & { status?: unknown };
  delete copy.status;
  const metadata = (copy.metadata ?? {}) as Record<string, unknown>;
  for (const key of SERVER_METADATA) delete metadata[key];
  copy.metadata = metadata as KubeObject["metadata"];
  return copy;
}

export interface ApplyConflict {
  /** SMD's path as kube prints it: `.data.key`, `.spec.containers[name="app"].image`. */
  field: string;
  manager: string;
  /** `Update` when kube named the manager with `using <apiVersion>` (an Update entry), else `Apply`. */
  operation: "Apply" | "Update";
  apiVersion?: string;
  subresource?: string;
}

const QUOTED = String.raw`"(?:[^"\\]|\\.)*"`;
const MANAGER_MESSAGE = new RegExp(`^conflict with (${QUOTED})(?: with subresource (${QUOTED}))?(?: using (\\S+))?$`);

function unquote(s: string): string {
  try {
    return JSON.parse(s) as string;
  } catch {
    return s.slice(1, -1);
  }
}

/** The field-manager conflicts of a 409 apply answer (its `FieldManagerConflict` causes); empty for any other refusal. */
export function applyConflicts(causes: readonly StatusCause[]): ApplyConflict[] {
  const out: ApplyConflict[] = [];
  for (const cause of causes) {
    if (cause.reason !== "FieldManagerConflict" || !cause.field) continue;
    const m = MANAGER_MESSAGE.exec(cause.message ?? "");
    if (!m) {
      out.push({ field: cause.field, manager: (cause.message ?? "").replace(/^conflict with /, "") || "another manager", operation: "Apply" });
      continue;
    }
    out.push({
      field: cause.field,
      manager: unquote(m[1]),
      operation: m[3] ? "Update" : "Apply",
      ...(m[3] ? { apiVersion: m[3] } : {}),
      ...(m[2] ? { subresource: unquote(m[2]) } : {}),
    });
  }
  return out;
}

/** Conflicts grouped by the manager that owns them, in the order kube listed them. */
export function conflictsByManager(conflicts: readonly ApplyConflict[]): { manager: string; operation: string; apiVersion?: string; subresource?: string; fields: string[] }[] {
  const groups = new Map<string, { manager: string; operation: string; apiVersion?: string; subresource?: string; fields: string[] }>();
  for (const c of conflicts) {
    const key = JSON.stringify([c.manager, c.operation, c.apiVersion, c.subresource]);
    const group = groups.get(key) ?? { manager: c.manager, operation: c.operation, apiVersion: c.apiVersion, subresource: c.subresource, fields: [] };
    group.fields.push(c.field);
    groups.set(key, group);
  }
  return [...groups.values()];
}

type Segment = string | number;

/** The closing `]` of a bracket starting at `open`, skipping quoted strings and nested brackets or braces. */
function closingBracket(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    const c = s[i];
    if (c === '"') {
      for (i++; i < s.length && s[i] !== '"'; i++) if (s[i] === "\\") i++;
    } else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") {
      depth--;
      if (depth === 0) return c === "]" ? i : -1;
    }
  }
  return -1;
}

/** Top-level `a=1,b="x,y"` → [["a","1"],["b","\"x,y\""]]. */
function keyPairs(inner: string): [string, string][] | undefined {
  const out: [string, string][] = [];
  let depth = 0;
  let start = 0;
  const push = (part: string) => {
    const eq = part.indexOf("=");
    if (eq <= 0) return false;
    out.push([part.slice(0, eq), part.slice(eq + 1)]);
    return true;
  };
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '"') {
      for (i++; i < inner.length && inner[i] !== '"'; i++) if (inner[i] === "\\") i++;
    } else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") depth--;
    else if (c === "," && depth === 0) {
      if (!push(inner.slice(start, i))) return undefined;
      start = i + 1;
    }
  }
  return push(inner.slice(start)) ? out : undefined;
}

function itemMatches(item: unknown, inner: string, index: number): boolean {
  if (/^\d+$/.test(inner)) return Number(inner) === index;
  if (inner.startsWith("=")) return valueString(item as Json) === inner.slice(1);
  if (!item || typeof item !== "object" || Array.isArray(item)) return false;
  const pairs = keyPairs(inner);
  return !!pairs && pairs.every(([k, v]) => (item as Record<string, unknown>)[k] !== undefined && valueString((item as Record<string, Json>)[k]) === v);
}

/**
 * Where a field path as kube prints it sits in `obj`, as keys and indexes; undefined when it is not there.
 * Map keys may contain dots (`.metadata.labels.app.kubernetes.io/name`), so the keys the object really has
 * are tried, longest first.
 */
export function locateField(obj: unknown, field: string): Segment[] | undefined {
  if (field === "") return [];
  if (field.startsWith(".")) {
    if (!obj || typeof obj !== "object" || Array.isArray(obj)) return undefined;
    const keys = Object.keys(obj).sort((a, b) => b.length - a.length);
    for (const key of keys) {
      const after = field.slice(1 + key.length);
      if (!field.startsWith(`.${key}`) || (after !== "" && after[0] !== "." && after[0] !== "[")) continue;
      const rest = locateField((obj as Record<string, unknown>)[key], after);
      if (rest) return [key, ...rest];
    }
    return undefined;
  }
  if (field.startsWith("[")) {
    if (!Array.isArray(obj)) return undefined;
    const close = closingBracket(field, 0);
    if (close < 0) return undefined;
    const inner = field.slice(1, close);
    for (let i = 0; i < obj.length; i++) {
      if (!itemMatches(obj[i], inner, i)) continue;
      const rest = locateField(obj[i], field.slice(close + 1));
      if (rest) return [i, ...rest];
    }
  }
  return undefined;
}

/**
 * "Leave these fields": the configuration without each field (a map key deleted, a list item spliced out),
 * so the next apply neither sets nor claims them. Fields not found are returned in `missing`.
 */
export function withoutFields(config: KubeObject, fields: readonly string[]): { config: KubeObject; missing: string[] } {
  const copy = structuredClone(config);
  const missing: string[] = [];
  for (const field of fields) {
    const at = locateField(copy, field);
    if (!at || at.length === 0) {
      missing.push(field);
      continue;
    }
    let parent: unknown = copy;
    for (const seg of at.slice(0, -1)) parent = (parent as Record<Segment, unknown>)[seg];
    const last = at[at.length - 1];
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete (parent as Record<string, unknown>)[last as string];
  }
  return { config: copy, missing };
}
