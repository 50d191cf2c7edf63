import { describe, expect, it } from "vitest";
import { StatusError } from "../status";
import { applyMergePatch } from "./merge-patch";

const doc = Object.freeze({
  metadata: Object.freeze({ name: "p", labels: Object.freeze({ a: "1", b: "2" }) }),
  spec: Object.freeze({ containers: Object.freeze([Object.freeze({ name: "a" }), Object.freeze({ name: "b" })]) }),
});

function statusOf(fn: () => unknown) {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(StatusError);
    return (err as StatusError).toStatus();
  }
  throw new Error("expected an error");
}

describe("applyMergePatch", () => {
  it("merges objects recursively and null deletes a key", () => {
    expect(applyMergePatch(doc, { metadata: { labels: { a: null, c: "3" } } })).toEqual({
      metadata: { name: "p", labels: { b: "2", c: "3" } },
      spec: { containers: [{ name: "a" }, { name: "b" }] },
    });
  });

  it("replaces lists whole (RFC 7386 has no list merging)", () => {
    expect((applyMergePatch(doc, { spec: { containers: [{ name: "c" }] } }) as typeof doc).spec.containers).toEqual([{ name: "c" }]);
  });

  it("drops nulls inside a new object, replaces scalars with objects", () => {
    expect(applyMergePatch({ a: 1 }, { a: { b: null, c: 1 }, d: { e: null } })).toEqual({ a: { c: 1 }, d: {} });
  });

  it("leaves its inputs alone (they are frozen) and keeps __proto__ as data", () => {
    const out = applyMergePatch(doc, JSON.parse('{"metadata":{"labels":{"__proto__":{"x":1}}}}')) as { metadata: { labels: object } };
    expect(Object.getPrototypeOf(out.metadata.labels)).toBe(Object.prototype);
    expect(Object.keys(out.metadata.labels)).toContain("__proto__");
  });

  it("refuses a patch that is not an object as kube-apiserver does", () => {
    expect(statusOf(() => applyMergePatch(doc, null))).toMatchObject({ code: 400, reason: "BadRequest", message: "Invalid JSON Patch" });
    expect(statusOf(() => applyMergePatch(doc, [1])).message).toBe("error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}");
    expect(statusOf(() => applyMergePatch(doc, "x")).code).toBe(400);
  });
});
