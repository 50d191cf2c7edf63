import { describe, expect, it } from "vitest";
import { kindJsonSchema } from "./openapi-schema";

const doc = {
  components: {
    schemas: {
      "io.k8s.api.core.v1.ConfigMap": {
        type: "object",
        "x-kubernetes-group-version-kind": [{ group: "", kind: "ConfigMap", version: "v1" }],
        properties: { kind: { type: "string" }, metadata: { allOf: [{ $ref: "#/components/schemas/meta.ObjectMeta" }] }, data: { type: "object" } },
      },
      "meta.ObjectMeta": { type: "object", properties: { ownerReferences: { items: { $ref: "#/components/schemas/meta.OwnerReference" } } } },
      "meta.OwnerReference": { type: "object" },
      "io.k8s.api.core.v1.Pod": { type: "object", "x-kubernetes-group-version-kind": [{ group: "", kind: "Pod", version: "v1" }] },
      "io.k8s.api.rbac.v1.Role": { type: "object", "x-kubernetes-group-version-kind": [{ group: "rbac.authorization.k8s.io", kind: "Role", version: "v1" }] },
    },
  },
};

describe("kindJsonSchema", () => {
  it("keeps the kind's schema and only the components it reaches, with kind and apiVersion pinned", () => {
    const schema = kindJsonSchema(doc, "ConfigMap")!;
    expect(Object.keys((schema.components as { schemas: object }).schemas)).toEqual(["meta.ObjectMeta", "meta.OwnerReference"]);
    expect((schema.properties as Record<string, { enum?: string[] }>).kind.enum).toEqual(["ConfigMap"]);
    expect((schema.properties as Record<string, { enum?: string[] }>).apiVersion.enum).toEqual(["v1"]);
  });

  it("finds a kind of another API group by its group and pins that group's apiVersion", () => {
    const schema = kindJsonSchema(doc, "Role", "rbac.authorization.k8s.io")!;
    expect((schema.properties as Record<string, { enum?: string[] }>).apiVersion.enum).toEqual(["rbac.authorization.k8s.io/v1"]);
    expect(kindJsonSchema(doc, "Pod", "rbac.authorization.k8s.io")).toBeUndefined();
  });

  it("answers undefined when the document or the kind is missing", () => {
    expect(kindJsonSchema(undefined, "Pod")).toBeUndefined();
    expect(kindJsonSchema(doc, "Secret")).toBeUndefined();
  });
});
