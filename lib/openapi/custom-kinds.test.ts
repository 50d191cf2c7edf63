import { afterEach, describe, expect, it } from "vitest";
import { setAddedKinds } from "../kinds";
import { customKinds } from "../kinds/custom-kind";
import type { CustomResourceDefinition } from "../kinds/custom-resource-definition";
import { customComponentName } from "./custom-kind-schemas";
import { gnosticDocument } from "./gnostic";
import { openapiDocument, openapiV2, openapiV2Protobuf, openapiV3GroupVersion, openapiV3Index } from "./index";

type Json = Record<string, any>;

const NAME = "gadgets.shop.example.io";

const crd = (): CustomResourceDefinition => ({
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: NAME },
  spec: {
    group: "shop.example.io",
    scope: "Namespaced",
    names: { plural: "gadgets", singular: "gadget", kind: "Gadget", listKind: "GadgetList" },
    versions: [
      { name: "v1alpha1", served: true, storage: false, schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } } },
      { name: "v1beta1", served: false, storage: false, schema: { openAPIV3Schema: { type: "object" } } },
      {
        name: "v1", served: true, storage: true,
        schema: {
          openAPIV3Schema: {
            type: "object",
            description: "A gadget on the shelf.",
            properties: {
              spec: {
                type: "object",
                description: "What the gadget should be.",
                required: ["size", "note"],
                example: { size: "S" },
                properties: {
                  size: { type: "string", enum: ["S", "M", "L"], description: "How big." },
                  note: { type: "string", nullable: true },
                  port: { "x-kubernetes-int-or-string": true },
                  choice: { type: "string", anyOf: [{ pattern: "^a" }, { pattern: "^b" }] },
                  tags: { type: "array", items: { type: "string" }, "x-kubernetes-list-type": "set" },
                  extra: { type: "object", "x-kubernetes-preserve-unknown-fields": true, properties: { known: { type: "string" } } },
                  template: { type: "object", "x-kubernetes-embedded-resource": true, properties: { spec: { type: "object" } } },
                },
                "x-kubernetes-validations": [{ rule: "self.size != 'L'", message: "no large gadgets" }],
              },
              status: { type: "object", properties: { ready: { type: "boolean" } } },
            },
          },
        },
        subresources: { status: {}, scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas" } },
      },
    ],
  },
});

const serve = () => setAddedKinds(NAME, customKinds(crd()));
afterEach(() => setAddedKinds(NAME, []));

describe("custom kinds in the OpenAPI documents", () => {
  it("names components by kube's rule for CRDs: the group reversed, then version and kind", () => {
    expect(customComponentName("shop.example.io", "v1", "Gadget")).toBe("io.example.shop.v1.Gadget");
  });

  it("lists each served version in /openapi/v3 and drops them when the CRD goes", () => {
    expect(openapiDocument("v3", "apis/shop.example.io/v1")).toBeUndefined();
    serve();
    const paths = (openapiV3Index() as Json).paths;
    expect(paths["apis/shop.example.io/v1"].serverRelativeURL).toMatch(/^\/openapi\/v3\/apis\/shop\.example\.io\/v1\?hash=[0-9A-F]{32}$/);
    expect(paths["apis/shop.example.io/v1alpha1"]).toBeDefined();
    expect(paths["apis/shop.example.io/v1beta1"]).toBeUndefined(); // not served
    expect(openapiDocument("v3", "apis/shop.example.io/v1")).toBeDefined();
    setAddedKinds(NAME, []);
    expect((openapiV3Index() as Json).paths["apis/shop.example.io/v1"]).toBeUndefined();
    expect(openapiDocument("v3", "apis/shop.example.io/v1")).toBeUndefined();
    expect(Object.keys((openapiV2() as Json).definitions).some((d) => d.startsWith("io.example.shop"))).toBe(false);
  });

  it("changes the group version's hash when the CRD's schema changes", () => {
    serve();
    const before = (openapiV3Index() as Json).paths["apis/shop.example.io/v1"].serverRelativeURL;
    const changed = crd();
    changed.spec!.versions![2].schema!.openAPIV3Schema!.properties!.spec.properties!.colour = { type: "string" };
    setAddedKinds(NAME, customKinds(changed));
    const after = (openapiV3Index() as Json).paths["apis/shop.example.io/v1"].serverRelativeURL;
    expect(after).not.toBe(before);
    expect((openapiV3GroupVersion("shop.example.io", "v1") as Json).components.schemas["io.example.shop.v1.Gadget"].properties.spec.properties.colour).toEqual({ type: "string" });
  });

  it("publishes the version's schema in v3 with ObjectMeta, TypeMeta, the GVK and kube's int-or-string unfolding", () => {
    serve();
    const doc = openapiV3GroupVersion("shop.example.io", "v1") as Json;
    const s = doc.components.schemas["io.example.shop.v1.Gadget"];
    expect(s.description).toBe("A gadget on the shelf.");
    expect(s["x-kubernetes-group-version-kind"]).toEqual([{ group: "shop.example.io", kind: "Gadget", version: "v1" }]);
    expect(Object.keys(s.properties)).toEqual(["apiVersion", "kind", "metadata", "spec", "status"]);
    expect(s.properties.metadata.allOf).toEqual([{ $ref: "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta" }]);
    const spec = s.properties.spec;
    expect(spec.description).toBe("What the gadget should be.");
    expect(spec.example).toBeUndefined(); // not part of a structural schema
    expect(spec.required).toEqual(["size", "note"]);
    expect(spec.properties.size.enum).toEqual(["S", "M", "L"]);
    expect(spec.properties.note.nullable).toBe(true);
    expect(spec.properties.port.anyOf).toEqual([{ type: "integer" }, { type: "string" }]);
    expect(spec.properties.choice.anyOf).toHaveLength(2);
    expect(spec.properties.tags["x-kubernetes-list-type"]).toBe("set");
    expect(spec["x-kubernetes-validations"]).toEqual([{ rule: "self.size != 'L'", message: "no large gadgets" }]);
    // An embedded resource gets apiVersion, kind and metadata, and requires the first two.
    expect(Object.keys(spec.properties.template.properties)).toEqual(["apiVersion", "kind", "metadata", "spec"]);
    expect(spec.properties.template.required).toEqual(["kind", "apiVersion"]);
    expect(doc.components.schemas["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"]).toBeDefined();
    const list = doc.components.schemas["io.example.shop.v1.GadgetList"];
    expect(list.required).toEqual(["items"]);
    expect(list.properties.items.items).toEqual({ $ref: "#/components/schemas/io.example.shop.v1.Gadget" });
    expect(list["x-kubernetes-group-version-kind"]).toEqual([{ group: "shop.example.io", kind: "GadgetList", version: "v1" }]);
  });

  it("offers every verb's operation, with fieldValidation on PATCH and no strategic merge patch", () => {
    serve();
    const paths = (openapiV3GroupVersion("shop.example.io", "v1") as Json).paths;
    expect(Object.keys(paths).sort()).toEqual([
      "/apis/shop.example.io/v1/",
      "/apis/shop.example.io/v1/gadgets",
      "/apis/shop.example.io/v1/namespaces/{namespace}/gadgets",
      "/apis/shop.example.io/v1/namespaces/{namespace}/gadgets/{name}",
      "/apis/shop.example.io/v1/namespaces/{namespace}/gadgets/{name}/scale",
      "/apis/shop.example.io/v1/namespaces/{namespace}/gadgets/{name}/status",
    ]);
    const item = paths["/apis/shop.example.io/v1/namespaces/{namespace}/gadgets/{name}"];
    expect(Object.keys(item).filter((k) => k !== "parameters").sort()).toEqual(["delete", "get", "patch", "put"]);
    const patch = item.patch;
    expect(patch.operationId).toBe("patchShopExampleIoV1NamespacedGadget");
    expect(patch.tags).toEqual(["shopExampleIo_v1"]);
    expect(patch["x-kubernetes-group-version-kind"]).toEqual({ group: "shop.example.io", kind: "Gadget", version: "v1" });
    expect(patch.parameters.map((p: Json) => p.name)).toContain("fieldValidation");
    expect(Object.keys(patch.requestBody.content)).toEqual(["application/json-patch+json", "application/merge-patch+json", "application/apply-patch+yaml"]);
    expect(item.delete.responses["200"].content["application/json"].schema.$ref).toBe("#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Status");
    const collection = paths["/apis/shop.example.io/v1/namespaces/{namespace}/gadgets"];
    expect(collection.get.operationId).toBe("listShopExampleIoV1NamespacedGadget");
    expect(collection.delete.operationId).toBe("deleteShopExampleIoV1CollectionNamespacedGadget");
    expect(paths["/apis/shop.example.io/v1/gadgets"].get.operationId).toBe("listShopExampleIoV1GadgetForAllNamespaces");
    const scale = paths["/apis/shop.example.io/v1/namespaces/{namespace}/gadgets/{name}/scale"];
    expect(scale.put.operationId).toBe("replaceShopExampleIoV1NamespacedGadgetScale");
    expect(scale.get.responses["200"].content["application/json"].schema.$ref).toBe("#/components/schemas/io.k8s.api.autoscaling.v1.Scale");
    expect(scale.patch["x-kubernetes-group-version-kind"]).toEqual({ group: "shop.example.io", kind: "Gadget", version: "v1" });
    const components = (openapiV3GroupVersion("shop.example.io", "v1") as Json).components.schemas;
    expect(components["io.k8s.api.autoscaling.v1.Scale"]["x-kubernetes-group-version-kind"]).toEqual([{ group: "autoscaling", kind: "Scale", version: "v1" }]);
    const alpha = (openapiV3GroupVersion("shop.example.io", "v1alpha1") as Json).paths;
    expect(alpha["/apis/shop.example.io/v1alpha1/namespaces/{namespace}/gadgets/{name}"].patch.operationId).toBe("patchShopExampleIoV1alpha1NamespacedGadget");
    expect(alpha["/apis/shop.example.io/v1alpha1/namespaces/{namespace}/gadgets/{name}/status"]).toBeUndefined();
    expect(alpha["/apis/shop.example.io/v1alpha1/namespaces/{namespace}/gadgets/{name}/scale"]).toBeUndefined();
  });

  it("filters the v2 schema as kube does: no junctors, nullable and preserve-unknown values untyped and emptied", () => {
    serve();
    const v2 = openapiV2() as Json;
    const s = v2.definitions["io.example.shop.v1.Gadget"];
    expect(s.properties.metadata).toEqual({ $ref: "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta", description: expect.any(String) });
    const spec = s.properties.spec;
    expect(spec.required).toEqual(["size"]); // a nullable property is no longer required
    expect(spec.properties.note).toEqual({});
    expect(spec.properties.choice).toEqual({ type: "string" });
    expect(spec.properties.port).toEqual({ "x-kubernetes-int-or-string": true });
    expect(spec.properties.extra).toEqual({ "x-kubernetes-preserve-unknown-fields": true });
    // A root that preserves unknown fields is published as just an object.
    expect(v2.definitions["io.example.shop.v1alpha1.Gadget"]).toEqual({
      type: "object",
      "x-kubernetes-group-version-kind": [{ group: "shop.example.io", kind: "Gadget", version: "v1alpha1" }],
    });
    expect(v2.definitions["io.example.shop.v1beta1.Gadget"]).toBeUndefined();
    const patch = v2.paths["/apis/shop.example.io/v1/namespaces/{namespace}/gadgets/{name}"].patch;
    expect(patch.consumes).not.toContain("application/strategic-merge-patch+json");
    // The protobuf form encodes it (gnostic) and is rebuilt with it.
    expect(Buffer.from(openapiV2Protobuf()).equals(Buffer.from(gnosticDocument(v2)))).toBe(true);
    expect(Buffer.from(openapiV2Protobuf()).includes(Buffer.from("io.example.shop.v1.Gadget"))).toBe(true);
  });
});
