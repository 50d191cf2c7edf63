// A CRD version's openAPIV3Schema as a tree of fields, read one level at a time: `schemaChildren` looks at a
// schema's own properties only (never deeper), so the page builds the rows of a node when it is opened and a
// cert-manager-size schema costs what is on screen. Each field carries what an operator checks: its type
// (kubectl explain's words: `[]object`, `map[string]string`, `string (date-time)`, `int-or-string`), whether it
// is required, its description, enum, default, bounds and pattern, nullable, the x-kubernetes-* markers and its
// CEL rules. An array's items and a map's values are looked through (their fields are the node's children, at
// `[*]` in the path), their own rules and bounds shown as the node's "each item" / "each value".
import type { JSONSchemaProps, ValidationRule } from "@/lib/crd-schema/types";

export interface SchemaFacts {
  /** kubectl explain's type words, format in parentheses. */
  type: string;
  description?: string;
  /** Each allowed value as JSON (`"Always"`, `3`). */
  enum?: string[];
  /** The default as JSON. */
  default?: string;
  /** Bounds and other value checks, as `keyword: value` (`minimum: 1`, `pattern: ^[a-z]+$`, `uniqueItems`). */
  constraints: string[];
  /** nullable and the x-kubernetes-* markers (`x-kubernetes-list-type: map`). */
  markers: string[];
  rules: ValidationRule[];
}

export interface SchemaNode {
  name: string;
  /** From the root: `.spec.ports[*].name`; unique among a schema's nodes. */
  path: string;
  /** 0 for the root's own properties (spec, status...). */
  depth: number;
  required: boolean;
  facts: SchemaFacts;
  /** An array's items or a map's values, when they say more than their type (rules, bounds, enum...). */
  each?: { label: "each item" | "each value"; facts: SchemaFacts };
  /** Whether the node has fields below it (so it can be opened). */
  hasChildren: boolean;
  /** The schema whose properties are the node's children (the node's, or its items' / values'). */
  container?: JSONSchemaProps;
  /** The path its children continue from (`.spec.ports[*]`). */
  containerPath: string;
}

const json = (v: unknown) => JSON.stringify(v);
const isSchema = (v: unknown): v is JSONSchemaProps => !!v && typeof v === "object" && !Array.isArray(v);
const props = (s: JSONSchemaProps | undefined) => (isSchema(s) && isSchema(s.properties) ? s.properties : undefined);
const itemsOf = (s: JSONSchemaProps) => (isSchema(s.items) ? s.items : undefined);
const valuesOf = (s: JSONSchemaProps) => (isSchema(s.additionalProperties) ? s.additionalProperties : undefined);

/** kubectl explain's words for a schema's type. */
export function typeLabel(s: JSONSchemaProps | undefined, depth = 0): string {
  if (!isSchema(s) || depth > 20) return "";
  if (s["x-kubernetes-int-or-string"]) return "int-or-string";
  const items = itemsOf(s);
  if (s.type === "array") return `[]${typeLabel(items, depth + 1) || "any"}`;
  const values = valuesOf(s);
  if (s.type === "object" && values && !props(s)) return `map[string]${typeLabel(values, depth + 1) || "any"}`;
  if (!s.type) return s["x-kubernetes-preserve-unknown-fields"] ? "any" : "";
  return s.format ? `${s.type} (${s.format})` : s.type;
}

const BOUNDS: (keyof JSONSchemaProps)[] = [
  "minimum", "maximum", "multipleOf", "minLength", "maxLength", "pattern", "minItems", "maxItems", "minProperties", "maxProperties",
];

export function schemaFacts(s: JSONSchemaProps): SchemaFacts {
  const constraints: string[] = [];
  for (const k of BOUNDS) {
    const v = s[k];
    if (v === undefined || v === null) continue;
    const exclusive = (k === "minimum" && s.exclusiveMinimum) || (k === "maximum" && s.exclusiveMaximum);
    constraints.push(`${k}: ${typeof v === "string" ? v : json(v)}${exclusive ? " (exclusive)" : ""}`);
  }
  if (s.uniqueItems) constraints.push("uniqueItems");
  for (const k of ["allOf", "anyOf", "oneOf"] as const) if (Array.isArray(s[k]) && s[k]!.length) constraints.push(`${k}: ${json(s[k])}`);
  if (isSchema(s.not)) constraints.push(`not: ${json(s.not)}`);
  const markers: string[] = [];
  if (s.nullable) markers.push("nullable");
  if (s["x-kubernetes-preserve-unknown-fields"]) markers.push("x-kubernetes-preserve-unknown-fields");
  if (s["x-kubernetes-embedded-resource"]) markers.push("x-kubernetes-embedded-resource");
  if (s["x-kubernetes-int-or-string"]) markers.push("x-kubernetes-int-or-string");
  if (s["x-kubernetes-list-type"]) markers.push(`x-kubernetes-list-type: ${s["x-kubernetes-list-type"]}`);
  if (Array.isArray(s["x-kubernetes-list-map-keys"]) && s["x-kubernetes-list-map-keys"].length) markers.push(`x-kubernetes-list-map-keys: ${s["x-kubernetes-list-map-keys"].join(", ")}`);
  if (s["x-kubernetes-map-type"]) markers.push(`x-kubernetes-map-type: ${s["x-kubernetes-map-type"]}`);
  const rules = Array.isArray(s["x-kubernetes-validations"]) ? s["x-kubernetes-validations"].filter((r) => isSchema(r) && typeof r.rule === "string") : [];
  return {
    type: typeLabel(s),
    ...(typeof s.description === "string" && s.description ? { description: s.description } : {}),
    ...(Array.isArray(s.enum) && s.enum.length ? { enum: s.enum.map(json) } : {}),
    ...(s.default !== undefined ? { default: json(s.default) } : {}),
    constraints,
    markers,
    rules,
  };
}

/** Whether the facts say more than the type (so an array's items or a map's values are worth a line). */
const saysMore = (f: SchemaFacts) => !!(f.description || f.enum || f.default || f.constraints.length || f.markers.length || f.rules.length);

/**
 * Where a field's children are: its own properties, or those of its items / values (through arrays of arrays
 * and maps of lists), with the path they continue from.
 */
function containerOf(s: JSONSchemaProps, path: string): { container?: JSONSchemaProps; containerPath: string } {
  let current: JSONSchemaProps | undefined = s;
  let at = path;
  for (let i = 0; current && i < 20; i++) {
    if (props(current)) return { container: current, containerPath: at };
    const next: JSONSchemaProps | undefined = current.type === "array" ? itemsOf(current) : current.type === "object" ? valuesOf(current) : undefined;
    if (!next) break;
    current = next;
    at = `${at}[*]`;
  }
  return { containerPath: at };
}

/** Property names that need quoting in a path (`.metadata.annotations['a.b/c']`). */
const pathPart = (name: string) => (/^[A-Za-z_$][\w$-]*$/.test(name) ? `.${name}` : `['${name}']`);

/** The fields directly below `schema` (its properties, or its items' / values' properties), in the schema's order. */
export function schemaChildren(schema: JSONSchemaProps | undefined, path = "", depth = 0): SchemaNode[] {
  if (!isSchema(schema)) return [];
  const { container, containerPath } = containerOf(schema, path);
  const properties = props(container);
  if (!container || !properties) return [];
  const required = new Set(Array.isArray(container.required) ? container.required : []);
  return Object.entries(properties).map(([name, raw]) => {
    const child = isSchema(raw) ? raw : {};
    const childPath = `${containerPath}${pathPart(name)}`;
    const inner = child.type === "array" ? itemsOf(child) : child.type === "object" && !props(child) ? valuesOf(child) : undefined;
    const innerFacts = inner && schemaFacts(inner);
    const below = containerOf(child, childPath);
    return {
      name,
      path: childPath,
      depth,
      required: required.has(name),
      facts: schemaFacts(child),
      ...(innerFacts && saysMore(innerFacts) ? { each: { label: child.type === "array" ? ("each item" as const) : ("each value" as const), facts: innerFacts } } : {}),
      hasChildren: !!props(below.container),
      container: below.container,
      containerPath: below.containerPath,
    };
  });
}

/** The children of a node (what opening it shows). */
export function nodeChildren(node: SchemaNode): SchemaNode[] {
  return node.container ? schemaChildren(node.container, node.containerPath, node.depth + 1) : [];
}

/** Fields at depth 0 and 1 start open, so the first three levels show (spec, spec.x, spec.x.y); deeper ones start closed. */
export const OPEN_BELOW_DEPTH = 2;
export const startsOpen = (depth: number) => depth < OPEN_BELOW_DEPTH;

/**
 * The paths of the fields whose name contains `query` (case-insensitive; its path, when the query holds a `.`
 * or `[`) and of every field above
 * them (to open), walking the whole schema once: what "Find a field" opens. At most `limit` matches.
 */
export function findFields(schema: JSONSchemaProps | undefined, query: string, limit = 200): { matches: string[]; open: Set<string> } {
  const q = query.trim().toLowerCase();
  const matches: string[] = [];
  const open = new Set<string>();
  if (!q) return { matches, open };
  const byPath = /[.[]/.test(q);
  const walk = (nodes: SchemaNode[], ancestors: string[]) => {
    for (const n of nodes) {
      if (matches.length >= limit) return;
      if ((byPath ? n.path : n.name).toLowerCase().includes(q)) {
        matches.push(n.path);
        for (const a of ancestors) open.add(a);
      }
      if (n.hasChildren && n.depth < 40) walk(nodeChildren(n), [...ancestors, n.path]);
    }
  };
  walk(schemaChildren(schema), []);
  return { matches, open };
}
