import { describe, expect, it } from "vitest";
import { kindByKind, kinds } from "../kinds";
import { kindEditorSchema, multiKindEditorSchema } from "./openapi-schema";

type Json = Record<string, any>;

const def = (schema: Json, name: string) => (schema.definitions as Json)[name] as Json;

describe("kindEditorSchema", () => {
  it("refuses unknown fields of typed structs and accepts any key in maps, as kube decodes", () => {
    const pod = kindEditorSchema(kindByKind("Pod")!) as Json;
    expect(pod.additionalProperties).toBe(false);
    const meta = def(pod, "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
    expect(meta.additionalProperties).toBe(false);
    expect(meta.properties.labels.additionalProperties).toEqual({ type: "string" });
    expect(meta.properties.annotations.additionalProperties).toEqual({ type: "string" });
    expect(def(pod, "io.k8s.api.core.v1.Container").additionalProperties).toBe(false);
    const cm = kindEditorSchema(kindByKind("ConfigMap")!) as Json;
    expect(cm.properties.data.additionalProperties).toEqual({ type: "string" });
    expect(cm.properties.kind.enum).toEqual(["ConfigMap"]);
  });

  it("is built once per kind", () => {
    expect(kindEditorSchema(kindByKind("Service")!)).toBe(kindEditorSchema(kindByKind("Service")!));
  });
});

describe("multiKindEditorSchema", () => {
  const schema = multiKindEditorSchema(kinds) as Json;

  it("checks each document against the kind it names", () => {
    const branches = schema.allOf as Json[];
    const service = branches.find((b) => b.if.properties.kind.const === "Service")!;
    expect(service.if.required).toEqual(["kind"]);
    expect(service.then.properties.kind.enum).toEqual(["Service"]);
    expect(service.then.properties.spec).toEqual((kindEditorSchema(kindByKind("Service")!) as Json).properties.spec);
    expect(service.then.additionalProperties).toBe(false);
    const role = branches.find((b) => b.if.properties.kind.const === "Role")!;
    expect(role.then.properties.apiVersion.enum).toEqual(["rbac.authorization.k8s.io/v1"]);
    expect(branches).toHaveLength(kinds.filter((k) => kindEditorSchema(k)).length);
  });

  it("holds every definition a branch refers to, and offers the served kinds and apiVersions", () => {
    const refs = new Set<string>();
    const walk = (v: unknown) => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) k === "$ref" && typeof x === "string" ? refs.add(x) : walk(x);
    };
    walk(schema);
    for (const ref of refs) expect(def(schema, ref.replace("#/definitions/", "")), ref).toBeDefined();
    expect(schema.properties.kind.enum).toContain("ConfigMap");
    expect(schema.properties.apiVersion.enum).toEqual(expect.arrayContaining(["v1", "rbac.authorization.k8s.io/v1"]));
    expect(schema.additionalProperties).toBeUndefined();
  });

  it("puts the first kind first and is memoised per list", () => {
    const svc = kindByKind("Service")!;
    const list = [svc, ...kinds.filter((k) => k !== svc)];
    const a = multiKindEditorSchema(list) as Json;
    expect(a.properties.kind.enum[0]).toBe("Service");
    expect(multiKindEditorSchema([...list])).toBe(a);
  });
});
