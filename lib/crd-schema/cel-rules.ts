// x-kubernetes-validations: CEL rules on a CustomResourceDefinition's schema, compiled once per schema with
// @bufbuild/cel and evaluated as kube-apiserver 1.32's apiextensions CEL validator does: `self` is the value at
// the rule's node (typed by the schema: integers are CEL ints, numbers doubles, objects maps whose property names
// are escaped as kube escapes them, `foo-bar` is `foo__dash__bar`), `oldSelf` the correlated old value of an
// update (transition rules run only when there is one, unless optionalOldSelf). A failing rule gives kube's
// field error: `Invalid value: "object": <message>` (or `failed rule: <rule>`), its reason choosing the error type,
// its fieldPath the field. Evaluation errors, the cost budget and ratcheting (an unchanged value's failure is a
// warning) follow kube. See the README for what @bufbuild/cel cannot do that kube's CEL offers.
import { celEnv, celFunc, celMethod, isCelError, isCelList, isCelMap, listType, parse, plan, CelScalar, type CelValue } from "@bufbuild/cel";
import { strings } from "@bufbuild/cel/ext";
import { goQuote, type FieldError } from "../status";
import { errorString, kubeField } from "./field-errors";
import { child, index } from "./field-path";
import { compileGoPattern, goRegexpError } from "./go-regexp";
import { quantityLibrary } from "./quantity";
import { deepEqual, listMapIndex, listMapKey } from "./validate";
import type { JSONSchemaProps, ValidationRule } from "./types";

/** kube's per-expression cost limit (celconfig.PerCallLimit) and the budget of one request's rules. */
export const PER_CALL_LIMIT = 1_000_000;
export const RUNTIME_COST_BUDGET = 10_000_000;

export const SUPPORTED_REASONS = ["FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"];

type Node = { id?: bigint; exprKind?: { case?: string; value?: any } };
type Program = (vars: Record<string, unknown>) => unknown;

// ---------------------------------------------------------------------------------------------------------------
// kube's extension libraries, as far as custom functions go

const celListValues = (l: any): unknown[] => (isCelList(l) ? [...(l as Iterable<unknown>)] : (l as unknown[]));
const cmp = (a: any, b: any): number => (a < b ? -1 : a > b ? 1 : 0);

function findAll(s: string, pattern: string, limit: number): string[] {
  const re = compileGoPattern(pattern);
  if (!re) throw new Error(`invalid regex: ${pattern}`);
  const g = new RegExp(re.source, `${re.flags}g`);
  const out: string[] = [];
  for (const m of s.matchAll(g)) {
    if (limit >= 0 && out.length >= limit) break;
    out.push(m[0]);
  }
  return out;
}

function parseURL(s: string): URL {
  try {
    return new URL(s);
  } catch {
    throw new Error(`URL parse error during conversion from string: ${s}`);
  }
}

const LIST_DYN = listType(CelScalar.DYN);

/** kube's lists (isSorted, sum, min, max, indexOf, lastIndexOf), regex (find, findAll) and urls libraries. */
const kubeLibraries = [
  celMethod("isSorted", LIST_DYN, [], CelScalar.BOOL, function () {
    const v = celListValues(this);
    return v.every((x, i) => i === 0 || cmp(v[i - 1], x) <= 0);
  }),
  celMethod("sum", LIST_DYN, [], CelScalar.DYN, function () {
    const v = celListValues(this);
    if (v.length === 0) return 0n;
    return v.reduce((a: any, b: any) => a + b) as any;
  }),
  celMethod("min", LIST_DYN, [], CelScalar.DYN, function () {
    const v = celListValues(this);
    if (v.length === 0) throw new Error("min called on empty list");
    return v.reduce((a, b) => (cmp(b, a) < 0 ? b : a)) as any;
  }),
  celMethod("max", LIST_DYN, [], CelScalar.DYN, function () {
    const v = celListValues(this);
    if (v.length === 0) throw new Error("max called on empty list");
    return v.reduce((a, b) => (cmp(b, a) > 0 ? b : a)) as any;
  }),
  celMethod("indexOf", LIST_DYN, [CelScalar.DYN], CelScalar.INT, function (x) {
    return BigInt(celListValues(this).findIndex((y) => y === x || deepEqual(y, x)));
  }),
  celMethod("lastIndexOf", LIST_DYN, [CelScalar.DYN], CelScalar.INT, function (x) {
    const v = celListValues(this);
    for (let i = v.length - 1; i >= 0; i--) if (v[i] === x || deepEqual(v[i], x)) return BigInt(i);
    return -1n;
  }),
  celMethod("find", CelScalar.STRING, [CelScalar.STRING], CelScalar.STRING, function (pattern) {
    return findAll(this, pattern, 1)[0] ?? "";
  }),
  celMethod("findAll", CelScalar.STRING, [CelScalar.STRING], listType(CelScalar.STRING), function (pattern) {
    return findAll(this, pattern, -1);
  }),
  celMethod("findAll", CelScalar.STRING, [CelScalar.STRING, CelScalar.INT], listType(CelScalar.STRING), function (pattern, limit) {
    return findAll(this, pattern, Number(limit));
  }),
  celFunc("isURL", [CelScalar.STRING], CelScalar.BOOL, (s) => {
    try {
      return !!new URL(s);
    } catch {
      return false;
    }
  }),
  // url(s) is the string itself here; getScheme()/getHost()/... parse it (kube's URL type is opaque).
  celFunc("url", [CelScalar.STRING], CelScalar.STRING, (s) => parseURL(s).href && s),
  celMethod("getScheme", CelScalar.STRING, [], CelScalar.STRING, function () { return parseURL(this).protocol.replace(/:$/, ""); }),
  celMethod("getHost", CelScalar.STRING, [], CelScalar.STRING, function () { return parseURL(this).host; }),
  celMethod("getHostname", CelScalar.STRING, [], CelScalar.STRING, function () { return parseURL(this).hostname.replace(/^\[|\]$/g, ""); }),
  celMethod("getPort", CelScalar.STRING, [], CelScalar.STRING, function () { return parseURL(this).port; }),
  celMethod("getEscapedPath", CelScalar.STRING, [], CelScalar.STRING, function () { return parseURL(this).pathname; }),
];

const env = celEnv({ variables: { self: CelScalar.DYN, oldSelf: CelScalar.DYN }, funcs: [...strings, ...kubeLibraries, ...quantityLibrary] });

// ---------------------------------------------------------------------------------------------------------------
// property names as CEL sees them (kube's cel.Escape)

const RESERVED = new Set([
  "true", "false", "null", "in", "as", "break", "const", "continue", "else", "for", "function", "if", "import",
  "let", "loop", "package", "namespace", "return", "var", "void", "while",
]);

/** kube's escaping of a property name into a CEL field name, or undefined when it cannot be (`self['a b']`). */
export function escapeName(name: string): string | undefined {
  if (RESERVED.has(name)) return `__${name}__`;
  if (!/^[_a-zA-Z][-._/a-zA-Z0-9]*$/.test(name)) return undefined;
  return name.replace(/__|\.|-|\//g, (m) => ({ __: "__underscores__", ".": "__dot__", "-": "__dash__", "/": "__slash__" })[m]!);
}

// ---------------------------------------------------------------------------------------------------------------
// compilation

export interface RuleCompileError {
  /** Required (an empty rule) or Invalid. */
  type: "required" | "invalid";
  detail: string;
}

export interface CompiledRule {
  rule: ValidationRule;
  program?: Program;
  messageProgram?: Program;
  error?: RuleCompileError;
  messageExpressionError?: string;
  usesOldSelf: boolean;
  /** The rule's fieldPath as kube normalizes it (`spec.x`, `labels[a.b]`), relative to the node. */
  fieldPath?: string;
  /** Nodes of the rule's tree: a rough count kube's cost model starts from. */
  size: number;
}

function snippet(source: string, offset: number): string {
  const before = source.slice(0, offset);
  const line = before.split("\n").length;
  const lineStart = before.lastIndexOf("\n") + 1;
  const column = offset - lineStart + 1;
  const text = source.split("\n")[line - 1];
  return `<input>:${line}:${column}: %s\n | ${text}\n | ${".".repeat(column - 1)}^`;
}

const offsetOf = (parsed: any, node: Node): number => Number(parsed.sourceInfo?.positions?.[String(node.id)] ?? 0);

function children(node: Node): Node[] {
  const { case: kind, value } = node.exprKind ?? {};
  switch (kind) {
    case "selectExpr": return [value.operand];
    case "callExpr": return [value.target, ...(value.args ?? [])].filter(Boolean);
    case "listExpr": return value.elements ?? [];
    case "structExpr": return (value.entries ?? []).flatMap((e: any) => [e.keyKind?.case === "mapKey" ? e.keyKind.value : undefined, e.value]).filter(Boolean);
    case "comprehensionExpr": return [value.iterRange, value.accuInit, value.loopCondition, value.loopStep, value.result].filter(Boolean);
    default: return [];
  }
}

const countNodes = (node: Node | undefined): number => (node ? 1 + children(node).reduce((n, c) => n + countNodes(c), 0) : 0);

/** CEL's type denotations, identifiers every rule may use (`type(self) == string`). */
const TYPE_NAMES = ["int", "uint", "double", "bool", "string", "bytes", "list", "map", "null_type", "type"];

/** The first reference to an undeclared identifier (comprehension variables are declared inside). */
function undeclared(node: Node | undefined, declared: Set<string>): Node | undefined {
  if (!node?.exprKind) return undefined;
  const { case: kind, value } = node.exprKind;
  if (kind === "identExpr") return declared.has(value.name) ? undefined : node;
  if (kind === "comprehensionExpr") {
    const inner = new Set(declared);
    for (const v of [value.iterVar, value.iterVar2, value.accuVar]) if (v) inner.add(v);
    return undeclared(value.iterRange, declared) ?? undeclared(value.accuInit, inner) ?? undeclared(value.loopCondition, inner)
      ?? undeclared(value.loopStep, inner) ?? undeclared(value.result, inner);
  }
  for (const c of children(node)) {
    const hit = undeclared(c, declared);
    if (hit) return hit;
  }
  return undefined;
}

const usesIdent = (node: Node | undefined, name: string): boolean =>
  !!node && ((node.exprKind?.case === "identExpr" && node.exprKind.value.name === name) || children(node).some((c) => usesIdent(c, name)));

/** The schema a field name selects on an object schema, or "unknown" when the schema cannot say. */
function fieldSchema(s: JSONSchemaProps | undefined, celName: string): JSONSchemaProps | "undefined" | "unknown" {
  if (!s || s["x-kubernetes-preserve-unknown-fields"] || s["x-kubernetes-int-or-string"]) return "unknown";
  if (s.type !== "object") return "unknown";
  if (typeof s.additionalProperties === "object" || s.additionalProperties === true) return "unknown";
  if (s["x-kubernetes-embedded-resource"]) {
    // kube's WithTypeAndObjectMeta: a resource shows its apiVersion, kind, metadata.name and metadata.generateName
    if (celName === "apiVersion" || celName === "kind") return { type: "string" };
    if (celName === "metadata") return { type: "object", properties: { name: { type: "string" }, generateName: { type: "string" } } };
  }
  for (const [name, sub] of Object.entries(s.properties ?? {})) if (escapeName(name) === celName) return sub;
  return "undefined";
}

/** kube's type checker finds a selection of a field the schema does not have; here, along self/oldSelf chains. */
function undefinedField(node: Node | undefined, schemaOf: (n: Node) => JSONSchemaProps | undefined | "unknown", parsed: any): { node: Node; field: string } | undefined {
  if (!node) return undefined;
  if (node.exprKind?.case === "selectExpr") {
    const operand = node.exprKind.value.operand as Node;
    const s = schemaOf(operand);
    if (s !== "unknown" && s !== undefined) {
      const f = fieldSchema(s, node.exprKind.value.field);
      if (f === "undefined") return { node, field: node.exprKind.value.field };
    }
  }
  for (const c of children(node)) {
    const hit = undefinedField(c, schemaOf, parsed);
    if (hit) return hit;
  }
  return undefined;
}

/** Whether the expression's result is certainly not a bool (its top is a literal or arithmetic). */
function certainlyNotBool(node: Node | undefined): boolean {
  const { case: kind, value } = node?.exprKind ?? {};
  if (kind === "constExpr") return value.constantKind?.case !== "boolValue";
  if (kind === "listExpr" || kind === "structExpr") return true;
  if (kind === "callExpr") return ["_+_", "_-_", "_*_", "_/_", "_%_", "-_", "size", "string", "int", "double"].includes(value.function);
  return false;
}

/** A `matches`/`find`/`findAll` call whose constant pattern does not compile (kube checks these at compile time). */
function invalidMatchesArgument(node: Node | undefined): Node | undefined {
  if (!node) return undefined;
  const { case: kind, value } = node.exprKind ?? {};
  if (kind === "callExpr" && ["matches", "find", "findAll"].includes(value.function)) {
    const arg = (value.args ?? [])[value.target ? 0 : 1] as Node | undefined;
    const c = arg?.exprKind?.case === "constExpr" ? arg.exprKind.value.constantKind : undefined;
    if (c?.case === "stringValue" && goRegexpError(c.value) !== undefined) return arg;
  }
  for (const c of children(node)) {
    const hit = invalidMatchesArgument(c);
    if (hit) return hit;
  }
  return undefined;
}

/** Whether the expression's result is certainly not a string (a non-string literal, a comparison, a list). */
function certainlyNotString(node: Node | undefined): boolean {
  const { case: kind, value } = node?.exprKind ?? {};
  if (kind === "constExpr") return value.constantKind?.case !== "stringValue";
  if (kind === "listExpr" || kind === "structExpr") return true;
  if (kind === "callExpr") return ["_==_", "_!=_", "_<_", "_<=_", "_>_", "_>=_", "_&&_", "_||_", "!_", "size", "int", "double"].includes(value.function);
  return false;
}

function compileExpression(source: string, schema: JSONSchemaProps, isResourceRoot: boolean): { program?: Program; error?: string; usesOldSelf: boolean; size: number; root?: Node } {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(source);
  } catch (err) {
    const message = (err as Error).message;
    const at = /^<input>:(\d+):(\d+): (.*)$/s.exec(message);
    if (!at) return { error: `ERROR: ${message}`, usesOldSelf: false, size: 0 };
    const lines = source.split("\n");
    const offset = lines.slice(0, Number(at[1]) - 1).reduce((n, l) => n + l.length + 1, 0) + Number(at[2]) - 1;
    return { error: `ERROR: ${snippet(source, offset).replace("%s", `Syntax error: ${at[3]}`)}`, usesOldSelf: false, size: 0 };
  }
  const root = parsed.expr as Node;
  const badRegex = invalidMatchesArgument(root);
  if (badRegex) {
    return { error: `ERROR: ${snippet(source, offsetOf(parsed, badRegex)).replace("%s", "invalid matches argument")}`, usesOldSelf: false, size: 0 };
  }
  const bad = undeclared(root, new Set(["self", "oldSelf", ...TYPE_NAMES]));
  if (bad) {
    const name = bad.exprKind!.value.name as string;
    return { error: `ERROR: ${snippet(source, offsetOf(parsed, bad)).replace("%s", `undeclared reference to '${name}' (in container '')`)}`, usesOldSelf: false, size: 0 };
  }
  const rootSchema: JSONSchemaProps = isResourceRoot ? { ...schema, "x-kubernetes-embedded-resource": true } : schema;
  const schemaOf = (n: Node): JSONSchemaProps | undefined | "unknown" => {
    const { case: kind, value } = n.exprKind ?? {};
    if (kind === "identExpr") return value.name === "self" || value.name === "oldSelf" ? rootSchema : "unknown";
    if (kind === "selectExpr") {
      const s = schemaOf(value.operand);
      if (s === "unknown" || s === undefined) return "unknown";
      const f = fieldSchema(s, value.field);
      return f === "undefined" ? "unknown" : f;
    }
    return "unknown";
  };
  const missing = undefinedField(root, schemaOf, parsed);
  if (missing) {
    // a selection expanded from a macro (has(x.f)) has position 0 (a selection never starts a rule): its `.f` stands in
    const at = offsetOf(parsed, missing.node) || Math.max(0, source.indexOf(`.${missing.field}`));
    return { error: `ERROR: ${snippet(source, at).replace("%s", `undefined field '${missing.field}'`)}`, usesOldSelf: false, size: 0 };
  }
  const program = plan(env as any, parsed) as Program;
  return { program, usesOldSelf: usesIdent(root, "oldSelf"), size: countNodes(root), root };
}

/** Go's %#v of a ValidationRule, as kube prints the bad value of a rule that does not compile. */
export function ruleValue(rule: ValidationRule): string {
  const ptr = (v: unknown, type: string) => (v === undefined ? `(${type})(nil)` : `(${type})(${typeof v === "string" ? goQuote(v) : String(v)})`);
  return `apiextensions.ValidationRule{Rule:${goQuote(rule.rule ?? "")}, Message:${goQuote(rule.message ?? "")}, `
    + `MessageExpression:${goQuote(rule.messageExpression ?? "")}, Reason:${ptr(rule.reason, "*apiextensions.FieldValueErrorReason")}, `
    + `FieldPath:${goQuote(rule.fieldPath ?? "")}, OptionalOldSelf:${ptr(rule.optionalOldSelf, "*bool")}}`;
}

/** Compiles one rule declared on `schema` (kube's compileRule, plus its messageExpression). */
export function compileRule(rule: ValidationRule, schema: JSONSchemaProps, isResourceRoot = false): CompiledRule {
  const out: CompiledRule = { rule, usesOldSelf: false, size: 0 };
  if (!rule.rule || rule.rule.trim() === "") return out;
  const compiled = compileExpression(rule.rule, schema, isResourceRoot);
  if (compiled.error) {
    out.error = { type: "invalid", detail: `compilation failed: ${compiled.error}` };
  } else if (certainlyNotBool(compiled.root)) {
    out.error = { type: "invalid", detail: "cel expression must evaluate to a bool" };
  } else {
    out.program = compiled.program;
    out.usesOldSelf = compiled.usesOldSelf;
    out.size = compiled.size;
  }
  if (rule.messageExpression && rule.messageExpression.trim() !== "") {
    const msg = compileExpression(rule.messageExpression, schema, isResourceRoot);
    if (msg.error) out.messageExpressionError = `messageExpression compilation failed: ${msg.error}`;
    else if (certainlyNotString(msg.root)) out.messageExpressionError = "messageExpression must evaluate to a string";
    else out.messageProgram = msg.program;
  }
  if (rule.fieldPath) {
    const p = validFieldPath(rule.fieldPath, schema);
    if (typeof p === "string") out.fieldPath = p;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// fieldPath (kube's ValidFieldPath)

/** A rule's fieldPath checked against the schema and rendered as a field path, or an Error saying why not. */
export function validFieldPath(jsonPath: string, schema: JSONSchemaProps, allowArrayNotation = true): string | Error {
  const tokens = jsonPath.match(/'(?:[^'\\]|\\.)*'|[.[\]]|[^.[\]']+/g) ?? [];
  let path = "";
  let s: JSONSchemaProps | undefined = schema;
  const append = (name: string): Error | undefined => {
    if (s?.properties) {
      path = child(path, name);
      s = s.properties[name];
      if (!s) return new Error("does not refer to a valid field");
    } else if (s?.additionalProperties !== undefined) {
      path = `${path}[${name}]`;
      s = typeof s.additionalProperties === "object" ? s.additionalProperties : undefined;
    } else return new Error("does not refer to a valid field");
    return undefined;
  };
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i];
    if (tok === "[") {
      if (!allowArrayNotation) return new Error("array notation is not allowed");
      const q = tokens[++i];
      if (q === undefined) return new Error("unexpected end of JSON path");
      if (q.length < 2 || !q.startsWith("'") || !q.endsWith("'")) return new Error(`expected single quoted string but got ${q}`);
      const err = append(q.slice(1, -1).replace(/\\(.)/g, "$1"));
      if (err) return err;
      if (tokens[++i] !== "]") return new Error(`expected ] but got ${tokens[i] ?? ""}`);
    } else if (tok === ".") {
      const name = tokens[++i];
      if (name === undefined) return new Error("unexpected end of JSON path");
      const err = append(name);
      if (err) return err;
    } else return new Error(`expected [ or . but got: ${tok}`);
  }
  return path;
}

// ---------------------------------------------------------------------------------------------------------------
// the validator tree

export interface CelValidator {
  schema: JSONSchemaProps;
  rules: CompiledRule[];
  isResourceRoot: boolean;
  properties: Map<string, CelValidator>;
  items?: CelValidator;
  additionalProperties?: CelValidator;
  allOf: CelValidator[];
}

const hasRules = (s: JSONSchemaProps | undefined): boolean =>
  !!s && ((s["x-kubernetes-validations"]?.length ?? 0) > 0
    || hasRules(Array.isArray(s.items) ? undefined : s.items)
    || Object.values(s.properties ?? {}).some(hasRules)
    || (typeof s.additionalProperties === "object" && hasRules(s.additionalProperties))
    || (s.allOf ?? []).some(hasRules));

function build(validation: JSONSchemaProps, node: JSONSchemaProps, isResourceRoot: boolean): CelValidator | undefined {
  if (!hasRules(validation)) return undefined;
  const rules = (validation["x-kubernetes-validations"] ?? []).map((r) => compileRule(r, node, isResourceRoot));
  const properties = new Map<string, CelValidator>();
  for (const [k, sub] of Object.entries(validation.properties ?? {})) {
    const nodeSub = node.properties?.[k];
    if (!nodeSub) continue;
    const v = build(sub, nodeSub, !!nodeSub["x-kubernetes-embedded-resource"]);
    if (v) properties.set(k, v);
  }
  const items = !Array.isArray(validation.items) && validation.items && node.items && !Array.isArray(node.items)
    ? build(validation.items, node.items, !!node.items["x-kubernetes-embedded-resource"]) : undefined;
  const additionalProperties = typeof validation.additionalProperties === "object" && typeof node.additionalProperties === "object"
    ? build(validation.additionalProperties, node.additionalProperties, !!node.additionalProperties["x-kubernetes-embedded-resource"]) : undefined;
  const allOf = (validation.allOf ?? []).map((a) => build(a, node, isResourceRoot)).filter((v): v is CelValidator => !!v);
  return { schema: node, rules, isResourceRoot, properties, items, additionalProperties, allOf };
}

/** Compiles every rule of a schema (kube's NewValidator); undefined when the schema has none. */
export function compileCelValidator(schema: JSONSchemaProps, opts: { isResourceRoot?: boolean } = {}): CelValidator | undefined {
  return build(schema, schema, opts.isResourceRoot ?? true);
}

const compiledBySchema = new WeakMap<JSONSchemaProps, CelValidator | null>();

/** A resource schema's rules compiled once: the same schema object gives the same validator. */
export function celValidatorFor(schema: JSONSchemaProps): CelValidator | undefined {
  let v = compiledBySchema.get(schema);
  if (v === undefined) {
    v = compileCelValidator(schema) ?? null;
    compiledBySchema.set(schema, v);
  }
  return v ?? undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// values as CEL sees them

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const conversions = celEnv({ variables: { v: CelScalar.STRING } });
const toTimestamp = plan(conversions as any, parse("timestamp(v)")) as Program;
const toDuration = plan(conversions as any, parse("duration(v)")) as Program;

/** A formatted string as kube types it for CEL: date-time and date are timestamps, duration a duration, byte
 *  bytes; a value that does not parse stays a string. */
function formattedString(v: string, format: string | undefined): unknown {
  let out: unknown = v;
  if (format === "date-time" || format === "datetime") out = toTimestamp({ v });
  else if (format === "date") out = /^\d{4}-\d{2}-\d{2}$/.test(v) ? toTimestamp({ v: `${v}T00:00:00Z` }) : v;
  else if (format === "duration") out = toDuration({ v });
  else if (format === "byte") {
    try {
      return Uint8Array.from(atob(v), (c) => c.charCodeAt(0));
    } catch {
      return v;
    }
  }
  return isCelError(out as CelValue) ? v : out;
}

/** Unstructured data typed by its schema, as kube's UnstructuredToVal hands it to CEL. */
export function toCelValue(v: unknown, s: JSONSchemaProps | undefined, isResourceRoot = false): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === "string") return s?.type === "string" && s.format ? formattedString(v, s.format) : v;
  if (typeof v === "number") {
    if (s?.type === "number") return v;
    return Number.isInteger(v) ? BigInt(v) : v;
  }
  if (Array.isArray(v)) {
    const items = s && !Array.isArray(s.items) ? s.items : undefined;
    return v.map((x) => toCelValue(x, items));
  }
  if (isObject(v)) {
    const m = new Map<string, unknown>();
    const props = s?.properties;
    const extra = s && typeof s.additionalProperties === "object" ? s.additionalProperties : undefined;
    const embedded = isResourceRoot || !!s?.["x-kubernetes-embedded-resource"];
    for (const [k, x] of Object.entries(v)) {
      if (x === undefined) continue; // JSON has no undefined: the key is absent
      if (props?.[k]) {
        const name = escapeName(k);
        if (name !== undefined) m.set(name, toCelValue(x, props[k]));
      } else if (embedded && (k === "apiVersion" || k === "kind")) {
        m.set(k, x);
      } else if (embedded && k === "metadata" && isObject(x)) {
        // kube's WithTypeAndObjectMeta: only name and generateName of the metadata are visible
        const meta = new Map<string, unknown>();
        for (const f of ["name", "generateName"]) if (typeof x[f] === "string") meta.set(f, x[f]);
        m.set("metadata", meta);
      } else if (extra || !props || s?.["x-kubernetes-preserve-unknown-fields"]) {
        m.set(k, toCelValue(x, extra));
      }
    }
    return m;
  }
  return v;
}

// ---------------------------------------------------------------------------------------------------------------
// evaluation

export interface CelValidationOptions {
  /** The field path of the validated value ("" for a whole object). */
  path?: string;
  /** The old object of an update: transition rules run, and unchanged values' failures become warnings. */
  old?: { value: unknown };
  /** Cost budget for all rules of this request (kube: 10,000,000). */
  budget?: number;
  /** Unchanged values' failures become warnings (default: when `old` is given; a CRD's defaults turn it off). */
  ratcheting?: boolean;
}

export interface CelValidationResult {
  errors: FieldError[];
  /** Ratcheted failures, as kube's Warning headers print them (`spec.x: Invalid value: ...`). */
  warnings: string[];
}

interface Walk {
  budget: number;
  errors: FieldError[];
  warnings: string[];
  ratcheting: boolean;
}

/** kube's runtime messages for what went wrong while evaluating (no such key, overloads, ...). */
function runtimeMessage(message: string): string {
  const field = /^field not found: (.*)$/.exec(message);
  if (field) return `no such key: ${field[1]}`;
  return message;
}

/** A stand-in for cel-go's runtime cost: the rule's size, times the elements its comprehensions walk. */
function runtimeCost(rule: CompiledRule, self: unknown): number {
  const width = (v: unknown): number => (Array.isArray(v) ? v.length + v.reduce((n: number, x) => n + width(x), 0)
    : isObject(v) ? Object.keys(v).length + Object.values(v).reduce((n: number, x) => n + width(x), 0)
    : typeof v === "string" ? Math.ceil(v.length / 10) : 0);
  return rule.size + (/\.(all|exists|exists_one|map|filter)\(/.test(rule.rule.rule) ? rule.size * width(self) : 0);
}

function validateExpressions(v: CelValidator, nodePath: string, obj: unknown, old: { value: unknown } | undefined, unchanged: boolean, w: Walk): boolean {
  if (obj === null || obj === undefined || v.rules.length === 0) return true;
  // kube validates a whole object from a nil field path, which prints as <nil>
  const path = nodePath || "<nil>";
  const type = v.schema.type ?? "";
  if (w.budget <= 0) {
    w.errors.push(kubeField.invalid(path, type, "validation failed due to running out of cost budget, no further validation rules will be run"));
    return false;
  }
  let self: unknown;
  let oldSelf: unknown;
  for (const compiled of v.rules) {
    const rule = compiled.rule;
    const ruleText = (rule.message ?? "").trim() || rule.rule.trim();
    if (compiled.error) {
      w.errors.push(kubeField.invalid(path, type, `rule compile error: ${compiled.error.detail}`));
      continue;
    }
    if (!compiled.program) continue;
    if (compiled.usesOldSelf && !old && !rule.optionalOldSelf) continue;
    self ??= toCelValue(obj, v.schema, v.isResourceRoot);
    if (old && compiled.usesOldSelf) oldSelf ??= toCelValue(old.value, v.schema, v.isResourceRoot);
    const cost = runtimeCost(compiled, obj);
    if (cost > PER_CALL_LIMIT) {
      w.errors.push(kubeField.invalid(path, type, `'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleText}`));
      return false;
    }
    if (cost > w.budget) {
      w.errors.push(kubeField.invalid(path, type, "validation failed due to running out of cost budget, no further validation rules will be run"));
      return false;
    }
    w.budget -= cost;
    const vars: Record<string, unknown> = { self };
    if (compiled.usesOldSelf) vars.oldSelf = rule.optionalOldSelf ? optionalOf(old ? oldSelf : undefined) : oldSelf;
    let result: unknown;
    try {
      result = compiled.program(vars);
    } catch (err) {
      result = { message: (err as Error).message, thrown: true };
    }
    if (isCelError(result as CelValue) || (result as any)?.thrown) {
      const message = (result as { message: string }).message;
      if (/no matching overload/.test(message)) {
        w.errors.push(kubeField.invalid(path, type, `'no such overload': call arguments did not match a supported operator, function or macro signature for rule: ${ruleText}`));
      } else {
        w.errors.push(kubeField.invalid(path, type, `${runtimeMessage(message)} evaluating rule: ${ruleText}`));
      }
      continue;
    }
    if (result === true) continue;
    const at = compiled.fieldPath ? child(nodePath, compiled.fieldPath) : path;
    let detail: string | undefined;
    if (compiled.messageProgram) {
      const m = compiled.messageProgram(compiled.usesOldSelf ? vars : { self });
      if (typeof m === "string" && m.trim() !== "" && !m.includes("\n") && m.trim().length <= 5120) detail = m.trim();
    }
    detail ??= (rule.message ?? "").trim() || `failed rule: ${rule.rule.trim()}`;
    const error = reasonError(rule.reason, at, type, detail);
    if (!compiled.usesOldSelf && w.ratcheting && unchanged) w.warnings.push(errorString(error));
    else w.errors.push(error);
  }
  return true;
}

/** Optional values are not in @bufbuild/cel: an optionalOldSelf rule sees oldSelf as the value or null. */
const optionalOf = (v: unknown) => (v === undefined ? null : v);

function reasonError(reason: string | undefined, path: string, type: string, detail: string): FieldError {
  switch (reason) {
    case "FieldValueForbidden": return kubeField.forbidden(path, detail);
    case "FieldValueRequired": return kubeField.required(path, detail);
    case "FieldValueDuplicate": return kubeField.duplicate(path, type);
    default: return kubeField.invalid(path, type, detail);
  }
}

function walk(v: CelValidator, path: string, obj: unknown, old: { value: unknown } | undefined, unchanged: boolean, w: Walk): boolean {
  if (obj === null || obj === undefined) return true;
  if (!validateExpressions(v, path, obj, old, unchanged, w)) return false;
  for (const a of v.allOf) if (!walk(a, path, obj, old, unchanged, w)) return false;
  if (Array.isArray(obj) && v.items) {
    const s = v.schema;
    const keys = s["x-kubernetes-list-map-keys"] ?? [];
    const byKey = old && Array.isArray(old.value) && s["x-kubernetes-list-type"] === "map" ? listMapIndex(old.value, keys) : undefined;
    for (let i = 0; i < obj.length; i++) {
      const item = obj[i];
      const match = byKey && isObject(item) ? byKey.get(listMapKey(item, keys)) : undefined;
      const oldItem = match === undefined ? undefined : { value: match };
      const same = oldItem ? deepEqual(item, oldItem.value) : unchanged;
      if (!walk(v.items, index(path, i), item, oldItem, same, w)) return false;
    }
  } else if (isObject(obj)) {
    const correlatable = v.schema["x-kubernetes-map-type"] !== "atomic";
    const oldObj = old && correlatable && isObject(old.value) ? old.value : undefined;
    const sub = (k: string) => (oldObj && k in oldObj ? { value: oldObj[k] } : undefined);
    for (const [k, x] of Object.entries(obj)) {
      const o = sub(k);
      const same = o ? deepEqual(x, o.value) : oldObj ? false : unchanged;
      if (v.additionalProperties && !(v.schema.properties && k in v.schema.properties)) {
        if (!walk(v.additionalProperties, `${path}[${k}]`, x, o, same, w)) return false;
      }
      const p = v.properties.get(k);
      if (p && !walk(p, child(path, k), x, o, same, w)) return false;
    }
  }
  return true;
}

/** Runs every compiled rule over `obj` (kube's Validator.Validate). */
export function celValidationErrors(v: CelValidator | undefined, obj: unknown, opts: CelValidationOptions = {}): CelValidationResult {
  const w: Walk = { budget: opts.budget ?? RUNTIME_COST_BUDGET, errors: [], warnings: [], ratcheting: opts.ratcheting ?? !!opts.old };
  if (!v) return { errors: [], warnings: [] };
  const unchanged = !!opts.old && deepEqual(obj, opts.old.value);
  walk(v, opts.path ?? "", obj, opts.old, unchanged, w);
  return { errors: w.errors, warnings: w.warnings };
}

/** kube's blocking errors: schema failures after which CEL rules are not run (type, required, enum, too long,
 *  too many); the extra cause kube then adds. */
export function blockingCause(errors: FieldError[]): FieldError | undefined {
  const blocking = new Set(["FieldValueNotSupported", "FieldValueRequired", "FieldValueTooLong", "FieldValueTooMany", "FieldValueTypeInvalid"]);
  if (!errors.some((e) => blocking.has(e.type))) return undefined;
  return kubeField.invalid("<nil>", null, "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation");
}

export { isCelMap };
