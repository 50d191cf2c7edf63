// CEL for the structured authentication configuration, with kube's variables: `claims` (the token's claims,
// map(string, dyn)) for claim mappings and claim validation rules, `user` (authentication.k8s.io/v1 UserInfo:
// username, uid, groups, extra) for user validation rules. Each expression is parsed and planned once, when the
// configuration is read (@bufbuild/cel with its strings extension); a reference to anything but the declared
// variable fails compilation as kube's type checker does. Values follow kube's unstructured conversion: JSON
// integers are CEL ints, other numbers doubles, objects maps.
import { celEnv, isCelError, isCelList, isCelMap, mapType, parse, plan, CelScalar, type CelValue } from "@bufbuild/cel";
import { strings } from "@bufbuild/cel/ext";

export type CelVariable = "claims" | "user";

export interface CompiledExpression {
  expression: string;
  /** Fields the expression selects directly on its variable (`claims.email` gives "email"). */
  selects: Set<string>;
  /** Evaluates against one binding; throws an Error with CEL's message on an evaluation error. */
  evaluate(value: unknown): CelValue;
}

const envs = {
  claims: celEnv({ variables: { claims: mapType(CelScalar.STRING, CelScalar.DYN) }, funcs: strings }),
  user: celEnv({ variables: { user: mapType(CelScalar.STRING, CelScalar.DYN) }, funcs: strings }),
};

/** A compile error, carrying kube's detail text (`compilation failed: ERROR: <input>:1:1: ...`). */
export class CelCompileError extends Error {}

type Node = { id?: bigint; exprKind?: { case?: string; value?: any } };

/** The first identifier the expression reads that is not declared (comprehension variables are). */
function undeclared(node: Node | undefined, declared: Set<string>): Node | undefined {
  if (!node?.exprKind) return undefined;
  const { case: kind, value } = node.exprKind;
  switch (kind) {
    case "identExpr":
      return declared.has(value.name) ? undefined : node;
    case "selectExpr":
      return undeclared(value.operand, declared);
    case "callExpr": {
      const target = undeclared(value.target, declared);
      if (target) return target;
      for (const arg of value.args ?? []) {
        const hit = undeclared(arg, declared);
        if (hit) return hit;
      }
      return undefined;
    }
    case "listExpr":
      for (const el of value.elements ?? []) {
        const hit = undeclared(el, declared);
        if (hit) return hit;
      }
      return undefined;
    case "structExpr":
      for (const entry of value.entries ?? []) {
        const key = entry.keyKind?.case === "mapKey" ? undeclared(entry.keyKind.value, declared) : undefined;
        const hit = key ?? undeclared(entry.value, declared);
        if (hit) return hit;
      }
      return undefined;
    case "comprehensionExpr": {
      const inner = new Set(declared);
      for (const v of [value.iterVar, value.iterVar2, value.accuVar]) if (v) inner.add(v);
      return undeclared(value.iterRange, declared) ?? undeclared(value.accuInit, inner)
        ?? undeclared(value.loopCondition, inner) ?? undeclared(value.loopStep, inner) ?? undeclared(value.result, inner);
    }
    default:
      return undefined;
  }
}

/** Every `<variable>.<field>` selection in the tree (kube's hasSelectExp). */
function collectSelects(node: Node | undefined, variable: string, out: Set<string>): void {
  if (!node?.exprKind) return;
  const { case: kind, value } = node.exprKind;
  const visit = (n: Node | undefined) => collectSelects(n, variable, out);
  switch (kind) {
    case "selectExpr":
      if (value.operand?.exprKind?.case === "identExpr" && value.operand.exprKind.value.name === variable) out.add(value.field);
      visit(value.operand);
      return;
    case "callExpr":
      visit(value.target);
      for (const a of value.args ?? []) visit(a);
      return;
    case "listExpr":
      for (const e of value.elements ?? []) visit(e);
      return;
    case "structExpr":
      for (const e of value.entries ?? []) {
        if (e.keyKind?.case === "mapKey") visit(e.keyKind.value);
        visit(e.value);
      }
      return;
    case "comprehensionExpr":
      for (const n of [value.iterRange, value.accuInit, value.loopCondition, value.loopStep, value.result]) visit(n);
      return;
    default:
      return;
  }
}

function snippet(expression: string, column: number): string {
  const line = expression.split("\n")[0];
  return `\n | ${line}\n | ${".".repeat(Math.max(0, column - 1))}^`;
}

/** Parses and plans `expression` for the variable `variable`, or throws CelCompileError. */
export function compileExpression(expression: string, variable: CelVariable): CompiledExpression {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(expression);
  } catch (err) {
    throw new CelCompileError(`compilation failed: ERROR: ${(err as Error).message}`);
  }
  const bad = undeclared(parsed.expr as Node, new Set([variable]));
  if (bad) {
    const name = (bad.exprKind!.value as { name: string }).name;
    const offset = Number(parsed.sourceInfo?.positions?.[String(bad.id)] ?? 0);
    throw new CelCompileError(
      `compilation failed: ERROR: <input>:1:${offset + 1}: undeclared reference to '${name}' (in container '')${snippet(expression, offset + 1)}`,
    );
  }
  const run = plan(envs[variable] as any, parsed) as (ctx: Record<string, unknown>) => unknown;
  const selects = new Set<string>();
  collectSelects(parsed.expr as Node, variable, selects);
  return {
    expression,
    selects,
    evaluate(value: unknown): CelValue {
      const result = run({ [variable]: toCel(value) });
      if (isCelError(result)) throw new Error(result.message);
      return result as CelValue;
    },
  };
}

/** JSON-shaped data as kube's unstructured conversion hands it to CEL. */
export function toCel(value: unknown): unknown {
  if (typeof value === "number") return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(toCel);
  if (value && typeof value === "object") {
    return new Map(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, toCel(v)]));
  }
  return value;
}

/** kube's convertCELValueToStringList: a string or a list of strings; "" and [] mean absent; "" entries dropped. */
export function celStringList(value: CelValue): string[] {
  if (typeof value === "string") return value === "" ? [] : [value];
  if (value === null) return [];
  if (isCelList(value)) {
    const out: string[] = [];
    for (const v of value) {
      if (typeof v !== "string") throw new Error("expression must return a string or a list of strings");
      if (v !== "") out.push(v);
    }
    return out;
  }
  throw new Error("expression must return a string or a list of strings");
}

export { isCelMap };
