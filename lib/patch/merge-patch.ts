// RFC 7386 JSON merge patch (application/merge-patch+json): objects merge recursively, `null` deletes a key,
// every other value (lists included) replaces what was there.
import { jsonTypeWord } from "./go-format";
import { assertDepth, badRequest, setOwn } from "./patch-errors";

type JsonMap = Record<string, unknown>;

const isMap = (v: unknown): v is JsonMap => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Apply `patch` to `doc` and return the result. Inputs are not modified. A patch that is not an object is refused
 * as kube-apiserver refuses it: `null` with evanphx/json-patch's `Invalid JSON Patch`, anything else as
 * undecodable (both 400).
 */
export function applyMergePatch(doc: unknown, patch: unknown): unknown {
  assertDepth(patch, "the patch");
  assertDepth(doc, "the object");
  if (patch === null) throw badRequest("Invalid JSON Patch");
  if (!isMap(patch)) throw badRequest(`error decoding patch: json: cannot unmarshal ${jsonTypeWord(patch)} into Go value of type map[string]interface {}`);
  return merge(isMap(doc) ? structuredClone(doc) : {}, patch);
}

/** Merges `patch` into `target` (owned, modified in place); `patch` is only read. */
function merge(target: JsonMap, patch: JsonMap): JsonMap {
  for (const key of Object.keys(patch)) {
    const value = patch[key];
    if (value === null) {
      delete target[key];
    } else if (isMap(value)) {
      const current = target[key];
      setOwn(target, key, merge(isMap(current) && Object.prototype.hasOwnProperty.call(target, key) ? current : {}, value));
    } else {
      setOwn(target, key, structuredClone(value));
    }
  }
  return target;
}
