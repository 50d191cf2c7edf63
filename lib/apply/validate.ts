// Checks an apply configuration against the kind's schema as SMD's typed conversion does before it merges
// anything: every field declared, every value of its declared type, list items nameable and not repeated.
// Problems come back as SMD words them (`.spec.foo: field not declared in schema`, `.spec.containers:
// duplicate entries for key [name="a"]`), one per line under `errors:` when there are several.
import type { Schema } from "../kinds/schema/schema";
import { goValue } from "../patch/go-format";
import { ItemError, listItemPathElement } from "./list-items";
import { pathString, serializePathElement, pathElementString, type Path, type PathElement } from "./path-element";
import { atomOf, childSchema, keepsUnknownFields, resolveAtom, type Atom, type ScalarType } from "./schema-atoms";

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Go's `%#v` of a decoded JSON value, as SMD prints a value.Value it cannot use. */
function goSharpV(v: unknown): string {
  if (v === null || v === undefined) return "interface {}(nil)";
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "number" || typeof v === "boolean") return goValue(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSharpV).join(", ")}}`;
  const o = v as Record<string, unknown>;
  return `map[string]interface {}{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${goSharpV(o[k])}`).join(", ")}}`;
}

const goTypeOf = (v: unknown) =>
  typeof v === "string" ? "string" : typeof v === "boolean" ? "bool" : typeof v === "number" ? (Number.isInteger(v) ? "int64" : "float64")
    : Array.isArray(v) ? "[]interface {}" : "map[string]interface {}";

function scalarError(t: ScalarType, v: unknown): string | undefined {
  if (v === null) return undefined;
  switch (t) {
    case "numeric": return typeof v === "number" ? undefined : `expected numeric (int or float), got ${goTypeOf(v)}`;
    case "string": return typeof v === "string" ? undefined : `expected string, got &value.valueUnstructured{Value:${goSharpV(v)}}`;
    case "boolean": return typeof v === "boolean" ? undefined : `expected boolean, got &{${goValue(v)}}`;
    default: return isMap(v) || Array.isArray(v) ? `expected scalar, got &{${goValue(v)}}` : undefined;
  }
}

/** Problems with `value` under `schema`; empty when it is a valid apply configuration. */
export function validateConfiguration(value: unknown, schema: Schema): string[] {
  const errs: string[] = [];
  walk(value, atomOf(schema), [], errs, 0);
  return errs;
}

/** The errors as SMD's ValidationErrors print them. */
export function formatValidationErrors(errs: readonly string[]): string {
  return errs.length === 1 ? errs[0] : ["errors:", ...errs.map((e) => `  ${e}`)].join("\n");
}

const at = (path: Path, msg: string) => (path.length ? `${pathString(path)}: ${msg}` : msg);

const MAX_DEPTH = 200;

function walk(v: unknown, schemaAtom: Atom, path: PathElement[], errs: string[], depth: number): void {
  if (depth > MAX_DEPTH) {
    errs.push(at(path, "value nests too deep"));
    return;
  }
  const atom = resolveAtom(schemaAtom, v);
  switch (atom.type) {
    case "scalar": {
      const e = scalarError(atom.scalar, v);
      if (e) errs.push(at(path, e));
      return;
    }
    case "struct": case "map": {
      if (v === null || v === undefined) return;
      if (!isMap(v)) {
        errs.push(at(path, `expected map, got &{${goValue(v)}}`));
        return;
      }
      for (const [k, child] of Object.entries(v)) {
        const s = childSchema(atom, k);
        const next = [...path, { field: k }];
        if (atom.type === "struct" && !s && !keepsUnknownFields(atom)) {
          errs.push(at(next, "field not declared in schema"));
          continue;
        }
        walk(child, atomOf(s), next, errs, depth + 1);
      }
      return;
    }
    case "list": {
      if (v === null || v === undefined) return;
      if (!Array.isArray(v)) {
        errs.push(at(path, `expected list, got &{${goValue(v)}}`));
        return;
      }
      const seen = new Set<string>();
      for (let i = 0; i < v.length; i++) {
        let pe: PathElement;
        try {
          pe = listItemPathElement(atom, v[i], i);
        } catch (err) {
          if (!(err instanceof ItemError)) throw err;
          // SMD cannot name the element, so it reports it and stops looking at this list.
          errs.push(at(path, `element ${i}: ${err.message}`));
          return;
        }
        if (atom.relationship !== "atomic") {
          const id = serializePathElement(pe);
          if (seen.has(id)) errs.push(at(path, `duplicate entries for key ${pathElementString(pe)}`));
          seen.add(id);
        }
        walk(v[i], atomOf(atom.items), [...path, pe], errs, depth + 1);
      }
      return;
    }
    default:
      return;
  }
}
