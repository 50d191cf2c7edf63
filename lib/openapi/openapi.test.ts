import { describe, expect, it } from "vitest";
import { kinds } from "../kinds";
import { reviewResources } from "../kinds/reviews";
import { jsonSchemaFor, openapiDocument, openapiV2, openapiV3Api, openapiV3CoreV1, openapiV3GroupVersion, openapiV3Index } from "./index";

type Json = Record<string, any>;

const v3 = openapiV3CoreV1() as Json;
const v2 = openapiV2() as Json;
const schemas = v3.components.schemas as Record<string, Json>;
const coreKinds = kinds.filter((k) => !k.group);
const RBAC = "rbac.authorization.k8s.io";
const rbac = openapiV3GroupVersion(RBAC) as Json;
const rbacSchemas = rbac.components.schemas as Record<string, Json>;

/** Every `$ref` in `doc` resolves to a definition under `prefix`. */
/** `x-kubernetes-*` annotations anywhere in `doc`; property names (JSONSchemaProps declares such fields) do not count. */
function extensionKeys(doc: unknown): string[] {
  const found: string[] = [];
  const walk = (v: unknown, underProperties: boolean): void => {
    if (typeof v !== "object" || v === null) return;
    for (const [k, child] of Object.entries(v)) {
      if (!underProperties && k.startsWith("x-kubernetes")) found.push(k);
      walk(child, k === "properties" && !underProperties);
    }
  };
  walk(doc, false);
  return found;
}

function unresolvedRefs(doc: Json, defs: Record<string, unknown>, prefix: string): string[] {
  const bad: string[] = [];
  const stack: unknown[] = [doc];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v !== "object" || v === null) continue;
    for (const [k, child] of Object.entries(v)) {
      // A `$ref` key holding a schema is a property named so (JSONSchemaProps has one), not a reference.
      if (k === "$ref" && typeof child === "string") {
        const ref = child as string;
        if (!ref.startsWith(prefix) || !(ref.slice(prefix.length) in defs)) bad.push(ref);
      } else stack.push(child);
    }
  }
  return bad;
}

const patchOperations = (doc: Json) =>
  Object.entries(doc.paths as Record<string, Json>).filter(([, item]) => item.patch).map(([path, item]) => ({ path, op: item.patch as Json }));

describe("OpenAPI v3 (/openapi/v3/api/v1)", () => {
  it("every core kind has PATCH operations declaring fieldValidation, dryRun and fieldManager, tagged with the kind's GVK", () => {
    for (const kind of coreKinds) {
      const ops = patchOperations(v3).filter(({ op }) => op["x-kubernetes-group-version-kind"].kind === kind.kind);
      expect(ops.length, kind.kind).toBe(kind.hasStatus ? 2 : 1);
      for (const { path, op } of ops) {
        expect(op["x-kubernetes-group-version-kind"], path).toEqual({ group: "", kind: kind.kind, version: "v1" });
        const names = (op.parameters as Json[]).filter((p) => p.in === "query").map((p) => p.name);
        expect(names, path).toEqual(expect.arrayContaining(["fieldValidation", "dryRun", "fieldManager"]));
        // kubectl apply uses strategic merge patch only when the PATCH operation accepts it.
        expect(Object.keys(op.requestBody.content), path).toContain("application/strategic-merge-patch+json");
        expect(op["x-kubernetes-action"]).toBe("patch");
      }
    }
  });

  it("POST and PUT declare fieldValidation too (kubectl create/replace send Strict)", () => {
    for (const item of Object.values(v3.paths as Record<string, Json>)) {
      for (const method of ["post", "put"]) {
        if (!item[method]) continue;
        expect((item[method].parameters as Json[]).map((p) => p.name)).toContain("fieldValidation");
      }
    }
  });

  it("has namespaced, cluster, watch and /status paths for the right kinds", () => {
    const paths = Object.keys(v3.paths);
    expect(paths).toEqual(expect.arrayContaining([
      "/api/v1/",
      "/api/v1/namespaces/{namespace}/pods",
      "/api/v1/namespaces/{namespace}/pods/{name}",
      "/api/v1/namespaces/{namespace}/pods/{name}/status",
      "/api/v1/pods",
      "/api/v1/watch/namespaces/{namespace}/pods",
      "/api/v1/watch/namespaces/{namespace}/pods/{name}",
      "/api/v1/watch/pods",
      "/api/v1/persistentvolumes",
      "/api/v1/persistentvolumes/{name}",
      "/api/v1/persistentvolumes/{name}/status",
      "/api/v1/watch/persistentvolumes",
      "/api/v1/watch/persistentvolumes/{name}",
      "/api/v1/securitycontextconstraints/{name}",
    ]));
    expect(paths).not.toContain("/api/v1/namespaces/{namespace}/configmaps/{name}/status");
    expect(paths.some((p) => p.includes("namespaces/{namespace}/persistentvolumes"))).toBe(false);
    const item = v3.paths["/api/v1/namespaces/{namespace}/pods/{name}"];
    expect(Object.keys(item).sort()).toEqual(["delete", "get", "parameters", "patch", "put"]);
    expect(item.parameters.map((p: Json) => `${p.in}:${p.name}`)).toEqual(["path:namespace", "path:name", "query:pretty"]);
    expect(item.patch.operationId).toBe("patchCoreV1NamespacedPod");
    expect(v3.paths["/api/v1/persistentvolumes/{name}"].patch.operationId).toBe("patchCoreV1PersistentVolume");
    expect(v3.paths["/api/v1/namespaces/{namespace}/configmaps"].get.parameters.map((p: Json) => p.name)).toEqual(
      expect.arrayContaining(["labelSelector", "fieldSelector", "limit", "continue", "watch", "resourceVersion"]),
    );
  });

  it("publishes kind, list and meta components with kube's names and GVK extensions", () => {
    for (const kind of coreKinds) {
      expect(schemas[`io.k8s.api.core.v1.${kind.kind}`]["x-kubernetes-group-version-kind"]).toEqual([{ group: "", kind: kind.kind, version: "v1" }]);
      expect(schemas[`io.k8s.api.core.v1.${kind.kind}List`]["x-kubernetes-group-version-kind"]).toEqual([{ group: "", kind: `${kind.kind}List`, version: "v1" }]);
    }
    for (const name of ["ObjectMeta", "ListMeta", "Status", "DeleteOptions", "WatchEvent", "Patch", "Time", "OwnerReference"]) {
      expect(schemas[`io.k8s.apimachinery.pkg.apis.meta.v1.${name}`], name).toBeDefined();
    }
    expect(schemas["io.k8s.apimachinery.pkg.api.resource.Quantity"]).toMatchObject({ type: "string" });
    expect(schemas["io.k8s.apimachinery.pkg.util.intstr.IntOrString"]).toMatchObject({ type: "string", format: "int-or-string" });
    expect(unresolvedRefs(v3, schemas, "#/components/schemas/")).toEqual([]);
  });

  it("describes Container.image for kubectl explain", () => {
    const container = schemas["io.k8s.api.core.v1.Container"];
    expect(container.properties.image).toMatchObject({ type: "string", description: expect.stringMatching(/image/i) });
    expect(container.description).toBeTruthy();
    expect(container.required).toEqual(["name"]);
    expect(schemas["io.k8s.api.core.v1.PodSpec"].properties.containers).toMatchObject({
      type: "array",
      items: { $ref: "#/components/schemas/io.k8s.api.core.v1.Container" },
      description: expect.any(String),
    });
    expect(schemas["io.k8s.api.core.v1.Pod"].properties.spec).toEqual({
      allOf: [{ $ref: "#/components/schemas/io.k8s.api.core.v1.PodSpec" }],
      description: expect.any(String),
    });
  });

  it("carries the strategic merge metadata kubectl reads for client-side apply", () => {
    expect(schemas["io.k8s.api.core.v1.PodSpec"].properties.containers).toMatchObject({
      "x-kubernetes-patch-merge-key": "name", "x-kubernetes-patch-strategy": "merge", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
    });
    expect(schemas["io.k8s.api.core.v1.PodSpec"].properties.volumes).toMatchObject({ "x-kubernetes-patch-strategy": "merge,retainKeys" });
    expect(schemas["io.k8s.api.core.v1.Container"].properties.ports).toMatchObject({
      "x-kubernetes-patch-merge-key": "containerPort", "x-kubernetes-list-map-keys": ["containerPort", "protocol"],
    });
    expect(schemas["io.k8s.api.core.v1.PodSpec"].properties.tolerations["x-kubernetes-list-type"]).toBe("atomic");
    expect(schemas["io.k8s.api.core.v1.PodSpec"].properties.tolerations["x-kubernetes-patch-strategy"]).toBeUndefined();
    expect(schemas["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"].properties.finalizers).toMatchObject({
      "x-kubernetes-list-type": "set", "x-kubernetes-patch-strategy": "merge",
    });
    expect(schemas["io.k8s.api.core.v1.ServiceSpec"].properties.ports["x-kubernetes-patch-merge-key"]).toBe("port");
  });

  it("is built once", () => {
    expect(openapiV3CoreV1()).toBe(v3);
    expect(openapiV2()).toBe(v2);
    expect(JSON.parse(JSON.stringify(v3))).toEqual(v3);
  });
});

describe("OpenAPI v3 index and /api document", () => {
  it("points at the group documents with a content hash", () => {
    const index = openapiV3Index() as Json;
    expect(Object.keys(index.paths).sort()).toEqual(["api", "api/v1", "apis/apiextensions.k8s.io/v1", "apis/coordination.k8s.io/v1", `apis/${RBAC}/v1`, "apis/security.openshift.io/v1"]);
    expect(index.paths[`apis/${RBAC}/v1`].serverRelativeURL).toMatch(/^\/openapi\/v3\/apis\/rbac\.authorization\.k8s\.io\/v1\?hash=[0-9A-F]{32}$/);
    expect(index.paths["api/v1"].serverRelativeURL).toMatch(/^\/openapi\/v3\/api\/v1\?hash=[0-9A-F]{32}$/);
    expect(index.paths.api.serverRelativeURL).toMatch(/^\/openapi\/v3\/api\?hash=[0-9A-F]{32}$/);
    const api = openapiV3Api() as Json;
    expect(api.paths["/api/"].get.operationId).toBe("getCoreAPIVersions");
    expect(unresolvedRefs(api, api.components.schemas, "#/components/schemas/")).toEqual([]);
  });

  it("openapiDocument serves each path and nothing else", () => {
    expect(openapiDocument("v3", "")).toBe(openapiV3Index());
    expect(openapiDocument("v3", "api/v1")).toBe(v3);
    expect(openapiDocument("v3", "/api/v1/")).toBe(v3);
    expect(openapiDocument("v3", "api")).toBe(openapiV3Api());
    expect(openapiDocument("v2", "")).toBe(v2);
    expect(openapiDocument("v3", `apis/${RBAC}/v1`)).toBe(rbac);
    expect(openapiDocument("v3", "apis/apps/v1")).toBeUndefined();
    expect(openapiDocument("v3", `apis/${RBAC}/v2`)).toBeUndefined();
    expect(openapiDocument("v2", "x")).toBeUndefined();
  });
});

describe(`OpenAPI v3 for API groups (/openapi/v3/apis/${RBAC}/v1)`, () => {
  const rbacKinds = kinds.filter((k) => k.group === RBAC);

  it("holds exactly the group's kinds, none of the core ones, with every reference resolved", () => {
    expect(rbacKinds.map((k) => k.kind).sort()).toEqual(["ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding"]);
    expect(Object.keys(rbac.paths).every((p) => p.startsWith(`/apis/${RBAC}/v1/`))).toBe(true);
    expect(Object.keys(rbacSchemas).some((n) => n.startsWith("io.k8s.api.core.v1."))).toBe(false);
    expect(Object.keys(v3.paths).some((p) => p.includes(RBAC))).toBe(false);
    expect(schemas["io.k8s.api.rbac.v1.Role"]).toBeUndefined();
    expect(unresolvedRefs(rbac, rbacSchemas, "#/components/schemas/")).toEqual([]);
  });

  it("uses kube's paths, operationIds, tags and group-version-kind", () => {
    const base = `/apis/${RBAC}/v1`;
    expect(rbac.paths[`${base}/`].get.operationId).toBe("getRbacAuthorizationV1APIResources");
    const ids = (path: string) => Object.fromEntries(Object.entries(rbac.paths[path] as Json).filter(([m]) => m !== "parameters").map(([m, o]) => [m, (o as Json).operationId]));
    expect(ids(`${base}/namespaces/{namespace}/roles`)).toEqual({
      get: "listRbacAuthorizationV1NamespacedRole", post: "createRbacAuthorizationV1NamespacedRole", delete: "deleteRbacAuthorizationV1CollectionNamespacedRole",
    });
    expect(ids(`${base}/namespaces/{namespace}/rolebindings/{name}`)).toEqual({
      get: "readRbacAuthorizationV1NamespacedRoleBinding", put: "replaceRbacAuthorizationV1NamespacedRoleBinding",
      delete: "deleteRbacAuthorizationV1NamespacedRoleBinding", patch: "patchRbacAuthorizationV1NamespacedRoleBinding",
    });
    expect(ids(`${base}/clusterroles`)).toEqual({
      get: "listRbacAuthorizationV1ClusterRole", post: "createRbacAuthorizationV1ClusterRole", delete: "deleteRbacAuthorizationV1CollectionClusterRole",
    });
    expect(ids(`${base}/roles`).get).toBe("listRbacAuthorizationV1RoleForAllNamespaces");
    expect(ids(`${base}/watch/namespaces/{namespace}/roles`).get).toBe("watchRbacAuthorizationV1NamespacedRoleList");
    expect(ids(`${base}/watch/clusterrolebindings/{name}`).get).toBe("watchRbacAuthorizationV1ClusterRoleBinding");
    expect(Object.keys(rbac.paths).some((p) => p.endsWith("/status"))).toBe(false);
    for (const kind of rbacKinds) {
      const ops = patchOperations(rbac).filter(({ op }) => op["x-kubernetes-group-version-kind"].kind === kind.kind);
      expect(ops.length, kind.kind).toBe(1);
      expect(ops[0].op["x-kubernetes-group-version-kind"]).toEqual({ group: RBAC, kind: kind.kind, version: "v1" });
      expect(ops[0].op.tags).toEqual(["rbacAuthorization_v1"]);
      expect((ops[0].op.parameters as Json[]).map((p) => p.name)).toContain("fieldValidation");
      expect(Object.keys(ops[0].op.requestBody.content)).toContain("application/strategic-merge-patch+json");
    }
  });

  it("names components io.k8s.api.rbac.v1.* with the group in their GVK, for kubectl explain", () => {
    for (const kind of rbacKinds) {
      expect(rbacSchemas[`io.k8s.api.rbac.v1.${kind.kind}`]["x-kubernetes-group-version-kind"]).toEqual([{ group: RBAC, kind: kind.kind, version: "v1" }]);
      expect(rbacSchemas[`io.k8s.api.rbac.v1.${kind.kind}List`]["x-kubernetes-group-version-kind"]).toEqual([{ group: RBAC, kind: `${kind.kind}List`, version: "v1" }]);
    }
    expect(rbacSchemas["io.k8s.api.rbac.v1.Role"].properties.rules).toMatchObject({
      type: "array", items: { $ref: "#/components/schemas/io.k8s.api.rbac.v1.PolicyRule" }, "x-kubernetes-list-type": "atomic",
    });
    expect(rbacSchemas["io.k8s.api.rbac.v1.Role"].properties.rules["x-kubernetes-patch-merge-key"]).toBeUndefined();
    expect(rbacSchemas["io.k8s.api.rbac.v1.PolicyRule"]).toMatchObject({ required: ["verbs"], properties: { verbs: { type: "array", items: { type: "string" } } } });
    expect(rbacSchemas["io.k8s.api.rbac.v1.RoleRef"].required).toEqual(["apiGroup", "kind", "name"]);
    expect(rbacSchemas["io.k8s.api.rbac.v1.ClusterRole"].properties.aggregationRule.allOf).toEqual([{ $ref: "#/components/schemas/io.k8s.api.rbac.v1.AggregationRule" }]);
    expect(rbacSchemas["io.k8s.api.rbac.v1.AggregationRule"].properties.clusterRoleSelectors.items).toEqual({ $ref: "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector" });
    expect(rbacSchemas["io.k8s.api.rbac.v1.RoleBinding"].required).toEqual(["roleRef"]);
  });
});

describe("OpenAPI v2 (/openapi/v2, JSON)", () => {
  it("has the same definitions under kube's names and PATCH operations with fieldValidation", () => {
    expect(v2.swagger).toBe("2.0");
    expect(v2.definitions["io.k8s.api.core.v1.Pod"]["x-kubernetes-group-version-kind"]).toEqual([{ group: "", kind: "Pod", version: "v1" }]);
    expect(unresolvedRefs(v2, v2.definitions, "#/definitions/")).toEqual([]);
    const patch = v2.paths["/api/v1/namespaces/{namespace}/configmaps/{name}"].patch;
    expect(patch.consumes).toContain("application/strategic-merge-patch+json");
    expect(patch.parameters.map((p: Json) => p.name)).toEqual(expect.arrayContaining(["body", "fieldValidation", "dryRun", "fieldManager"]));
    expect(v2.definitions["io.k8s.api.rbac.v1.ClusterRoleBinding"]["x-kubernetes-group-version-kind"]).toEqual([{ group: RBAC, kind: "ClusterRoleBinding", version: "v1" }]);
    expect(v2.paths[`/apis/${RBAC}/v1/namespaces/{namespace}/roles/{name}`].patch.operationId).toBe("patchRbacAuthorizationV1NamespacedRole");
    expect(v2.paths[`/apis/${RBAC}/v1/`].get.operationId).toBe("getRbacAuthorizationV1APIResources");
    expect(v2.paths["/api/v1/"].get.operationId).toBe("getCoreV1APIResources");
    expect(v2.definitions["io.k8s.api.core.v1.Pod"].properties.metadata).toEqual({
      $ref: "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta", description: expect.any(String),
    });
  });
});

describe("create-only types (reviews, serviceaccounts/token)", () => {
  it("v2 has every review's POST operation and definition, and the token subresource", () => {
    for (const r of reviewResources) {
      const path = r.namespaced ? `/apis/${r.group}/v1/namespaces/{namespace}/${r.plural}` : `/apis/${r.group}/v1/${r.plural}`;
      const item = v2.paths[path] as Json;
      expect(Object.keys(item).sort(), path).toEqual(["parameters", "post"]);
      expect(item.post["x-kubernetes-group-version-kind"]).toEqual({ group: r.group, kind: r.kind, version: "v1" });
      expect(item.post["x-kubernetes-action"]).toBe("post");
      expect(item.post.parameters.map((p: Json) => p.name)).toEqual(["body", "dryRun", "fieldManager", "fieldValidation"]);
      expect(item.post.parameters[0].schema).toEqual({ $ref: `#/definitions/${r.schema.name}` });
      expect(v2.definitions[r.schema.name!]["x-kubernetes-group-version-kind"]).toEqual([{ group: r.group, kind: r.kind, version: "v1" }]);
    }
    expect(v2.paths["/apis/authorization.k8s.io/v1/namespaces/{namespace}/localsubjectaccessreviews"].post.operationId).toBe("createAuthorizationV1NamespacedLocalSubjectAccessReview");
    expect(v2.paths["/apis/authentication.k8s.io/v1/tokenreviews"].post.operationId).toBe("createAuthenticationV1TokenReview");
    expect(v2.paths["/apis/authentication.k8s.io/v1/"].get.operationId).toBe("getAuthenticationV1APIResources");
    expect(v2.definitions["io.k8s.api.authorization.v1.SubjectAccessReviewStatus"].required).toEqual(["allowed"]);
    expect(v2.definitions["io.k8s.api.authentication.v1.UserInfo"].properties.extra).toMatchObject({ type: "object", additionalProperties: { type: "array", items: { type: "string" } } });
    expect(unresolvedRefs(v2, v2.definitions, "#/definitions/")).toEqual([]);
  });

  it("v3 core/v1 has serviceaccounts/{name}/token with the TokenRequest GVK, tagged core_v1", () => {
    const token = v3.paths["/api/v1/namespaces/{namespace}/serviceaccounts/{name}/token"] as Json;
    expect(token.post).toMatchObject({
      operationId: "createCoreV1NamespacedServiceAccountToken", tags: ["core_v1"], "x-kubernetes-action": "post",
      "x-kubernetes-group-version-kind": { group: "authentication.k8s.io", kind: "TokenRequest", version: "v1" },
    });
    expect(token.parameters.map((p: Json) => `${p.in}:${p.name}`)).toEqual(["path:namespace", "path:name", "query:pretty"]);
    expect(schemas["io.k8s.api.authentication.v1.TokenRequest"].required).toEqual(["spec"]);
    expect(unresolvedRefs(v3, schemas, "#/components/schemas/")).toEqual([]);
  });

  it("v3 has no document for a group of reviews only (kubectl then validates them against v2)", () => {
    const index = openapiV3Index() as Json;
    for (const g of ["authentication.k8s.io", "authorization.k8s.io"]) {
      expect(index.paths[`apis/${g}/v1`]).toBeUndefined();
      expect(openapiDocument("v3", `apis/${g}/v1`)).toBeUndefined();
    }
  });
});

describe("jsonSchemaFor", () => {
  it("gives a self-contained draft-07 schema per kind that flags unknown fields", () => {
    for (const kind of kinds) {
      const s = jsonSchemaFor(kind) as Json;
      expect(s.$schema).toBe("http://json-schema.org/draft-07/schema#");
      expect(s.properties.kind.enum).toEqual([kind.kind]);
      expect(s.properties.apiVersion.enum).toEqual([kind.group ? `${kind.group}/v1` : "v1"]);
      expect(s.additionalProperties).toBe(false);
      expect(unresolvedRefs(s, s.definitions, "#/definitions/")).toEqual([]);
      expect(extensionKeys(s), kind.kind).toEqual([]);
    }
    expect(jsonSchemaFor("pods")).toBe(jsonSchemaFor("Pod"));
    expect(jsonSchemaFor("Nope")).toBeUndefined();
  });

  it("accepts what clients send for quantities, ports and null timestamps", () => {
    const s = jsonSchemaFor("Pod") as Json;
    const defs = s.definitions as Record<string, Json>;
    expect(defs["io.k8s.api.core.v1.ResourceRequirements"].properties.limits.additionalProperties).toEqual({ anyOf: [{ type: "string" }, { type: "number" }] });
    expect(defs["io.k8s.api.core.v1.HTTPGetAction"].properties.port.anyOf).toEqual([{ type: "integer" }, { type: "string" }]);
    expect(defs["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"].properties.creationTimestamp.type).toEqual(["string", "null"]);
  });
});
