// YAML ⇄ object for the editor, and the mapping from a Kubernetes field path (`spec.ports[0].port`) to the
// place in the user's text, so a 422 cause is marked at its field. Pure; the editor and tests share it.
import { isMap, isScalar, isSeq, LineCounter, parseAllDocuments, parseDocument, stringify, type Node } from "yaml";
import type { KubeObject } from "../kinds";
import { stripObject } from "./list-state";

/** The YAML the editor shows: managedFields dropped, long strings never folded (they would diff badly). */
export function toYaml(obj: unknown): string {
  const value = obj && typeof obj === "object" && "metadata" in (obj as object) ? kubectlOrder(stripObject(obj as KubeObject)) : obj;
  return stringify(value, { lineWidth: 0, aliasDuplicateObjects: false });
}

/** apiVersion, kind, metadata first and status last, as kubectl prints objects; the rest keeps its order. */
function kubectlOrder(obj: KubeObject): KubeObject {
  const { apiVersion, kind, metadata, status, ...rest } = obj as KubeObject & { status?: unknown };
  const out: Record<string, unknown> = {};
  if (apiVersion !== undefined) out.apiVersion = apiVersion;
  if (kind !== undefined) out.kind = kind;
  out.metadata = metadata;
  Object.assign(out, rest);
  if (status !== undefined) out.status = status;
  return out as KubeObject;
}

export class YamlSyntaxError extends Error {
  constructor(
    message: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
    this.name = "YamlSyntaxError";
  }
}

// Duplicate-key detection in the yaml package is quadratic (see ENVIRONMENT.md); the server refuses
// duplicates anyway, and keeping the parse linear keeps a pasted 10,000-key ConfigMap responsive.
const parseOptions = { uniqueKeys: false, prettyErrors: true } as const;

function firstError(errors: readonly { message: string; linePos?: [{ line: number; col: number }, ...unknown[]] }[]): YamlSyntaxError | undefined {
  const e = errors[0];
  if (!e) return undefined;
  return new YamlSyntaxError(e.message.split("\n")[0], e.linePos?.[0]?.line, e.linePos?.[0]?.col);
}

/** One YAML document as an object; throws YamlSyntaxError for bad syntax or a document that is not a mapping. */
export function parseYamlObject(text: string): KubeObject {
  const doc = parseDocument(text, parseOptions);
  const error = firstError(doc.errors as never);
  if (error) throw error;
  const value = doc.toJS({ maxAliasCount: 100 });
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new YamlSyntaxError("the document must be a mapping (an object)");
  return value as KubeObject;
}

/** Every non-empty document of a multi-document YAML text, in order. */
export function parseYamlDocuments(text: string): KubeObject[] {
  const out: KubeObject[] = [];
  for (const doc of parseAllDocuments(text, parseOptions) as ReturnType<typeof parseDocument>[]) {
    const error = firstError(doc.errors as never);
    if (error) throw error;
    const value = doc.toJS({ maxAliasCount: 100 });
    if (value === null || value === undefined) continue;
    if (typeof value !== "object" || Array.isArray(value)) throw new YamlSyntaxError("each document must be a mapping (an object)");
    out.push(value as KubeObject);
  }
  return out;
}

export type PathSegment = string | number;

/** `spec.containers[0].env[1].name`, `metadata.labels[app.kubernetes.io/name]` → segments. */
export function parseFieldPath(path: string): PathSegment[] {
  const out: PathSegment[] = [];
  let i = 0;
  let current = "";
  const flush = () => {
    if (current) out.push(current);
    current = "";
  };
  while (i < path.length) {
    const c = path[i];
    if (c === ".") {
      flush();
      i++;
    } else if (c === "[") {
      flush();
      const end = path.indexOf("]", i);
      const inner = end < 0 ? path.slice(i + 1) : path.slice(i + 1, end);
      out.push(/^\d+$/.test(inner) ? Number(inner) : inner);
      i = end < 0 ? path.length : end + 1;
    } else {
      current += c;
      i++;
    }
  }
  flush();
  return out;
}

export interface TextRange {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
  /** False when the exact field is absent and the range marks its nearest present parent. */
  exact: boolean;
}

/** The value kube quotes in a cause (`Invalid value: "bad label!": ...`), if any. */
export function causeValue(message: string | undefined): string | undefined {
  const m = /^(?:Invalid value|Duplicate value|Unsupported value|Forbidden): ("(?:[^"\\]|\\.)*")/.exec(message ?? "");
  if (!m) return undefined;
  try {
    return JSON.parse(m[1]) as string;
  } catch {
    return undefined;
  }
}

type Pair = { key: unknown; value: unknown };

const keyText = (p: Pair) => (isScalar(p.key) ? String(p.key.value) : undefined);

/**
 * Where `fieldPath` sits in the YAML text (1-based lines and columns, like Monaco). A path that does not
 * exist (a Required field) points at the deepest parent that does: its key, so the marker is visible.
 * Map keys may hold dots (`metadata.labels.app.kubernetes.io/name`): the longest key present wins. kube
 * reports a bad label or annotation at the map's own path (`metadata.labels`) with the key or value as the
 * cause's value: given `value`, a map path lands on the entry with that key (or else that value), so the
 * marker sits on its line, not on `labels:`. `documentIndex` picks a document of a multi-document text
 * (counting non-empty documents, as `parseYamlDocuments` does).
 */
export function fieldPathToRange(text: string, fieldPath: string, value?: string, documentIndex = 0): TextRange | undefined {
  const lineCounter = new LineCounter();
  const all = parseAllDocuments(text, { ...parseOptions, lineCounter, keepSourceTokens: false });
  const doc = (Array.isArray(all) ? all : []).filter((d) => d.contents && !(isScalar(d.contents) && d.contents.value == null))[documentIndex];
  if (!doc?.contents) return undefined;
  let node: Node | null = doc.contents as Node;
  let keyNode: Node | undefined;
  let exact = true;
  const segments = parseFieldPath(fieldPath);
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    if (isMap(node)) {
      const items = node.items as Pair[];
      let pair: Pair | undefined;
      // The longest run of segments that is one key of this map (`app.kubernetes.io/name`).
      for (let j = segments.length; j > i && !pair; j--) {
        const run = segments.slice(i, j);
        if (j - i > 1 && run.some((r) => typeof r === "number")) continue;
        const key = run.join(".");
        pair = items.find((p) => keyText(p) === key);
        if (pair) i = j - 1;
      }
      if (!pair) {
        exact = false;
        break;
      }
      keyNode = pair.key as Node;
      node = (pair.value as Node | null) ?? (pair.key as Node);
    } else if (isSeq(node) && typeof segment === "number" && segment < node.items.length) {
      keyNode = undefined;
      node = node.items[segment] as Node;
    } else {
      exact = false;
      break;
    }
  }
  if (exact && value !== undefined && isMap(node)) {
    const items = node.items as Pair[];
    const entry = items.find((p) => keyText(p) === value) ?? items.find((p) => isScalar(p.value) && String(p.value.value) === value);
    if (entry) {
      keyNode = entry.key as Node;
      node = entry.key as Node;
    }
  }
  // A scalar marks its value; a collection marks its key (marking a whole subtree would hide other markers).
  const target = (node && (isScalar(node) || !keyNode) ? node : keyNode) ?? node;
  const range = target?.range;
  if (!range) return undefined;
  let [start, end] = [range[0], range[1]];
  if (!isScalar(target) && keyNode === undefined) end = Math.min(end, text.indexOf("\n", start) < 0 ? text.length : text.indexOf("\n", start));
  if (end <= start) end = start + 1;
  const a = lineCounter.linePos(start);
  const b = lineCounter.linePos(Math.min(end, text.length));
  return { startLine: a.line, startColumn: a.col, endLine: b.line, endColumn: b.col, exact };
}

/**
 * The smallest single edit turning `from` into `to` (common prefix and suffix kept), as offsets into
 * `from`; undefined when they are equal. The editor replaces text this way so the cursor stays put.
 */
export function minimalEdit(from: string, to: string): { start: number; end: number; text: string } | undefined {
  if (from === to) return undefined;
  let start = 0;
  const max = Math.min(from.length, to.length);
  while (start < max && from.charCodeAt(start) === to.charCodeAt(start)) start++;
  let tail = 0;
  while (tail < max - start && from.charCodeAt(from.length - 1 - tail) === to.charCodeAt(to.length - 1 - tail)) tail++;
  return { start, end: from.length - tail, text: to.slice(start, to.length - tail) };
}
