import { describe, expect, it } from "vitest";
import { podSchema } from "./pod";
import { configMapSchema } from "./config-map";
import { findConversionError, findTypeError, pruneEmptyCollections } from "./shape";

describe("findTypeError", () => {
  it("accepts a well-typed pod", () => {
    expect(findTypeError({ metadata: { name: "p", labels: { a: "b" } }, spec: { containers: [{ name: "c", image: "i", ports: [{ containerPort: 80 }] }], terminationGracePeriodSeconds: 30 } }, podSchema, "Pod")).toBeUndefined();
  });
  it("names the field and the Go type of a string where an integer belongs", () => {
    expect(findTypeError({ spec: { terminationGracePeriodSeconds: "30" } }, podSchema, "Pod"))
      .toBe("json: cannot unmarshal string into Go struct field PodSpec.spec.terminationGracePeriodSeconds of type int64");
  });
  it("refuses a string where a boolean belongs and a number as a label value", () => {
    expect(findTypeError({ spec: { automountServiceAccountToken: "yes" } }, podSchema, "Pod")).toMatch(/unmarshal string .* of type bool$/);
    expect(findTypeError({ metadata: { labels: { a: 1 } } }, configMapSchema, "ConfigMap")).toMatch(/unmarshal number into Go struct field ObjectMeta.metadata.labels of type string/);
  });
  it("lets null stand for any type", () => {
    expect(findTypeError({ spec: { containers: null, nodeSelector: null } }, podSchema, "Pod")).toBeUndefined();
  });
});

describe("findConversionError (a strategic merge patch's result)", () => {
  it("words refusals as kube's unstructured converter does", () => {
    expect(findConversionError({ metadata: { labels: "invalid" } }, configMapSchema, "ConfigMap")).toBe("cannot restore map from string");
    expect(findConversionError({ metadata: { labels: { a: 1 } } }, configMapSchema, "ConfigMap")).toBe("cannot convert int64 to string");
    expect(findConversionError({ metadata: "x" }, configMapSchema, "ConfigMap")).toBe("cannot restore struct from: string");
    expect(findConversionError({ spec: { containers: {} } }, podSchema, "Pod")).toBe("cannot restore slice from map");
    expect(findConversionError({ spec: { terminationGracePeriodSeconds: "30" } }, podSchema, "Pod")).toBe("unrecognized type: int64");
    expect(findConversionError({ spec: { terminationGracePeriodSeconds: 1.5 } }, podSchema, "Pod")).toBe("cannot convert float64 to int64");
  });
  it("accepts a well-typed object and nulls", () => {
    expect(findConversionError({ metadata: { name: "p", labels: null }, spec: { containers: [{ name: "c", image: "i" }], terminationGracePeriodSeconds: 30 } }, podSchema, "Pod")).toBeUndefined();
  });
});

describe("pruneEmptyCollections", () => {
  it("drops empty maps and lists but keeps empty structs", () => {
    const pod = { metadata: { name: "p", labels: {}, finalizers: [] }, spec: { containers: [{ name: "c", env: [] }], securityContext: {}, volumes: [{ name: "v", emptyDir: {} }] } };
    pruneEmptyCollections(pod, podSchema);
    expect(pod).toEqual({ metadata: { name: "p" }, spec: { containers: [{ name: "c" }], securityContext: {}, volumes: [{ name: "v", emptyDir: {} }] } });
  });
});
