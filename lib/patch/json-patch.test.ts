import { describe, expect, it } from "vitest";
import { StatusError } from "../status";
import { applyJsonPatch, MAX_JSON_PATCH_OPERATIONS } from "./json-patch";

const doc = Object.freeze({ metadata: Object.freeze({ name: "cm", labels: Object.freeze({ a: "1" }) }), data: Object.freeze({ k: "v" }) });

function statusOf(fn: () => unknown) {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(StatusError);
    return (err as StatusError).toStatus();
  }
  throw new Error("expected an error");
}

describe("applyJsonPatch", () => {
  it("applies RFC 6902 operations without touching its inputs", () => {
    const ops = [
      { op: "add", path: "/metadata/labels/b", value: "2" },
      { op: "replace", path: "/data/k", value: "w" },
      { op: "test", path: "/metadata/name", value: "cm" },
      { op: "copy", from: "/data/k", path: "/data/k2" },
      { op: "move", from: "/data/k2", path: "/data/k3" },
      { op: "remove", path: "/metadata/labels/a" },
    ];
    expect(applyJsonPatch(doc, ops)).toEqual({ metadata: { name: "cm", labels: { b: "2" } }, data: { k: "w", k3: "w" } });
    expect(doc.data).toEqual({ k: "v" });
  });

  it("a failed test op is kube's 422 Invalid with the fixed message and empty details", () => {
    expect(statusOf(() => applyJsonPatch(doc, [{ op: "test", path: "/metadata/name", value: "other" }]))).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: "the server rejected our request due to an error in our request",
      reason: "Invalid",
      details: {},
      code: 422,
    });
  });

  it("a missing path, a bad pointer or an unknown op is the same 422", () => {
    for (const op of [
      { op: "remove", path: "/metadata/nope" },
      { op: "replace", path: "/spec/x", value: 1 },
      { op: "add", path: "no-slash", value: 1 },
      { op: "frobnicate", path: "/data" },
      { op: "add", path: "/__proto__/polluted", value: true },
    ]) {
      expect(statusOf(() => applyJsonPatch(doc, [op])).code, JSON.stringify(op)).toBe(422);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("an undecodable patch is a 400", () => {
    expect(statusOf(() => applyJsonPatch(doc, { op: "add" }))).toMatchObject({
      code: 400, reason: "BadRequest", message: "error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp",
    });
    expect(statusOf(() => applyJsonPatch(doc, ["x"])).message).toBe("error decoding patch: json: cannot unmarshal string into Go value of type handlers.jsonPatchOp");
    expect(statusOf(() => applyJsonPatch(doc, [{ op: "add", path: 5 }])).message).toBe(
      "error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.path of type string",
    );
  });

  it("null is an empty patch", () => {
    expect(applyJsonPatch(doc, null)).toEqual(doc);
  });

  it("more than 10000 operations is 413", () => {
    const ops = Array.from({ length: MAX_JSON_PATCH_OPERATIONS + 1 }, () => ({ op: "test", path: "/metadata/name", value: "cm" }));
    expect(statusOf(() => applyJsonPatch(doc, ops))).toMatchObject({
      code: 413, reason: "RequestEntityTooLarge", message: "Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001",
    });
  });

  it("refuses absurd nesting with a 400", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 1000; i++) deep = [deep];
    expect(statusOf(() => applyJsonPatch(doc, [{ op: "add", path: "/data/x", value: deep }])).code).toBe(400);
  });
});
