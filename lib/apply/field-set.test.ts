import { describe, expect, it } from "vitest";
import { FieldSet } from "./field-set";
import { fromFieldsV1, FieldsV1Error, toFieldsV1 } from "./fields-v1";
import { comparePathElements, deserializePathElement, keyOf, pathString, serializePathElement, type Path } from "./path-element";

const f = (field: string) => ({ field });
const k = (...kv: [string, string | number][]) => ({ key: keyOf(kv) });

describe("path elements", () => {
  it("order fields before keys before values before indexes, numbers before strings", () => {
    const sorted = [{ index: 0 }, { value: "a" }, { value: 2 }, k(["name", "b"]), f("b"), f("a")].sort(comparePathElements);
    expect(sorted.map(serializePathElement)).toEqual(["f:a", "f:b", 'k:{"name":"b"}', "v:2", 'v:"a"', "i:0"]);
  });

  it("serialize keys with sorted fields and Go's JSON (HTML characters escaped)", () => {
    expect(serializePathElement(k(["protocol", "TCP"], ["containerPort", 80]))).toBe('k:{"containerPort":80,"protocol":"TCP"}');
    expect(serializePathElement({ value: "a<b>&c" })).toBe('v:"a\\u003cb\\u003e\\u0026c"');
    expect(deserializePathElement('k:{"protocol":"TCP","containerPort":80}')).toEqual(k(["containerPort", 80], ["protocol", "TCP"]));
    expect(deserializePathElement("x:unknown")).toBeUndefined();
  });

  it("print paths as SMD does", () => {
    const p: Path = [f("spec"), f("containers"), k(["name", "nginx"]), f("ports"), k(["containerPort", 80], ["protocol", "TCP"])];
    expect(pathString(p)).toBe('.spec.containers[name="nginx"].ports[containerPort=80,protocol="TCP"]');
    expect(pathString([f("metadata"), f("finalizers"), { value: "x" }])).toBe('.metadata.finalizers[="x"]');
    expect(pathString([f("spec"), f("args"), { index: 2 }])).toBe(".spec.args[2]");
  });
});

describe("FieldSet", () => {
  const a = FieldSet.of([f("data"), f("a")], [f("data"), f("b")], [f("data")]);
  const b = FieldSet.of([f("data"), f("b")], [f("metadata"), f("labels"), f("x")]);

  it("tracks members and children separately", () => {
    expect(a.has([f("data")])).toBe(true);
    expect(b.has([f("data")])).toBe(false);
    expect(b.has([f("metadata"), f("labels"), f("x")])).toBe(true);
    expect(FieldSet.of([]).isEmpty()).toBe(true);
  });

  it("union, intersection and difference work path by path", () => {
    expect(a.union(b).paths().map(pathString)).toEqual([".data", ".data.a", ".data.b", ".metadata.labels.x"]);
    expect(a.intersection(b).paths().map(pathString)).toEqual([".data.b"]);
    expect(a.difference(b).paths().map(pathString)).toEqual([".data", ".data.a"]);
    // a parent minus its child stays, a child minus its parent stays
    expect(FieldSet.of([f("data")]).difference(FieldSet.of([f("data"), f("a")])).paths().map(pathString)).toEqual([".data"]);
    expect(FieldSet.of([f("data"), f("a")]).difference(FieldSet.of([f("data")])).paths().map(pathString)).toEqual([".data.a"]);
  });

  it("recursive difference drops everything under a member", () => {
    const s = FieldSet.of([f("status"), f("phase")], [f("spec"), f("x")]);
    expect(s.recursiveDifference(FieldSet.of([f("status")])).paths().map(pathString)).toEqual([".spec.x"]);
  });
});

describe("FieldsV1", () => {
  it("writes members as {} and a member with children with a trailing '.'", () => {
    const set = FieldSet.of([f("data")], [f("data"), f("key")], [f("metadata"), f("labels"), f("app")]);
    const v1 = toFieldsV1(set);
    expect(v1).toEqual({ "f:data": { "f:key": {}, ".": {} }, "f:metadata": { "f:labels": { "f:app": {} } } });
    expect(Object.keys(v1["f:data"])).toEqual(["f:key", "."]);
    expect(fromFieldsV1(v1).equals(set)).toBe(true);
  });

  it("reads kube's form of a pod's containers and ports", () => {
    const v1 = {
      "f:spec": {
        "f:containers": {
          'k:{"name":"nginx"}': {
            ".": {}, "f:image": {}, "f:name": {},
            "f:ports": { ".": {}, 'k:{"containerPort":80,"protocol":"TCP"}': { ".": {}, "f:containerPort": {}, "f:protocol": {} } },
          },
        },
      },
    };
    const set = fromFieldsV1(v1);
    expect(set.paths().map(pathString)).toEqual([
      '.spec.containers[name="nginx"]',
      '.spec.containers[name="nginx"].image',
      '.spec.containers[name="nginx"].name',
      '.spec.containers[name="nginx"].ports',
      '.spec.containers[name="nginx"].ports[containerPort=80,protocol="TCP"]',
      '.spec.containers[name="nginx"].ports[containerPort=80,protocol="TCP"].containerPort',
      '.spec.containers[name="nginx"].ports[containerPort=80,protocol="TCP"].protocol',
    ]);
    expect(toFieldsV1(set)).toEqual(v1);
  });

  it("refuses what is not a field set, and skips unknown element kinds", () => {
    expect(() => fromFieldsV1("x")).toThrow(FieldsV1Error);
    expect(() => fromFieldsV1({ "f:a": [] })).toThrow(FieldsV1Error);
    expect(() => fromFieldsV1({ "k:{oops": {} })).toThrow(FieldsV1Error);
    expect(fromFieldsV1({ "z:future": {}, "f:a": {} }).paths().map(pathString)).toEqual([".a"]);
  });
});
