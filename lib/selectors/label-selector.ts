// Label selectors: the `labelSelector=` query grammar and metav1.LabelSelector objects, with
// kube-apiserver's (1.32) parse rules, matching semantics and error messages. Malformed input throws
// errors.badRequest (400). Parsing is a single left-to-right pass with one token of lookahead, and the
// input size and requirement count are capped, so hostile input costs linear time at most.
import { errors } from "../status";
import { labelValueErrors, qualifiedNameErrors } from "../validation/labels";
import { compareGo, goJSON, goQuote } from "./go-format";

export type LabelOperator =
  | "Exists" | "DoesNotExist" | "Equals" | "NotEquals" | "In" | "NotIn" | "GreaterThan" | "LessThan";

export interface LabelRequirement {
  key: string;
  operator: LabelOperator;
  /** Exists/DoesNotExist: []; Equals/NotEquals/GreaterThan/LessThan: one value; In/NotIn: at least one. */
  values: string[];
}

/** AND of its requirements, sorted by key. `[]` matches everything. */
export type LabelSelector = LabelRequirement[];

/** Longest selector text accepted (characters). Far above any URL a client can send. */
export const MAX_LABEL_SELECTOR_LENGTH = 1_048_576;
/** Most requirements one selector may hold. */
export const MAX_LABEL_REQUIREMENTS = 10_000;

// ---------------------------------------------------------------------------------------------
// Requirements (labels.NewRequirement)

/** A field.Error rendered as `<field>: Invalid value: <value>: <detail>`. */
const invalid = (field: string, value: string, detail: string, renderedValue?: string) =>
  `${field}: Invalid value: ${renderedValue ?? goQuote(value)}: ${detail}`;

/** field.ErrorList.ToAggregate().Error(): duplicates dropped; one error bare, several in `[a, b]`. */
function aggregate(errs: string[]): string {
  const unique = [...new Set(errs)];
  return unique.length === 1 ? unique[0] : `[${unique.join(", ")}]`;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Go's strconv.ParseInt(s, 10, 64); undefined when it would fail. */
function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n < INT64_MIN || n > INT64_MAX ? undefined : n;
}

/**
 * labels.NewRequirement's checks; returns the rendered field errors (paths `key`, `values`,
 * `values[i][<key>]`, no parent path, as kube-apiserver uses). `renderedValues` is how the values
 * slice prints in a whole-slice error (Go JSON; a nil slice prints `null`).
 */
function requirementErrors(key: string, op: LabelOperator, values: string[], renderedValues: string): string[] {
  const errs: string[] = [];
  const keyErrs = qualifiedNameErrors(key);
  if (keyErrs.length) errs.push(invalid("key", key, keyErrs.join("; ")));
  switch (op) {
    case "In":
    case "NotIn":
      if (values.length === 0) errs.push(invalid("values", "", "for 'in', 'notin' operators, values set can't be empty", renderedValues));
      break;
    case "Equals":
    case "NotEquals":
      if (values.length !== 1) errs.push(invalid("values", "", "exact-match compatibility requires one single value", renderedValues));
      break;
    case "Exists":
    case "DoesNotExist":
      if (values.length !== 0) errs.push(invalid("values", "", "values set must be empty for exists and does not exist", renderedValues));
      break;
    case "GreaterThan":
    case "LessThan":
      if (values.length !== 1) errs.push(invalid("values", "", "for 'Gt', 'Lt' operators, exactly one value is required", renderedValues));
      values.forEach((v, i) => {
        if (parseInt64(v) === undefined) errs.push(invalid(`values[${i}]`, v, "for 'Gt', 'Lt' operators, the value must be an integer"));
      });
      break;
  }
  values.forEach((v, i) => {
    const valueErrs = labelValueErrors(v);
    if (valueErrs.length) errs.push(invalid(`values[${i}][${key}]`, v, valueErrs.join("; ")));
  });
  return errs;
}

const byKey = (a: LabelRequirement, b: LabelRequirement) => compareGo(a.key, b.key);

// ---------------------------------------------------------------------------------------------
// Lexer and parser (labels.Parse)

type Tok =
  | "EOS" | "ClosePar" | "Comma" | "Not" | "DoubleEquals" | "Equals" | "Gt" | "Id" | "In" | "Lt" | "NotEquals" | "NotIn" | "OpenPar";

const SYMBOLS: Record<string, Tok> = {
  ")": "ClosePar", ",": "Comma", "!": "Not", "==": "DoubleEquals", "=": "Equals", ">": "Gt",
  "<": "Lt", "!=": "NotEquals", "(": "OpenPar",
};

const isSpace = (c: string) => c === " " || c === "\t" || c === "\r" || c === "\n";
const isSymbol = (c: string) => c === "=" || c === "!" || c === "(" || c === ")" || c === "," || c === ">" || c === "<";

/** Where a token is read: in value position (`"values"`) the keywords `in`/`notin` are plain identifiers. */
type Ctx = "operator" | "values";

interface Token { tok: Tok; lit: string }

const EOS: Token = { tok: "EOS", lit: "" };

class Parser {
  private pos = 0;
  private peeked: Token | undefined;
  private ended = false;

  constructor(private readonly s: string) {}

  /** One token (Lexer.Lex). A NUL byte reads as end of input, as Go's lexer treats it. */
  private lex(): Token {
    if (this.ended) return EOS;
    const s = this.s;
    while (this.pos < s.length && isSpace(s[this.pos])) this.pos++;
    if (this.pos >= s.length || s[this.pos] === "\0") {
      this.ended = true;
      return EOS;
    }
    const start = this.pos;
    let t: Token;
    if (isSymbol(s[start])) {
      // The two-character operators are `!=` and `==`; anything else is a single symbol.
      const len = (s[start] === "!" || s[start] === "=") && s[start + 1] === "=" ? 2 : 1;
      this.pos += len;
      const lit = s.slice(start, start + len);
      t = { tok: SYMBOLS[lit], lit };
    } else {
      while (this.pos < s.length && !isSymbol(s[this.pos]) && !isSpace(s[this.pos]) && s[this.pos] !== "\0") this.pos++;
      const lit = s.slice(start, this.pos);
      t = { tok: lit === "in" ? "In" : lit === "notin" ? "NotIn" : "Id", lit };
    }
    if (s[this.pos] === "\0") this.pos++; // Go's scanner swallows a NUL that ends a token
    return t;
  }

  private view(t: Token, ctx: Ctx): Token {
    return ctx === "values" && (t.tok === "In" || t.tok === "NotIn") ? { tok: "Id", lit: t.lit } : t;
  }

  lookahead(ctx: Ctx): Token {
    this.peeked ??= this.lex();
    return this.view(this.peeked, ctx);
  }

  consume(ctx: Ctx): Token {
    const t = this.peeked ?? this.lex();
    this.peeked = undefined;
    return this.view(t, ctx);
  }
}

/** A syntax problem inside one requirement; parse() prefixes it with `unable to parse requirement: `. */
class RequirementError extends Error {}

function parseRequirement(p: Parser): LabelRequirement {
  // Key, with `!` or end-of-requirement giving DoesNotExist / Exists.
  let t = p.consume("values");
  let negated = false;
  if (t.tok === "Not") {
    negated = true;
    t = p.consume("values");
  }
  if (t.tok !== "Id") throw new RequirementError(`found '${t.lit}', expected: identifier`);
  const key = t.lit;
  const keyErrs = qualifiedNameErrors(key);
  if (keyErrs.length) throw new RequirementError(invalid("<nil>", key, keyErrs.join("; ")));
  const next = p.lookahead("values").tok;
  if (negated) return finish(key, "DoesNotExist", []);
  if (next === "EOS" || next === "Comma") return finish(key, "Exists", []);

  const opTok = p.consume("operator");
  let op: LabelOperator;
  switch (opTok.tok) {
    case "In": op = "In"; break;
    case "NotIn": op = "NotIn"; break;
    case "Equals": case "DoubleEquals": op = "Equals"; break;
    case "NotEquals": op = "NotEquals"; break;
    case "Gt": op = "GreaterThan"; break;
    case "Lt": op = "LessThan"; break;
    default: throw new RequirementError(`found '${opTok.lit}', expected: in, notin, =, ==, !=, gt, lt`);
  }
  return finish(key, op, op === "In" || op === "NotIn" ? parseValueSet(p) : [parseExactValue(p)]);
}

function finish(key: string, operator: LabelOperator, values: string[]): LabelRequirement {
  const errs = requirementErrors(key, operator, values, goJSON(values));
  if (errs.length) throw new RequirementError(aggregate(errs));
  return { key, operator, values };
}

/** `(a,b,c)`: empty members are the empty value, `()` is `("")`; returned sorted and de-duplicated. */
function parseValueSet(p: Parser): string[] {
  const open = p.consume("values");
  if (open.tok !== "OpenPar") throw new RequirementError(`found '${open.lit}' expected: '('`);
  const first = p.lookahead("values");
  const set = new Set<string>();
  if (first.tok === "ClosePar") {
    p.consume("values");
    set.add("");
  } else if (first.tok === "Id" || first.tok === "Comma") {
    for (;;) {
      const t = p.consume("values");
      if (t.tok === "Id") {
        set.add(t.lit);
        const after = p.lookahead("values");
        if (after.tok === "Comma") continue;
        if (after.tok === "ClosePar") break;
        throw new RequirementError(`found '${after.lit}', expected: ',' or ')'`);
      } else if (t.tok === "Comma") {
        if (set.size === 0) set.add("");
        const after = p.lookahead("values");
        if (after.tok === "ClosePar") {
          set.add("");
          break;
        }
        if (after.tok === "Comma") {
          p.consume("values");
          set.add("");
        }
      } else {
        throw new RequirementError(`found '${t.lit}', expected: ',', or identifier`);
      }
    }
    p.consume("values"); // the `)` seen by lookahead
  } else {
    throw new RequirementError(`found '${first.lit}', expected: ',', ')' or identifier`);
  }
  return [...set].sort(compareGo);
}

/** The single value after `=`, `==`, `!=`, `>`, `<`; nothing before `,`/end is the empty value. */
function parseExactValue(p: Parser): string {
  const ahead = p.lookahead("values");
  if (ahead.tok === "EOS" || ahead.tok === "Comma") return "";
  const t = p.consume("values");
  if (t.tok === "Id") return t.lit;
  throw new RequirementError(`found '${t.lit}', expected: identifier`);
}

/**
 * Parses `labelSelector=` text. `""` (or only whitespace) selects everything (`[]`). The result is
 * sorted by key; `==` is stored as Equals. Throws errors.badRequest with kube-apiserver's message.
 *
 * Kubernetes quirk kept on purpose: `k in ()` is not an error, it is `k in ("")`.
 */
export function parseLabelSelector(text: string): LabelSelector {
  if (text.length > MAX_LABEL_SELECTOR_LENGTH) {
    throw errors.badRequest(`label selector is too long: must have at most ${MAX_LABEL_SELECTOR_LENGTH} characters`);
  }
  const p = new Parser(text);
  const reqs: LabelRequirement[] = [];
  for (;;) {
    const t = p.lookahead("values");
    if (t.tok === "EOS") break;
    if (t.tok !== "Id" && t.tok !== "Not") {
      throw errors.badRequest(`found '${t.lit}', expected: !, identifier, or 'end of string'`);
    }
    try {
      reqs.push(parseRequirement(p));
    } catch (e) {
      if (e instanceof RequirementError) throw errors.badRequest(`unable to parse requirement: ${e.message}`);
      throw e;
    }
    if (reqs.length > MAX_LABEL_REQUIREMENTS) {
      throw errors.badRequest(`label selector has too many requirements: must have at most ${MAX_LABEL_REQUIREMENTS}`);
    }
    const sep = p.consume("values");
    if (sep.tok === "EOS") break;
    if (sep.tok !== "Comma") throw errors.badRequest(`found '${sep.lit}', expected: ',' or 'end of string'`);
    const after = p.lookahead("values");
    if (after.tok !== "Id" && after.tok !== "Not") {
      throw errors.badRequest(`found '${after.lit}', expected: identifier after ','`);
    }
  }
  return reqs.sort(byKey);
}

// ---------------------------------------------------------------------------------------------
// metav1.LabelSelector objects (metav1.LabelSelectorAsSelector)

export interface LabelSelectorObject {
  matchLabels?: Record<string, string> | null;
  matchExpressions?: { key: string; operator: string; values?: string[] | null }[] | null;
}

const OBJECT_OPERATORS: Record<string, LabelOperator> = {
  In: "In", NotIn: "NotIn", Exists: "Exists", DoesNotExist: "DoesNotExist",
};

/**
 * Converts a metav1.LabelSelector (as found in object specs) to a LabelSelector.
 *
 * - `null`/`undefined` returns `null`: Kubernetes' "nothing" selector. `matchesLabels(null, …)` is
 *   false; callers that give a missing selector another meaning must check for `null` themselves.
 * - `{}` (no matchLabels, no matchExpressions) returns `[]`, which matches everything.
 *
 * Only In, NotIn, Exists and DoesNotExist are valid operators. Invalid input throws
 * errors.badRequest with kube's text (e.g. `"Foo" is not a valid label selector operator`,
 * `values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty`). Object
 * validation should have produced a 422 before this is reached.
 */
export function labelSelectorFromObject(sel: LabelSelectorObject | undefined | null): LabelSelector | null {
  if (sel === null || sel === undefined) return null;
  const reqs: LabelRequirement[] = [];
  const add = (key: string, operator: LabelOperator, values: string[], rendered: string) => {
    const errs = requirementErrors(key, operator, values, rendered);
    if (errs.length) throw errors.badRequest(aggregate(errs));
    reqs.push({ key, operator, values });
  };
  const matchLabels = sel.matchLabels ?? {};
  for (const key of Object.keys(matchLabels).sort(compareGo)) {
    const value = matchLabels[key];
    add(key, "Equals", [value], goJSON([value]));
  }
  for (const expr of sel.matchExpressions ?? []) {
    if (!Object.prototype.hasOwnProperty.call(OBJECT_OPERATORS, expr.operator)) {
      throw errors.badRequest(`${goQuote(String(expr.operator ?? ""))} is not a valid label selector operator`);
    }
    const operator = OBJECT_OPERATORS[expr.operator];
    const values = [...(expr.values ?? [])];
    // Go copies values with append([]string(nil), ...), so an empty list is a nil slice: `null`.
    add(expr.key, operator, values, values.length ? goJSON(values) : "null");
  }
  return reqs.sort(byKey);
}

// ---------------------------------------------------------------------------------------------
// Matching, formatting, introspection

const has = (labels: Record<string, string>, key: string) => Object.prototype.hasOwnProperty.call(labels, key);

/** Large `in`/`notin` sets get a lookup table, built once per requirement. */
const valueSets = new WeakMap<LabelRequirement, Set<string>>();
function hasValue(r: LabelRequirement, value: string): boolean {
  if (r.values.length <= 8) return r.values.includes(value);
  let set = valueSets.get(r);
  if (!set) valueSets.set(r, (set = new Set(r.values)));
  return set.has(value);
}

function requirementMatches(r: LabelRequirement, labels: Record<string, string>): boolean {
  switch (r.operator) {
    case "Exists": return has(labels, r.key);
    case "DoesNotExist": return !has(labels, r.key);
    case "Equals": case "In": return has(labels, r.key) && hasValue(r, labels[r.key]);
    case "NotEquals": case "NotIn": return !has(labels, r.key) || !hasValue(r, labels[r.key]);
    case "GreaterThan": case "LessThan": {
      if (!has(labels, r.key) || r.values.length !== 1) return false;
      const actual = parseInt64(labels[r.key]);
      const bound = parseInt64(r.values[0]);
      if (actual === undefined || bound === undefined) return false;
      return r.operator === "GreaterThan" ? actual > bound : actual < bound;
    }
    default: return false;
  }
}

/**
 * True when every requirement holds for `labels` (missing labels = no labels). NotEquals and NotIn
 * also match when the key is absent; GreaterThan/LessThan need the label to parse as an int64.
 * A `null` selector (nil metav1.LabelSelector) matches nothing.
 */
export function matchesLabels(selector: LabelSelector | null, labels: Record<string, string> | undefined | null): boolean {
  if (selector === null) return false;
  const ls = labels ?? {};
  for (const r of selector) if (!requirementMatches(r, ls)) return false;
  return true;
}

const OPERATOR_TEXT: Record<LabelOperator, string> = {
  Exists: "", DoesNotExist: "", Equals: "=", NotEquals: "!=", In: " in ", NotIn: " notin ", GreaterThan: ">", LessThan: "<",
};

/**
 * The canonical text form (labels.Selector.String()): requirements sorted by key, set values
 * sorted, e.g. `a in (x,y),!b,c=1,d`. `null` formats as `""`. Parsing the result gives back an
 * equivalent selector.
 */
export function formatLabelSelector(selector: LabelSelector | null): string {
  if (!selector) return "";
  return [...selector].sort(byKey).map((r) => {
    if (r.operator === "Exists") return r.key;
    if (r.operator === "DoesNotExist") return `!${r.key}`;
    const values = r.values.length === 1 ? r.values[0] : [...r.values].sort(compareGo).join(",");
    const body = r.operator === "In" || r.operator === "NotIn" ? `(${values})` : values;
    return `${r.key}${OPERATOR_TEXT[r.operator]}${body}`;
  }).join(",");
}

/**
 * The one value `key` must have for the selector to match (`key=v`, `key==v`, `key in (v)`), else
 * undefined. Lets callers narrow a list with an index before matching the full selector.
 */
export function equalityValue(selector: LabelSelector | null, key: string): string | undefined {
  if (!selector) return undefined;
  for (const r of selector) {
    if (r.key !== key) continue;
    if ((r.operator === "Equals" || r.operator === "In") && r.values.length > 0 && r.values.every((v) => v === r.values[0])) {
      return r.values[0];
    }
  }
  return undefined;
}
