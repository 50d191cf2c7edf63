// PATCH: the four body formats kube-apiserver 1.32 accepts (JSON patch, merge patch, strategic merge patch,
// server-side apply), each recorded in managedFields for its field manager (lib/apply).
import { LineCounter, parseDocument, isMap as isYamlMap, isScalar, visit } from "yaml";
import type { AnyKind, KubeObject } from "../kinds/types";
import type { Answer, Registry } from "../registry/registry";
import type { WriteOptions } from "../registry/options";
import { applyObject, updateTracker } from "../apply";
import { applyJsonPatch } from "../patch/json-patch";
import { applyMergePatch } from "../patch/merge-patch";
import { goValue } from "../patch/go-format";
import { strategicMergePatch } from "../patch/strategic-merge";
import { errors } from "../status";
import { checkFields } from "./field-validation";
import { dedupOwnerReferences } from "./owner-references";
import { bodyType, decodeBody, depthOf, MAX_DEPTH } from "./media";

export type PatchType = "json-patch" | "merge-patch" | "strategic-merge-patch" | "apply-patch";

/** What kube-apiserver 1.32 names in its 415 for a PATCH (apply-patch+cbor only comes with an alpha gate). */
const PATCH_MEDIA_TYPES = "application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml";

/** What kube names for a custom resource, which has no strategic merge patch (no Go struct to merge by). */
const PATCH_MEDIA_TYPES_UNSTRUCTURED = "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml";

/**
 * The patch format of a Content-Type, or 415 UnsupportedMediaType. A kind without a declared schema (a custom
 * resource) takes no strategic merge patch, as kube's apiextensions handler offers none.
 */
export function patchType(contentType: string | undefined, strategic = true): PatchType {
  const type = bodyType(contentType);
  if (type === "strategic-merge-patch" && !strategic) throw errors.unsupportedMediaType(PATCH_MEDIA_TYPES_UNSTRUCTURED);
  if (type === "json-patch" || type === "merge-patch" || type === "strategic-merge-patch" || type === "apply-patch") return type;
  throw errors.unsupportedMediaType(strategic ? PATCH_MEDIA_TYPES : PATCH_MEDIA_TYPES_UNSTRUCTURED);
}

export function applyPatch(kind: AnyKind, type: Exclude<PatchType, "apply-patch">, patch: unknown, current: KubeObject): unknown {
  if (type === "json-patch") return applyJsonPatch(current, patch);
  if (type === "merge-patch") return applyMergePatch(current, patch);
  return strategicMergePatch(current, patch, kind.schema);
}

/**
 * How a refused patch is shown in a strict-decoding error: kube-apiserver prints the strategic merge patch
 * itself (Go `%v`), and the patched object for JSON and merge patches.
 */
export function shownPatch(type: PatchType, patch: unknown, patched: unknown): string {
  return type === "strategic-merge-patch" ? goValue(patch) : JSON.stringify(patched);
}

export interface PatchTarget {
  kind: AnyKind;
  namespace: string;
  name: string;
  subresource?: string;
}

/**
 * Patches (or, for an apply, applies to) the object. `opts.fieldManager`/`manager` name who the write is
 * recorded for; warnings (unknown or duplicate fields under fieldValidation=Warn) are appended to `warnings`.
 */
export async function patchObject(
  reg: Registry, target: PatchTarget, type: PatchType, raw: Buffer,
  opts: WriteOptions & { manager: string }, warnings: string[],
): Promise<Answer> {
  const { kind, namespace, name, subresource } = target;
  if (type === "apply-patch") {
    const config = decodeApplyConfiguration(raw);
    const duplicates = opts.fieldValidation === "Ignore" ? undefined : duplicateKeyError(raw);
    const answer = await applyObject(reg, kind, namespace, name, config, {
      ...opts, force: opts.force ?? false, subresource,
      afterApply: () => {
        if (duplicates && opts.fieldValidation === "Strict") throw errors.badRequest(`error strict decoding YAML: ${duplicates}`);
      },
    });
    if (duplicates) warnings.push(duplicates);
    return answer;
  }
  const patch = decodeBody(raw, "json", "Patch");
  return reg.patch(kind, namespace, name, (current) => {
    const check = { mode: opts.fieldValidation, warnings: [] as string[] };
    const result = applyPatch(kind, type, patch, current);
    const patched = checkFields(kind, result, check, [], { shown: () => shownPatch(type, patch, result), strategic: type === "strategic-merge-patch" });
    const repeated = dedupOwnerReferences(patched, true);
    if (repeated) check.warnings.push(repeated);
    warnings.splice(0, warnings.length, ...check.warnings); // only the attempt that is kept reports
    return patched;
  }, { ...opts, subresource, track: updateTracker(kind, subresource ?? "", opts.manager) });
}

/** An apply body (YAML, of which JSON is a subset) as kube's yaml.Unmarshal into a map reads it. */
function decodeApplyConfiguration(raw: Buffer): Record<string, unknown> {
  const text = raw.toString("utf8");
  const doc = parseDocument(text, { uniqueKeys: false });
  if (doc.errors.length) throw errors.badRequest(`error decoding YAML: error converting YAML to JSON: yaml: ${doc.errors[0].message}`);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    throw errors.badRequest(`error decoding YAML: error converting YAML to JSON: yaml: ${(err as Error).message}`);
  }
  if (depthOf(value) > MAX_DEPTH) throw errors.badRequest(`error decoding YAML: nesting is deeper than ${MAX_DEPTH} levels`);
  if (value === null || value === undefined) return {};
  if (typeof value !== "object" || Array.isArray(value)) {
    const what = Array.isArray(value) ? "array" : typeof value === "boolean" ? "bool" : typeof value;
    throw errors.badRequest(`error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${what} into Go value of type map[string]interface {}`);
  }
  return value as Record<string, unknown>;
}


/** Repeated keys in an apply body, worded as sigs.k8s.io/yaml's strict decoding reports them; undefined if none. */
function duplicateKeyError(raw: Buffer): string | undefined {
  const lines = new LineCounter();
  const doc = parseDocument(raw.toString("utf8"), { uniqueKeys: false, lineCounter: lines });
  const found: string[] = [];
  visit(doc, {
    Map(_, node) {
      if (!isYamlMap(node)) return;
      const seen = new Set<string>();
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
        if (key === undefined) continue;
        if (seen.has(key)) {
          const offset = isScalar(pair.key) && pair.key.range ? pair.key.range[0] : 0;
          found.push(`  line ${lines.linePos(offset).line}: key ${JSON.stringify(key)} already set in map`);
        }
        seen.add(key);
      }
    },
  });
  return found.length ? `error converting YAML to JSON: yaml: unmarshal errors:\n${found.join("\n")}` : undefined;
}
