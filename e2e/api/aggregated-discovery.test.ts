// Aggregated discovery and OpenAPI v2 in protobuf against the real server, with kubectl 1.32 as the client:
// `/api` and `/apis` answer apidiscovery.k8s.io/v2 (and v2beta1) APIGroupDiscoveryList saying what the legacy
// documents say, with an ETag and 304; the legacy forms stay the fallback; kubectl then discovers the whole API
// with two requests (counted in its -v=6 log and in the server's audit log); `/openapi/v2` answers gnostic
// protobuf, which kubectl decodes to validate manifests of kinds the v3 documents lack (the reviews), and
// `kubectl apply -f` with validation on works for every stored kind. One server for the whole file.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import YAML from "yaml";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createNamespaces, startServer, stopAll, type Server } from "./harness";
import { KINDS, loadFixture } from "./kinds";

const NS = "e2e-discovery";
const KUBECTL_ACCEPT = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json";
const V2 = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
const V2BETA1 = "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList";
const OPENAPI_PROTOBUF = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf";

let server: Server;
let tmp: string;
let auditPath: string;

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "cluster-core-discovery-"));
  auditPath = path.join(tmp, "audit.log");
  server = await startServer({ env: { AUDIT_LOG_PATH: auditPath } });
  await createNamespaces(server, NS);
}, 90_000);

afterAll(async () => {
  await stopAll();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
}, 60_000);

type Json = Record<string, any>;

/** The aggregated entries a legacy APIResourceList stands for (kube's ConvertGroupVersionIntoToDiscovery). */
function expectedResources(list: Json[]): Json[] {
  const parents = list.filter((r) => !r.name.includes("/")).map((r) => ({
    resource: r.name,
    responseKind: { group: r.group ?? "", version: r.version ?? "", kind: r.kind },
    scope: r.namespaced ? "Namespaced" : "Cluster",
    singularResource: r.singularName,
    verbs: r.verbs,
    ...(r.shortNames?.length ? { shortNames: r.shortNames } : {}),
    ...(r.categories?.length ? { categories: r.categories } : {}),
  })) as Json[];
  for (const r of list.filter((x) => x.name.includes("/"))) {
    const [parent, subresource] = r.name.split("/");
    const owner = parents.find((p) => p.resource === parent)!;
    (owner.subresources ??= []).push({ subresource, responseKind: { group: r.group ?? "", version: r.version ?? "", kind: r.kind }, verbs: r.verbs });
  }
  for (const p of parents) p.subresources?.sort((a: Json, b: Json) => a.subresource.localeCompare(b.subresource));
  return parents.sort((a, b) => a.resource.localeCompare(b.resource));
}

/** The discovery requests (GET /api, /apis and group versions) in a kubectl -v=6 log, as `<path> <code>`. */
function discoveryRequests(stderr: string): string[] {
  const out: string[] = [];
  for (const m of stderr.matchAll(/\] GET https:\/\/[^/\s]+(\/[^\s?]*)\S* (\d{3})/g)) {
    const p = m[1];
    if (p === "/api" || p === "/apis" || /^\/api\/v1$/.test(p) || /^\/apis\/[^/]+(\/[^/]+)?$/.test(p)) out.push(`${p} ${m[2]}`);
  }
  return out;
}

function auditEvents(): Json[] {
  return readFileSync(auditPath, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
}

describe("aggregated discovery at /api and /apis", () => {
  test("answers kubectl's Accept with the aggregated list, saying what the legacy documents say", async () => {
    const apis = await server.request("GET", "/apis", { headers: { Accept: KUBECTL_ACCEPT } });
    expect(apis.status).toBe(200);
    expect(apis.headers["content-type"]).toBe(V2);
    expect(apis.headers.vary).toBe("Accept");
    expect(apis.headers["cache-control"]).toBe("public");
    expect(apis.headers.etag).toMatch(/^"[0-9A-F]{128}"$/);
    expect(apis.body).toMatchObject({ kind: "APIGroupDiscoveryList", apiVersion: "apidiscovery.k8s.io/v2", metadata: {} });

    const legacyGroups = (await server.request("GET", "/apis")).body.groups as Json[];
    expect(apis.body.items.map((g: Json) => g.metadata.name)).toEqual(legacyGroups.map((g) => g.name));
    for (const g of legacyGroups) {
      const legacy = await server.request("GET", `/apis/${g.preferredVersion.groupVersion}`);
      const item = apis.body.items.find((i: Json) => i.metadata.name === g.name);
      expect(item, g.name).toEqual({
        metadata: { name: g.name, creationTimestamp: null },
        versions: [{ version: "v1", resources: expectedResources(legacy.body.resources), freshness: "Current" }],
      });
    }

    const api = await server.request("GET", "/api", { headers: { Accept: KUBECTL_ACCEPT } });
    expect(api.status).toBe(200);
    expect(api.headers["content-type"]).toBe(V2);
    const core = (await server.request("GET", "/api/v1")).body.resources as Json[];
    expect(api.body.items).toEqual([{ metadata: { creationTimestamp: null }, versions: [{ version: "v1", resources: expectedResources(core), freshness: "Current" }] }]);
    const pods = api.body.items[0].versions[0].resources.find((r: Json) => r.resource === "pods");
    expect(pods).toEqual({
      resource: "pods", responseKind: { group: "", version: "", kind: "Pod" }, scope: "Namespaced", singularResource: "pod",
      verbs: ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"], shortNames: ["po"], categories: ["all"],
      subresources: [{ subresource: "status", responseKind: { group: "", version: "", kind: "Pod" }, verbs: ["get", "patch", "update"] }],
    });
  });

  test("keeps its ETag across calls and answers 304 to it; v2beta1 is the same list under the same tag", async () => {
    const first = await server.request("GET", "/apis", { headers: { Accept: V2 } });
    const second = await server.request("GET", "/apis", { headers: { Accept: V2 } });
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.text).toBe(first.text);

    const cached = await server.request("GET", "/apis", { headers: { Accept: V2, "If-None-Match": first.headers.etag as string } });
    expect(cached.status).toBe(304);
    expect(cached.text).toBe("");
    expect(cached.headers.etag).toBe(first.headers.etag);
    expect(cached.headers.vary).toBe("Accept");
    const stale = await server.request("GET", "/apis", { headers: { Accept: V2, "If-None-Match": `"${"A".repeat(128)}"` } });
    expect(stale.status).toBe(200);

    const beta = await server.request("GET", "/apis", { headers: { Accept: V2BETA1 } });
    expect(beta.status).toBe(200);
    expect(beta.headers["content-type"]).toBe(V2BETA1);
    expect(beta.headers.etag).toBe(first.headers.etag);
    expect(beta.body.apiVersion).toBe("apidiscovery.k8s.io/v2beta1");
    expect(beta.body.items).toEqual(first.body.items);

    const api = await server.request("GET", "/api", { headers: { Accept: V2 } });
    expect(api.headers.etag).not.toBe(first.headers.etag);
    expect((await server.request("GET", "/api", { headers: { Accept: V2, "If-None-Match": api.headers.etag as string } })).status).toBe(304);
  });

  test("falls back to the legacy documents when the client does not ask for the aggregated form", async () => {
    for (const accept of [undefined, "application/json", "application/json, */*", "*/*"]) {
      const res = await server.request("GET", "/apis", { headers: accept ? { Accept: accept } : { Accept: "" } });
      expect(res.status, String(accept)).toBe(200);
      expect(res.headers["content-type"]).toBe("application/json");
      expect(res.headers.etag).toBeUndefined();
      expect(res.body.kind).toBe("APIGroupList");
    }
    const api = await server.request("GET", "/api", { headers: { Accept: "application/json" } });
    expect(api.body).toMatchObject({ kind: "APIVersions", versions: ["v1"] });
    const yaml = await server.request("GET", "/apis", { headers: { Accept: "application/yaml" } });
    expect(yaml.headers["content-type"]).toBe("application/yaml");
    expect(YAML.parse(yaml.text).kind).toBe("APIGroupList");
    const refused = await server.request("GET", "/apis", { headers: { Accept: "text/html" } });
    expect(refused.status).toBe(406);
    expect(refused.body).toMatchObject({ kind: "Status", reason: "NotAcceptable", code: 406 });
  });
});

describe("kubectl 1.32 discovers the API in one request per group list", () => {
  test("kubectl api-resources on a fresh cache asks /api and /apis only, and lists what the legacy documents list", async () => {
    const cache = path.join(tmp, "cache-api-resources");
    const run = await server.kubectl([`--cache-dir=${cache}`, "api-resources", "-o", "wide", "--no-headers", "-v=6"]);
    expect(discoveryRequests(run.stderr)).toEqual(["/api 200", "/apis 200"]);

    const rows = run.stdout.trim().split("\n").map((l) => l.trim().split(/\s+/));
    const listed = new Set(rows.map((r) => `${r[0]}@${r.find((c) => c === "v1" || c.endsWith("/v1"))}`));
    const gvs = ["v1", ...((await server.request("GET", "/apis")).body.groups as Json[]).map((g) => g.preferredVersion.groupVersion)];
    const expected = new Set<string>();
    for (const gv of gvs) {
      const list = await server.request("GET", gv === "v1" ? "/api/v1" : `/apis/${gv}`);
      for (const r of list.body.resources as Json[]) if (!r.name.includes("/")) expected.add(`${r.name}@${gv}`);
    }
    expect([...listed].sort()).toEqual([...expected].sort());
    const pods = rows.find((r) => r[0] === "pods")!;
    expect(pods).toEqual(["pods", "po", "v1", "true", "Pod", "create,delete,deletecollection,get,list,patch,update,watch", "all"]);
  });

  test("kubectl get configmaps on a fresh cache: two discovery requests, then the list", async () => {
    const cache = path.join(tmp, "cache-get");
    const run = await server.kubectl([`--cache-dir=${cache}`, "get", "configmaps", "-n", NS, "-v=6"]);
    expect(discoveryRequests(run.stderr)).toEqual(["/api 200", "/apis 200"]);
    expect(run.stderr).toMatch(new RegExp(`GET https://[^ ]+/api/v1/namespaces/${NS}/configmaps\\?limit=500 200`));
    expect(run.stdout).toContain("kube-root-ca.crt");
  });

  test("kubectl revalidates its cached discovery with If-None-Match and the server answers 304 (audit log)", async () => {
    const cache = path.join(tmp, "cache-revalidate");
    await server.kubectl([`--cache-dir=${cache}`, "api-resources"]);
    const before = auditEvents().length;
    // api-resources invalidates the discovery cache; the HTTP cache underneath revalidates with the ETag.
    await server.kubectl([`--cache-dir=${cache}`, "api-resources"]);
    const discovery = auditEvents().slice(before).filter((e) => /^\/apis?(\?|$)/.test(e.requestURI));
    expect(discovery.map((e) => `${e.requestURI.split("?")[0]} ${e.responseStatus.code}`).sort()).toEqual(["/api 304", "/apis 304"]);
    expect(auditEvents().slice(before).filter((e) => /^\/apis?\/[^?]/.test(e.requestURI))).toEqual([]);
  });
});

// --- OpenAPI v2 in protobuf -------------------------------------------------------------------------------------------

/** Fields of a protobuf message: number → list of length-delimited contents (other wire types skipped). */
function protoFields(buf: Uint8Array): Map<number, Uint8Array[]> {
  const out = new Map<number, Uint8Array[]>();
  let pos = 0;
  const varint = () => {
    let v = 0;
    let mul = 1;
    for (;;) {
      const b = buf[pos++];
      v += (b & 0x7f) * mul;
      if (b < 0x80) return v;
      mul *= 128;
    }
  };
  while (pos < buf.length) {
    const key = varint();
    const wire = key % 8;
    if (wire === 0) varint();
    else if (wire === 1) pos += 8;
    else if (wire === 5) pos += 4;
    else if (wire === 2) {
      const len = varint();
      const no = Math.floor(key / 8);
      out.set(no, [...(out.get(no) ?? []), buf.subarray(pos, pos + len)]);
      pos += len;
    } else throw new Error(`wire type ${wire}`);
  }
  return out;
}

const utf8 = (b: Uint8Array | undefined) => (b ? Buffer.from(b).toString("utf8") : undefined);
const field = (buf: Uint8Array, ...path: number[]): Uint8Array | undefined =>
  path.reduce<Uint8Array | undefined>((b, no) => (b ? protoFields(b).get(no)?.[0] : undefined), buf);

/** Named entries (NamedSchema, NamedPathItem, NamedAny) of a repeated field: name → value bytes. */
function namedEntries(buf: Uint8Array, no: number): Map<string, Uint8Array> {
  return new Map((protoFields(buf).get(no) ?? []).map((e) => [utf8(field(e, 1))!, field(e, 2)!]));
}

/** The vendor extensions of a message (NamedAny in field `no`), YAML parsed. */
const extensions = (buf: Uint8Array, no: number) =>
  new Map([...namedEntries(buf, no)].map(([k, any]) => [k, YAML.parse(utf8(field(any, 2))!)]));

describe("OpenAPI v2 in protobuf", () => {
  test("answers gnostic's Document to kubectl's Accept, with the JSON form's ETag and 304", async () => {
    const json = await server.request("GET", "/openapi/v2");
    expect(json.status).toBe(200);
    expect(json.headers["content-type"]).toBe("application/json");
    expect(json.body.swagger).toBe("2.0");

    const res = await fetchBinary("/openapi/v2", { Accept: OPENAPI_PROTOBUF });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/com.github.proto-openapi.spec.v2.v1.0+protobuf");
    expect(res.headers.vary).toBe("Accept");
    expect(res.headers.etag).toBe(json.headers.etag);

    const doc = res.body;
    expect(utf8(field(doc, 1))).toBe("2.0");
    expect(utf8(field(doc, 2, 1))).toBe(json.body.info.title);
    // Definitions (9): NamedSchema per definition, each kind tagged with its GVK (Schema.vendor_extension = 31).
    const definitions = namedEntries(field(doc, 9)!, 1);
    expect([...definitions.keys()]).toEqual(Object.keys(json.body.definitions));
    expect(extensions(definitions.get("io.k8s.api.core.v1.Pod")!, 31).get("x-kubernetes-group-version-kind")).toEqual([{ group: "", kind: "Pod", version: "v1" }]);
    expect(extensions(definitions.get("io.k8s.api.authorization.v1.SelfSubjectAccessReview")!, 31).get("x-kubernetes-group-version-kind"))
      .toEqual([{ group: "authorization.k8s.io", kind: "SelfSubjectAccessReview", version: "v1" }]);
    // Paths (8): NamedPathItem (2); PathItem.patch = 8; Operation.vendor_extension = 13, parameters = 8.
    const paths = namedEntries(field(doc, 8)!, 2);
    expect([...paths.keys()]).toEqual(Object.keys(json.body.paths));
    const patch = field(paths.get("/api/v1/namespaces/{namespace}/configmaps/{name}")!, 8)!;
    expect(extensions(patch, 13).get("x-kubernetes-group-version-kind")).toEqual({ group: "", kind: "ConfigMap", version: "v1" });
    const queryNames = (protoFields(patch).get(8) ?? []).map((p) => utf8(field(p, 1, 2, 3, 4))).filter(Boolean);
    expect(queryNames).toContain("fieldValidation");

    const cached = await fetchBinary("/openapi/v2", { Accept: OPENAPI_PROTOBUF, "If-None-Match": res.headers.etag as string });
    expect(cached.status).toBe(304);
    expect(cached.body.length).toBe(0);
    expect((await fetchBinary("/openapi/v2", { Accept: "text/html" })).status).toBe(406);
  });

  test("kubectl apply -f with validation on works for a manifest of every stored kind", async () => {
    const manifests: { name: string; doc: Json; namespaced: boolean }[] = KINDS.map((k) => ({ name: k.kind, doc: loadFixture(k, NS), namespaced: k.namespaced }));
    manifests.push(
      { name: "Namespace", namespaced: false, doc: { apiVersion: "v1", kind: "Namespace", metadata: { name: "e2e-discovery-applied" } } },
      { name: "Role", namespaced: true, doc: { apiVersion: "rbac.authorization.k8s.io/v1", kind: "Role", metadata: { name: "reader" }, rules: [{ apiGroups: [""], resources: ["pods"], verbs: ["get", "list"] }] } },
      { name: "ClusterRole", namespaced: false, doc: { apiVersion: "rbac.authorization.k8s.io/v1", kind: "ClusterRole", metadata: { name: "e2e-discovery-reader" }, rules: [{ apiGroups: [""], resources: ["configmaps"], verbs: ["get"] }] } },
      { name: "RoleBinding", namespaced: true, doc: { apiVersion: "rbac.authorization.k8s.io/v1", kind: "RoleBinding", metadata: { name: "reader" }, subjects: [{ kind: "User", apiGroup: "rbac.authorization.k8s.io", name: "alice" }], roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "reader" } } },
      { name: "ClusterRoleBinding", namespaced: false, doc: { apiVersion: "rbac.authorization.k8s.io/v1", kind: "ClusterRoleBinding", metadata: { name: "e2e-discovery-reader" }, subjects: [{ kind: "Group", apiGroup: "rbac.authorization.k8s.io", name: "auditors" }], roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "e2e-discovery-reader" } } },
      { name: "Lease", namespaced: true, doc: { apiVersion: "coordination.k8s.io/v1", kind: "Lease", metadata: { name: "leader" }, spec: { holderIdentity: "node-a", leaseDurationSeconds: 15 } } },
      { name: "SecurityContextConstraints (security.openshift.io)", namespaced: false, doc: { ...loadFixture(KINDS.find((k) => k.kind === "SecurityContextConstraints")!), apiVersion: "security.openshift.io/v1", metadata: { name: "e2e-openshift-scc" } } },
    );
    for (const m of manifests) {
      const file = path.join(tmp, `apply-${m.name.replace(/\W+/g, "-")}.yaml`);
      writeFileSync(file, YAML.stringify(m.doc));
      const run = await server.kubectl(["apply", "-f", file, ...(m.namespaced ? ["-n", NS] : []), "-v=6"], { allowFail: true });
      expect(run.code, `${m.name}: ${run.stderr.split("\n").filter((l) => !l.startsWith("I")).join("\n")}`).toBe(0);
      expect(run.stdout, m.name).toMatch(/ (created|configured|unchanged)\n?$/);
      // Server-side validation (fieldValidation) comes from the v3 documents: no request of it fails.
      expect(run.stderr, m.name).not.toMatch(/openapi\S* [45]\d\d /);
    }
  });

  test("kubectl create -f validates review manifests against the v2 protobuf document", async () => {
    const reviews: Json[] = [
      { apiVersion: "authorization.k8s.io/v1", kind: "SelfSubjectAccessReview", spec: { resourceAttributes: { verb: "get", resource: "pods", namespace: NS } } },
      { apiVersion: "authorization.k8s.io/v1", kind: "SubjectAccessReview", spec: { user: "alice", resourceAttributes: { verb: "list", resource: "pods", namespace: NS } } },
      { apiVersion: "authorization.k8s.io/v1", kind: "LocalSubjectAccessReview", metadata: { namespace: NS }, spec: { user: "alice", resourceAttributes: { verb: "get", resource: "pods", namespace: NS } } },
      { apiVersion: "authorization.k8s.io/v1", kind: "SelfSubjectRulesReview", spec: { namespace: NS } },
      { apiVersion: "authentication.k8s.io/v1", kind: "SelfSubjectReview" },
      { apiVersion: "authentication.k8s.io/v1", kind: "TokenReview", spec: { token: "not-a-real-token" } },
    ];
    const cache = path.join(tmp, "cache-reviews");
    for (const review of reviews) {
      const file = path.join(tmp, `review-${review.kind}.yaml`);
      writeFileSync(file, YAML.stringify(review));
      const run = await server.kubectl([`--cache-dir=${cache}`, "create", "-f", file, "-o", "json", "-v=6"], { allowFail: true });
      expect(run.code, `${review.kind}: ${run.stderr.split("\n").filter((l) => !l.startsWith("I")).join("\n")}`).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ kind: review.kind, status: expect.any(Object) });
    }
    // The first run fetched the v2 document in protobuf (kubectl memoises it on disk afterwards).
    const bad = path.join(tmp, "review-unknown-field.yaml");
    writeFileSync(bad, YAML.stringify({ ...reviews[0], spec: { resourceAttributes: { verb: "get", resource: "pods", bogus: "x" } } }));
    const refused = await server.kubectl([`--cache-dir=${path.join(tmp, "cache-refused")}`, "create", "-f", bad, "-v=6"], { allowFail: true });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/GET https:\/\/[^ ]+\/openapi\/v2\?timeout=32s 200/);
    expect(refused.stderr).toContain('ValidationError(SelfSubjectAccessReview.spec.resourceAttributes): unknown field "bogus" in io.k8s.api.authorization.v1.ResourceAttributes');
    const unchecked = await server.kubectl(["create", "-f", bad, "--validate=false", "-o", "json"]);
    expect(JSON.parse(unchecked.stdout).status.allowed).toBe(true);
  });
});

/** A GET whose body is kept as bytes (server.request decodes text). */
async function fetchBinary(urlPath: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Uint8Array }> {
  const https = await import("node:https");
  return new Promise((resolve, reject) => {
    const req = https.request({ host: "127.0.0.1", port: server.port, path: urlPath, ca: server.ca, headers: { ...headers, Authorization: `Bearer ${server.token}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: new Uint8Array(Buffer.concat(chunks)) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}
