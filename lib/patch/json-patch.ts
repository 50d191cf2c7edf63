// RFC 6902 JSON patch (application/json-patch+json) via fast-json-patch, answered as kube-apiserver does:
// an undecodable patch is 400; more than 10000 operations 413; any operation that fails to apply (a failed
// `test`, a missing path, an unknown op) 422 Invalid with kube's fixed message and empty details.
import * as fastJsonPatch from "fast-json-patch";
import type { Operation } from "fast-json-patch";
import { StatusError } from "../status";
import { jsonTypeWord } from "./go-format";
import { assertDepth, badRequest, rejected } from "./patch-errors";

// Node loads the CommonJS build, whose exports all sit under `default`; bundlers load the ES build.
const jsonPatch: typeof fastJsonPatch =
  (fastJsonPatch as unknown as { default?: typeof fastJsonPatch }).default?.applyPatch
    ? (fastJsonPatch as unknown as { default: typeof fastJsonPatch }).default
    : fastJsonPatch;

/** kube-apiserver's maxJSONPatchOperations. */
export const MAX_JSON_PATCH_OPERATIONS = 10000;

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const decodeError = (what: string) => badRequest(`error decoding patch: json: cannot unmarshal ${what}`);

/** Apply the operations `ops` to `doc` and return the result. Inputs are not modified. */
export function applyJsonPatch(doc: unknown, ops: unknown): unknown {
  assertDepth(ops, "the patch");
  assertDepth(doc, "the object");
  if (ops === null) return structuredClone(doc);
  if (!Array.isArray(ops)) throw decodeError(`${jsonTypeWord(ops)} into Go value of type []handlers.jsonPatchOp`);
  for (const op of ops) {
    if (!isMap(op)) throw decodeError(`${jsonTypeWord(op)} into Go value of type handlers.jsonPatchOp`);
    for (const field of ["op", "path", "from"]) {
      const v = op[field];
      if (v !== undefined && v !== null && typeof v !== "string") {
        throw decodeError(`${jsonTypeWord(v)} into Go struct field jsonPatchOp.${field} of type string`);
      }
    }
  }
  if (ops.length > MAX_JSON_PATCH_OPERATIONS) {
    throw new StatusError(413, "RequestEntityTooLarge",
      `Request entity too large: The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${ops.length}`);
  }
  try {
    // Validation on, applied to our own copies; prototype modifications refused (the library's default).
    return jsonPatch.applyPatch(structuredClone(doc), structuredClone(ops) as Operation[], true, true, true).newDocument;
  } catch {
    throw rejected();
  }
}
