// RFC 6902 JSON patch via fast-json-patch; failures become kube-apiserver's errors.
import fjp, { type Operation } from "fast-json-patch";
import { errors, isStatusError, StatusError } from "../api/errors";

export function applyJsonPatch(doc: unknown, ops: unknown): unknown {
  if (!Array.isArray(ops)) throw errors.badRequest("json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp");
  try {
    return fjp.applyPatch(structuredClone(doc), ops as Operation[], true, false).newDocument;
  } catch (err) {
    if (isStatusError(err)) throw err;
    const e = err as { name?: string; message?: string };
    if (e.name === "TEST_OPERATION_FAILED") {
      throw errors.invalid("", "", [{ type: "FieldValueInvalid", field: "", detail: "the server rejected our request due to an error in our request" }]);
    }
    throw new StatusError(422, "Invalid", `the server rejected our request due to an error in our request: ${(e.message ?? String(err)).split("\n")[0]}`);
  }
}
