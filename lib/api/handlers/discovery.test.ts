import { describe, expect, it } from "vitest";
import { kinds, kindsServedBy, setAddedKinds } from "../../kinds";
import { customKinds } from "../../kinds/custom-kind";
import { kubeVersionOrder } from "../../kinds/version-order";
import { ACTION_SUBRESOURCES, reviewResources } from "../../kinds/reviews";
import { apiGroup, apiGroupList, apiResourceList } from "./discovery";
import {
  aggregatedDiscovery, aggregatedGroups, discoveryETag, discoveryResponse, negotiateDiscovery, type GroupDiscovery,
  type ResourceDiscovery,
} from "./aggregated-discovery";

type Resource = { name: string; singularName: string; namespaced: boolean; kind: string; verbs: string[]; [k: string]: unknown };
const resources = (gv: string) => (apiResourceList(gv) as { resources: Resource[] }).resources;
const byName = (gv: string) => new Map(resources(gv).map((r) => [r.name, r]));
const RBAC = "rbac.authorization.k8s.io";

describe("/apis and /apis/<group>", () => {
  it("lists the served groups in kube's order, each with v1 preferred", () => {
    expect(apiGroupList().kind).toBe("APIGroupList");
    expect(apiGroupList().groups.map((g) => g.name)).toEqual(["authentication.k8s.io", "authorization.k8s.io", RBAC, "apiextensions.k8s.io", "coordination.k8s.io", "security.openshift.io"]);
    expect(apiGroupList().groups[2]).toEqual({
      name: RBAC,
      versions: [{ groupVersion: `${RBAC}/v1`, version: "v1" }],
      preferredVersion: { groupVersion: `${RBAC}/v1`, version: "v1" },
    });
  });

  it("answers one APIGroup per served group and nothing for others", () => {
    expect(apiGroup("authorization.k8s.io")).toEqual({
      kind: "APIGroup", apiVersion: "v1", name: "authorization.k8s.io",
      versions: [{ groupVersion: "authorization.k8s.io/v1", version: "v1" }],
      preferredVersion: { groupVersion: "authorization.k8s.io/v1", version: "v1" },
    });
    expect(apiGroup("apps")).toBeUndefined();
  });
});

describe("APIResourceList", () => {
  it("lists the RBAC kinds in name order with every verb and kube's storage version hash", () => {
    const list = apiResourceList(`${RBAC}/v1`) as { kind: string; apiVersion: string; groupVersion: string };
    expect(list).toMatchObject({ kind: "APIResourceList", apiVersion: "v1", groupVersion: `${RBAC}/v1` });
    expect(resources(`${RBAC}/v1`).map((r) => `${r.name}:${r.namespaced}:${r.kind}`)).toEqual([
      "clusterrolebindings:false:ClusterRoleBinding", "clusterroles:false:ClusterRole", "rolebindings:true:RoleBinding", "roles:true:Role",
    ]);
    // sha256("rbac.authorization.k8s.io/v1/Role")[:8], as a 1.32 cluster publishes it.
    expect(byName(`${RBAC}/v1`).get("roles")).toEqual({
      name: "roles", singularName: "role", namespaced: true, kind: "Role",
      verbs: ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"], storageVersionHash: "7FuwZcIIItM=",
    });
  });

  it("lists the review resources as create-only, without a storage hash", () => {
    expect(resources("authentication.k8s.io/v1")).toEqual([
      { name: "selfsubjectreviews", singularName: "selfsubjectreview", namespaced: false, kind: "SelfSubjectReview", verbs: ["create"] },
      { name: "tokenreviews", singularName: "tokenreview", namespaced: false, kind: "TokenReview", verbs: ["create"] },
    ]);
    expect(resources("authorization.k8s.io/v1").map((r) => `${r.name}:${r.namespaced}`)).toEqual([
      "localsubjectaccessreviews:true", "selfsubjectaccessreviews:false", "selfsubjectrulesreviews:false", "subjectaccessreviews:false",
    ]);
  });

  it("keeps /api/v1's core kinds with their status, update and action subresources", () => {
    const core = apiResourceList("v1") as { kind: string; groupVersion: string; apiVersion?: string };
    expect(core.groupVersion).toBe("v1");
    expect(core.apiVersion).toBeUndefined();
    const r = byName("v1");
    expect(r.get("pods")).toMatchObject({ shortNames: ["po"], categories: ["all"], storageVersionHash: "xPOwRZ+Yhw8=" });
    expect(r.get("pods/status")).toEqual({ name: "pods/status", singularName: "", namespaced: true, kind: "Pod", verbs: ["get", "patch", "update"] });
    expect(r.get("serviceaccounts/token")).toEqual({
      name: "serviceaccounts/token", singularName: "", namespaced: true, group: "authentication.k8s.io", version: "v1", kind: "TokenRequest", verbs: ["create"],
    });
    expect(r.get("namespaces/finalize")).toMatchObject({ namespaced: false, kind: "Namespace", verbs: ["update"] });
    const names = resources("v1").map((x) => x.name);
    expect(names.indexOf("namespaces/finalize")).toBe(names.indexOf("namespaces/status") - 1);
    expect(names.some((n) => n.startsWith("role"))).toBe(false);
  });

  it("answers nothing for a group version not served", () => {
    expect(apiResourceList("apps/v1")).toBeUndefined();
    expect(apiResourceList(`${RBAC}/v1beta1`)).toBeUndefined();
  });
});

// --- aggregated discovery -------------------------------------------------------------------------------------------


const KUBECTL_ACCEPT = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json";
const V2 = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
const ALL_VERBS = ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"];

/** Every resource of /api and /apis by `<group>/<resource>` ("" group for core). */
function aggregatedResources(): Map<string, ResourceDiscovery> {
  const out = new Map<string, ResourceDiscovery>();
  for (const g of [...aggregatedGroups("api"), ...aggregatedGroups("apis")]) {
    expect(g.versions.map((v) => [v.version, v.freshness])).toEqual([["v1", "Current"]]);
    for (const r of g.versions[0].resources) out.set(`${g.metadata.name ?? ""}/${r.resource}`, r);
  }
  return out;
}

describe("aggregated discovery documents", () => {
  const all = aggregatedResources();

  it("list every kind of every group with its scope, names, verbs and subresources", () => {
    const groupsOfKinds = [...new Set(["", ...kinds.flatMap((k) => [k.group ?? "", ...(k.alsoServedBy ?? []).map((n) => n.group)])])];
    let count = 0;
    for (const group of groupsOfKinds) {
      for (const k of kindsServedBy(group)) {
        count++;
        const r = all.get(`${group}/${k.plural}`);
        expect(r, `${group}/${k.plural}`).toBeDefined();
        expect(r).toMatchObject({
          responseKind: { group: "", version: "", kind: k.kind },
          scope: k.namespaced ? "Namespaced" : "Cluster",
          singularResource: k.singular,
          verbs: k.deleteCollection === false ? ALL_VERBS.filter((v) => v !== "deletecollection") : ALL_VERBS,
        });
        expect(r!.shortNames ?? []).toEqual(k.shortNames);
        expect(r!.categories ?? []).toEqual(k.categories);
        const expected = [
          ...(k.hasStatus ? [{ subresource: "status", responseKind: { group: "", version: "", kind: k.kind }, verbs: ["get", "patch", "update"] }] : []),
          ...Object.keys(k.updateSubresources ?? {}).map((s) => ({ subresource: s, responseKind: { group: "", version: "", kind: k.kind }, verbs: ["update"] })),
          ...(k.actionSubresources ?? []).map((s) => {
            const a = ACTION_SUBRESOURCES[s];
            return { subresource: s, responseKind: { group: a.group, version: a.version, kind: a.kind }, verbs: a.verbs };
          }),
        ].sort((a, b) => a.subresource.localeCompare(b.subresource));
        expect(r!.subresources ?? [], `${k.plural} subresources`).toEqual(expected);
      }
    }
    expect(count).toBeGreaterThanOrEqual(kinds.length);
    for (const review of reviewResources) {
      expect(all.get(`${review.group}/${review.plural}`)).toEqual({
        resource: review.plural, responseKind: { group: "", version: "", kind: review.kind },
        scope: review.namespaced ? "Namespaced" : "Cluster", singularResource: review.singular, verbs: ["create"],
      });
    }
    expect(all.size).toBe(count + reviewResources.length);
  });

  it("names the subresources kube serves: pods/status, namespaces/finalize and serviceaccounts/token", () => {
    expect(all.get("/pods")!.subresources).toEqual([{ subresource: "status", responseKind: { group: "", version: "", kind: "Pod" }, verbs: ["get", "patch", "update"] }]);
    expect(all.get("/namespaces")!.subresources!.map((s) => `${s.subresource}:${s.verbs}`)).toEqual(["finalize:update", "status:get,patch,update"]);
    expect(all.get("/serviceaccounts")!.subresources).toEqual([
      { subresource: "token", responseKind: { group: "authentication.k8s.io", version: "v1", kind: "TokenRequest" }, verbs: ["create"] },
    ]);
  });

  it("say the same as the legacy APIResourceLists, resource by resource", () => {
    const legacy = (gv: string) => (apiResourceList(gv) as { resources: Resource[] }).resources;
    const gvs = ["v1", ...(apiGroupList().groups.map((g) => g.preferredVersion.groupVersion))];
    for (const gv of gvs) {
      const group = gv === "v1" ? "" : gv.slice(0, -"/v1".length);
      const flattened = [...all.entries()].filter(([key]) => key.startsWith(`${group}/`)).flatMap(([, r]) => [
        { name: r.resource, namespaced: r.scope === "Namespaced", kind: r.responseKind.kind, verbs: r.verbs, singularName: r.singularResource },
        ...(r.subresources ?? []).map((s) => ({ name: `${r.resource}/${s.subresource}`, namespaced: r.scope === "Namespaced", kind: s.responseKind.kind, verbs: s.verbs, singularName: "" })),
      ]);
      const expected = legacy(gv).map((r) => ({ name: r.name, namespaced: r.namespaced, kind: r.kind, verbs: r.verbs, singularName: r.singularName }));
      const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
      expect(flattened.sort(byName), gv).toEqual(expected.sort(byName));
    }
  });

  it("keeps /apis in the legacy group order, resources in name order and the core group nameless", () => {
    expect(aggregatedGroups("apis").map((g) => g.metadata.name)).toEqual(apiGroupList().groups.map((g) => g.name));
    const core = aggregatedGroups("api");
    expect(core.map((g) => g.metadata)).toEqual([{ creationTimestamp: null }]);
    const names = core[0].versions[0].resources.map((r) => r.resource);
    expect(names).toEqual([...names].sort());
  });

  it("serves v2 and v2beta1 of the same list", () => {
    expect(aggregatedDiscovery("apis", "v2")).toMatchObject({ kind: "APIGroupDiscoveryList", apiVersion: "apidiscovery.k8s.io/v2", metadata: {} });
    expect(aggregatedDiscovery("apis", "v2beta1").apiVersion).toBe("apidiscovery.k8s.io/v2beta1");
    expect(aggregatedDiscovery("apis", "v2beta1").items).toEqual(aggregatedDiscovery("apis", "v2").items);
  });
});

describe("discovery ETag", () => {
  it("is stable across calls and equal for equal content", () => {
    const a = discoveryETag(aggregatedGroups("apis"));
    expect(a).toMatch(/^[0-9A-F]{128}$/);
    expect(discoveryETag(aggregatedGroups("apis"))).toBe(a);
    expect(discoveryETag(structuredClone(aggregatedGroups("apis")))).toBe(a);
    const first = discoveryResponse("apis", { accept: V2, pretty: false, serverAddress: "x" }).headers.etag;
    expect(discoveryResponse("apis", { accept: V2, pretty: false, serverAddress: "x" }).headers.etag).toBe(first);
    expect(first).toBe(`"${a}"`);
  });

  it("changes when the content does", () => {
    const base = aggregatedGroups("apis");
    const tag = discoveryETag(base);
    const changed: GroupDiscovery[] = structuredClone(base);
    changed[0].versions[0].resources[0].verbs = ["get"];
    expect(discoveryETag(changed)).not.toBe(tag);
    const fewer = structuredClone(base).slice(1);
    expect(discoveryETag(fewer)).not.toBe(tag);
    expect(discoveryETag(aggregatedGroups("api"))).not.toBe(tag);
  });
});

describe("negotiation at /api and /apis", () => {
  it("answers the aggregated form to any clause asking for it, wherever it sits", () => {
    expect(negotiateDiscovery(KUBECTL_ACCEPT)).toEqual({ aggregated: "v2", format: "json" });
    expect(negotiateDiscovery(`application/json, ${V2}`)).toEqual({ aggregated: "v2", format: "json" });
    expect(negotiateDiscovery("application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json")).toEqual({ aggregated: "v2beta1", format: "json" });
    expect(negotiateDiscovery("application/yaml;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList")).toEqual({ aggregated: "v2", format: "yaml" });
    expect(negotiateDiscovery("*/*;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList")).toEqual({ aggregated: "v2", format: "json" });
    // q-values order the clauses.
    expect(negotiateDiscovery(`application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList;q=0.5, ${V2}`)).toEqual({ aggregated: "v2", format: "json" });
  });

  it("falls back to the legacy form otherwise", () => {
    expect(negotiateDiscovery(undefined)).toEqual({ legacy: "json" });
    expect(negotiateDiscovery("")).toEqual({ legacy: "json" });
    expect(negotiateDiscovery("application/json")).toEqual({ legacy: "json" });
    expect(negotiateDiscovery("application/json, */*")).toEqual({ legacy: "json" });
    expect(negotiateDiscovery("application/yaml")).toEqual({ legacy: "yaml" });
    // Unknown versions, kinds and protobuf (not offered for discovery) are skipped.
    expect(negotiateDiscovery("application/json;g=apidiscovery.k8s.io;v=v3;as=APIGroupDiscoveryList,application/json")).toEqual({ legacy: "json" });
    expect(negotiateDiscovery("application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json")).toEqual({ legacy: "json" });
    expect(negotiateDiscovery(`${V2};q=0, application/json`)).toEqual({ legacy: "json" });
  });

  it("answers 406 when nothing offered fits", () => {
    for (const accept of ["application/vnd.kubernetes.protobuf", "text/html", "application/json;as=Table;v=v1;g=meta.k8s.io"]) {
      expect(() => negotiateDiscovery(accept), accept).toThrow(expect.objectContaining({ code: 406, reason: "NotAcceptable" }));
    }
  });
});

describe("discoveryResponse", () => {
  const req = (accept: string | undefined, ifNoneMatch?: string) => ({ accept, ifNoneMatch, pretty: false, serverAddress: "10.0.0.1:6443" });

  it("answers the aggregated list with kube's headers", () => {
    const res = discoveryResponse("apis", req(KUBECTL_ACCEPT));
    expect(res.status).toBe(200);
    expect(res.headers).toMatchObject({ "content-type": V2, vary: "Accept", "cache-control": "public" });
    expect(res.headers.etag).toMatch(/^"[0-9A-F]{128}"$/);
    expect(JSON.parse(res.body as string)).toEqual(aggregatedDiscovery("apis", "v2"));
    const beta = discoveryResponse("apis", req("application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList"));
    expect(beta.headers["content-type"]).toBe("application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList");
    expect(beta.headers.etag).toBe(res.headers.etag);
    expect(JSON.parse(beta.body as string).apiVersion).toBe("apidiscovery.k8s.io/v2beta1");
    const core = discoveryResponse("api", req(V2));
    expect(JSON.parse(core.body as string).items).toEqual(aggregatedGroups("api"));
    expect(core.headers.etag).not.toBe(res.headers.etag);
  });

  it("answers 304 without a body to exactly the current tag", () => {
    const etag = discoveryResponse("apis", req(V2)).headers.etag as string;
    const res = discoveryResponse("apis", req(V2, etag));
    expect(res.status).toBe(304);
    expect(res.body).toBeUndefined();
    expect(res.headers).toEqual({ etag, vary: "Accept", "cache-control": "public" });
    expect(discoveryResponse("apis", req(V2, `"${"0".repeat(128)}"`)).status).toBe(200);
    expect(discoveryResponse("apis", req(V2, etag.slice(1, -1))).status).toBe(200);
  });

  it("falls back to APIVersions and APIGroupList, without an ETag", () => {
    const api = discoveryResponse("api", req("application/json, */*", "whatever"));
    expect(api.status).toBe(200);
    expect(api.headers).toEqual({ "content-type": "application/json", "cache-control": "no-cache, private" });
    expect(JSON.parse(api.body as string)).toEqual({ kind: "APIVersions", versions: ["v1"], serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress: "10.0.0.1:6443" }] });
    const apis = discoveryResponse("apis", req(undefined));
    expect(JSON.parse(apis.body as string)).toEqual(apiGroupList());
    const yaml = discoveryResponse("apis", req("application/yaml"));
    expect(yaml.headers["content-type"]).toBe("application/yaml");
    expect(yaml.body).toMatch(/^kind: APIGroupList\n/);
  });
});

describe("kinds added at run time (an Established CRD's)", () => {
  const crd = {
    apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", metadata: { name: "gadgets.toys.example.com" },
    spec: {
      group: "toys.example.com", scope: "Cluster", names: { plural: "gadgets", singular: "gadget", kind: "Gadget", shortNames: ["gd"] },
      versions: [
        { name: "v1alpha1", served: true, storage: false, schema: { openAPIV3Schema: { type: "object" } } },
        { name: "v2beta1", served: true, storage: false, schema: { openAPIV3Schema: { type: "object" } } },
        { name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object" } }, subresources: { status: {} } },
      ],
    },
  };

  it("appear in every discovery document at once, preferred version the highest, and go when removed", () => {
    const etag = discoveryETag(aggregatedGroups("apis"));
    expect(apiGroup("toys.example.com")).toBeUndefined();
    setAddedKinds("gadgets.toys.example.com", customKinds(crd));
    try {
      const group = apiGroup("toys.example.com")!;
      expect(group.versions.map((v) => v.version)).toEqual(["v1", "v2beta1", "v1alpha1"]);
      expect(group.preferredVersion).toEqual({ groupVersion: "toys.example.com/v1", version: "v1" });
      expect(apiGroupList().groups.map((g) => g.name)).toContain("toys.example.com");
      const v1 = resources("toys.example.com/v1");
      expect(v1.map((r) => r.name)).toEqual(["gadgets", "gadgets/status"]);
      expect(v1[0]).toMatchObject({ namespaced: false, kind: "Gadget", shortNames: ["gd"], verbs: ["delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"] });
      // Every version names the storage version in its hash: the same stored objects.
      expect(resources("toys.example.com/v1alpha1")[0].storageVersionHash).toBe(v1[0].storageVersionHash);
      expect(resources("toys.example.com/v1alpha1").map((r) => r.name)).toEqual(["gadgets"]);
      const aggregated = aggregatedGroups("apis").find((g) => g.metadata.name === "toys.example.com")!;
      expect(aggregated.versions.map((v) => v.version)).toEqual(["v1", "v2beta1", "v1alpha1"]);
      expect(discoveryETag(aggregatedGroups("apis"))).not.toBe(etag);
    } finally {
      setAddedKinds("gadgets.toys.example.com", []);
    }
    expect(apiGroup("toys.example.com")).toBeUndefined();
    expect(apiResourceList("toys.example.com/v1")).toBeUndefined();
    expect(discoveryETag(aggregatedGroups("apis"))).toBe(etag);
  });

  it("ranks versions as kube does: GA, then beta, then alpha, higher numbers first, other names last", () => {
    expect(["v1alpha1", "v2", "foo", "v1", "v11beta2", "v3beta1", "v12alpha1"].sort(kubeVersionOrder))
      .toEqual(["v2", "v1", "v11beta2", "v3beta1", "v12alpha1", "v1alpha1", "foo"]);
  });
});
