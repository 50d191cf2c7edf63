// Raw HTTPS against the API (no kubectl): status codes, v1 Status errors, content types, selectors,
// delete semantics, the PVC status subresource, discovery and health. One server for the whole file.
import YAML from "yaml";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createNamespaces, ROOT_CA, rv, startServer, stopAll, type ApiResponse, type Server } from "./harness";
import { ALL_VERBS, KINDS, expectStatus, loadFixture } from "./kinds";

const NS = "e2e-rest";
const CM = `/api/v1/namespaces/${NS}/configmaps`;
const GENERATED_SUFFIX = /^[bcdfghjklmnpqrstvwxz2456789]{5}$/;
// ROOT_CA: the root-ca-cert-publisher puts this ConfigMap, with no labels, in every namespace, as on a real
// cluster; so it is in every unfiltered list and answers every selector an unlabelled object matches.

let server: Server;

beforeAll(async () => {
  server = await startServer();
  await createNamespaces(server, NS, `other-${NS}`, "e2e-rest-selectors", "e2e-rest-deletecollection");
}, 90_000);

afterAll(async () => {
  await stopAll();
}, 60_000);

const configMap = (name: string, extra: Record<string, unknown> = {}, namespace?: string) => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, ...(namespace ? { namespace } : {}), ...extra },
  data: { "app.properties": "color=blue\nsize=3\n" },
});

async function create(path: string, body: unknown): Promise<any> {
  const res = await server.request("POST", path, { body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

function names(res: ApiResponse): string[] {
  expect(res.status, res.text).toBe(200);
  return (res.body.items as any[]).map((i) => i.metadata.name).sort();
}

describe("create, read, update", { timeout: 60_000 }, () => {
  test("create answers 201 with server-set metadata; a second create is 409 AlreadyExists", async () => {
    const res = await server.request("POST", CM, { body: configMap("first") });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ kind: "ConfigMap", apiVersion: "v1", data: configMap("first").data });
    expect(res.body.metadata.namespace).toBe(NS);
    expect(res.body.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(res.body.metadata.resourceVersion).toMatch(/^\d+$/);

    const get = await server.request("GET", `${CM}/first`);
    expect(get.status).toBe(200);
    expect(get.body.metadata.uid).toBe(res.body.metadata.uid);
    expect(get.body.metadata.resourceVersion).toBe(res.body.metadata.resourceVersion);

    const again = await server.request("POST", CM, { body: configMap("first") });
    expectStatus(again, 409, "AlreadyExists", 'configmaps "first" already exists');
    expect(again.body.details).toMatchObject({ name: "first", kind: "configmaps" });
  });

  test("client-set uid and creationTimestamp are replaced on create", async () => {
    const res = await server.request("POST", CM, {
      body: configMap("owned-fields", { uid: "11111111-2222-3333-4444-555555555555", creationTimestamp: "2001-01-01T00:00:00Z" }),
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.metadata.uid).not.toBe("11111111-2222-3333-4444-555555555555");
    expect(res.body.metadata.creationTimestamp).not.toBe("2001-01-01T00:00:00Z");
  });

  test("GET of a missing object is a 404 NotFound Status with the exact message", async () => {
    const res = await server.request("GET", `${CM}/x`);
    expectStatus(res, 404, "NotFound", 'configmaps "x" not found');
    expect(res.body.details).toMatchObject({ name: "x", kind: "configmaps" });
    expect(res.body.metadata).toEqual({});
    expectStatus(await server.request("DELETE", `${CM}/x`), 404, "NotFound", 'configmaps "x" not found');
    expectStatus(
      await server.request("PATCH", `${CM}/x`, { body: { data: { a: "b" } }, contentType: "application/merge-patch+json" }),
      404,
      "NotFound",
      'configmaps "x" not found',
    );
  });

  test("PUT with the current resourceVersion succeeds; with a stale one it is 409 Conflict and changes nothing", async () => {
    const created = await create(CM, configMap("optimistic"));
    const v1 = created.metadata.resourceVersion;

    const upd = await server.request("PUT", `${CM}/optimistic`, { body: { ...created, data: { k: "second" } } });
    expect(upd.status, upd.text).toBe(200);
    expect(upd.body.data).toEqual({ k: "second" });
    expect(rv(upd.body.metadata.resourceVersion)).toBeGreaterThan(rv(v1));

    const stale = await server.request("PUT", `${CM}/optimistic`, { body: { ...created, data: { k: "third" } } });
    expectStatus(
      stale,
      409,
      "Conflict",
      'Operation cannot be fulfilled on configmaps "optimistic": the object has been modified; please apply your changes to the latest version and try again',
    );
    const now = await server.request("GET", `${CM}/optimistic`);
    expect(now.body.data).toEqual({ k: "second" });
    expect(now.body.metadata.resourceVersion).toBe(upd.body.metadata.resourceVersion);

    // No resourceVersion in the body: an unconditional update (last write wins).
    const { resourceVersion: _drop, ...metaNoRv } = now.body.metadata;
    const uncond = await server.request("PUT", `${CM}/optimistic`, {
      body: { ...now.body, metadata: metaNoRv, data: { k: "fourth" } },
    });
    expect(uncond.status, uncond.text).toBe(200);
    expect(uncond.body.data).toEqual({ k: "fourth" });
  });

  test("PUT to a missing ConfigMap is 404 (no create on update)", async () => {
    const res = await server.request("PUT", `${CM}/never-created`, { body: configMap("never-created") });
    expectStatus(res, 404, "NotFound", 'configmaps "never-created" not found');
  });

  test("body namespace or name that differs from the URL is 400 BadRequest", async () => {
    const ns = await server.request("POST", CM, { body: configMap("ns-mismatch", {}, "another-namespace") });
    expectStatus(ns, 400, "BadRequest", "the namespace of the provided object does not match the namespace sent on the request");

    const created = await create(CM, configMap("name-check"));
    const putNs = await server.request("PUT", `${CM}/name-check`, {
      body: { ...created, metadata: { ...created.metadata, namespace: "another-namespace" } },
    });
    expectStatus(putNs, 400, "BadRequest", "the namespace of the provided object does not match the namespace sent on the request");

    const putName = await server.request("PUT", `${CM}/name-check`, {
      body: { ...created, metadata: { ...created.metadata, name: "other-name" } },
    });
    expectStatus(putName, 400, "BadRequest", "the name of the object (other-name) does not match the name on the URL (name-check)");
  });

  test("a body without metadata.namespace takes the URL namespace; kind and apiVersion may be omitted", async () => {
    const res = await server.request("POST", CM, { body: { metadata: { name: "defaulted-kind" }, data: { a: "1" } } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ kind: "ConfigMap", apiVersion: "v1", metadata: { namespace: NS } });
  });

  test("malformed JSON is 400 BadRequest", async () => {
    const res = await server.request("POST", CM, { body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":' });
    expectStatus(res, 400, "BadRequest", /^the object provided is unrecognized \(must be of type ConfigMap\): /);
    const empty = await server.request("POST", CM, { body: "" , contentType: "application/json" });
    expect(empty.status).toBe(400);
  });

  test("a body of another kind is 400 BadRequest", async () => {
    const res = await server.request("POST", CM, {
      body: { apiVersion: "v1", kind: "Secret", metadata: { name: "wrong-kind" }, data: { a: "Yg==" } },
    });
    expectStatus(res, 400, "BadRequest", /^Secret in version "v1" cannot be handled as a ConfigMap/);
    expectStatus(await server.request("GET", `${CM}/wrong-kind`), 404, "NotFound");

    const wrongVersion = await server.request("POST", CM, {
      body: { apiVersion: "apps/v1", kind: "ConfigMap", metadata: { name: "wrong-version" } },
    });
    expect(wrongVersion.status, wrongVersion.text).toBe(400);
  });

  test("YAML request bodies are accepted and Accept: application/yaml answers YAML", async () => {
    const yamlBody = [
      "apiVersion: v1",
      "kind: ConfigMap",
      "metadata:",
      "  name: from-yaml",
      "  labels:",
      "    source: yaml",
      "data:",
      "  greeting: |",
      "    hello",
      "    world",
      "",
    ].join("\n");
    const res = await server.request("POST", CM, { body: yamlBody, contentType: "application/yaml" });
    expect(res.status, res.text).toBe(201);

    const asYaml = await server.request("GET", `${CM}/from-yaml`, { headers: { Accept: "application/yaml" } });
    expect(asYaml.status).toBe(200);
    expect(String(asYaml.headers["content-type"])).toMatch(/^application\/yaml/);
    const parsed = YAML.parse(asYaml.text);
    expect(parsed).toMatchObject({
      kind: "ConfigMap",
      apiVersion: "v1",
      metadata: { name: "from-yaml", namespace: NS, labels: { source: "yaml" } },
      data: { greeting: "hello\nworld\n" },
    });

    const listYaml = await server.request("GET", CM, { headers: { Accept: "application/yaml" } });
    expect(listYaml.status).toBe(200);
    expect(YAML.parse(listYaml.text).kind).toBe("ConfigMapList");
  });

  test("generateName gives a name with a random 5-character suffix", async () => {
    const a = await create(CM, { apiVersion: "v1", kind: "ConfigMap", metadata: { generateName: "web-" } });
    const b = await create(CM, { apiVersion: "v1", kind: "ConfigMap", metadata: { generateName: "web-" } });
    for (const o of [a, b]) {
      expect(o.metadata.name.startsWith("web-")).toBe(true);
      expect(o.metadata.name.slice(4)).toMatch(GENERATED_SUFFIX);
      expect(o.metadata.generateName).toBe("web-");
    }
    expect(a.metadata.name).not.toBe(b.metadata.name);
    expect((await server.request("GET", `${CM}/${a.metadata.name}`)).status).toBe(200);
  });

  test("?pretty=true indents the JSON", async () => {
    await create(CM, configMap("pretty"));
    const pretty = await server.request("GET", `${CM}/pretty?pretty=true`);
    expect(pretty.status).toBe(200);
    expect(pretty.text).toMatch(/^\{\n {2}"\w+": /);
    expect(pretty.text).toMatch(/\n {4}"name": "pretty",?\n/);
    expect(JSON.parse(pretty.text).metadata.name).toBe("pretty");
    const compact = await server.request("GET", `${CM}/pretty`);
    expect(compact.text.trim()).not.toContain("\n");
  });
});

describe("request errors", { timeout: 60_000 }, () => {
  test("unknown resources and paths are 404 NotFound", async () => {
    for (const p of [`/api/v1/namespaces/${NS}/widgets`, "/api/v1/widgets", "/api/v2/pods", `/api/v1/namespaces/${NS}/widgets/a`]) {
      const res = await server.request("GET", p);
      expectStatus(res, 404, "NotFound", "the server could not find the requested resource");
    }
  });

  test("a method the path does not offer is 405 MethodNotAllowed", async () => {
    await create(CM, configMap("method-target"));
    expectStatus(await server.request("PUT", CM, { body: configMap("method-target") }), 405, "MethodNotAllowed");
    expectStatus(await server.request("POST", `${CM}/method-target`, { body: configMap("method-target") }), 405, "MethodNotAllowed");
  });

  test("a body over 3 MiB is 413 RequestEntityTooLarge", async () => {
    const big = { ...configMap("too-big"), data: { blob: "x".repeat(3 * 1024 * 1024 + 1024) } };
    const res = await server.request("POST", CM, { body: big });
    expectStatus(res, 413, "RequestEntityTooLarge", "Request entity too large: limit is 3145728");
    expectStatus(await server.request("GET", `${CM}/too-big`), 404, "NotFound");
  });

  test("PATCH with an unsupported Content-Type is 415 UnsupportedMediaType", async () => {
    await create(CM, configMap("patch-type"));
    const res = await server.request("PATCH", `${CM}/patch-type`, { body: "data: {a: b}", contentType: "text/plain" });
    expectStatus(res, 415, "UnsupportedMediaType");
    expect((await server.request("GET", `${CM}/patch-type`)).body.data).toEqual(configMap("x").data);
  });

  test("a Secret whose data exceeds 1 MiB is 422 Invalid with a cause on field data", async () => {
    const res = await server.request("POST", `/api/v1/namespaces/${NS}/secrets`, {
      body: {
        apiVersion: "v1",
        kind: "Secret",
        metadata: { name: "huge" },
        type: "Opaque",
        data: { blob: Buffer.alloc(1024 * 1024 + 1, 7).toString("base64") },
      },
    });
    expectStatus(res, 422, "Invalid", /^Secret "huge" is invalid: data: Too long/);
    expect(res.body.details).toMatchObject({ name: "huge", kind: "Secret" });
    expect(res.body.details.causes).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: "data", reason: "FieldValueTooLong" })]),
    );
    expectStatus(await server.request("GET", `/api/v1/namespaces/${NS}/secrets/huge`), 404, "NotFound");
  });

  test("requests without a token or with a wrong token are 401 Unauthorized", async () => {
    expectStatus(await server.request("GET", CM, { token: null }), 401, "Unauthorized", "Unauthorized");
    expectStatus(await server.request("GET", CM, { token: "not-the-token" }), 401, "Unauthorized", "Unauthorized");
    expectStatus(await server.request("POST", CM, { token: "not-the-token", body: configMap("anon") }), 401, "Unauthorized");
    expectStatus(
      await server.request("GET", CM, { token: null, headers: { Authorization: `Basic ${Buffer.from("a:b").toString("base64")}` } }),
      401,
      "Unauthorized",
    );
    expectStatus(await server.request("GET", `${CM}/anon`), 404, "NotFound");
  });
});

describe("lists and selectors", { timeout: 60_000 }, () => {
  const SEL_NS = "e2e-rest-selectors";
  const SEL = `/api/v1/namespaces/${SEL_NS}/configmaps`;

  beforeAll(async () => {
    const labelled: [string, Record<string, string>][] = [
      ["a", { app: "web", tier: "frontend", env: "prod" }],
      ["b", { app: "web", tier: "backend", env: "staging" }],
      ["c", { app: "db", tier: "backend" }],
      ["d", { app: "cache" }],
      ["e", {}],
    ];
    for (const [name, labels] of labelled) await create(SEL, configMap(name, { labels }));
  }, 60_000);

  const select = async (selector: string) =>
    names(await server.request("GET", `${SEL}?labelSelector=${encodeURIComponent(selector)}`));

  test("the list is a ConfigMapList with a resourceVersion at least as new as its items", async () => {
    const res = await server.request("GET", SEL);
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe("ConfigMapList");
    expect(res.body.apiVersion).toBe("v1");
    expect(res.body.metadata.resourceVersion).toMatch(/^\d+$/);
    expect(names(res)).toEqual(["a", "b", "c", "d", "e", ROOT_CA]);
    for (const item of res.body.items) {
      expect(rv(res.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(rv(item.metadata.resourceVersion));
    }
    const empty = await server.request("GET", "/api/v1/namespaces/no-such-namespace/configmaps");
    expect(empty.status).toBe(200);
    expect(empty.body.items).toEqual([]);
  });

  test("label selector operators =, ==, !=, in, notin, exists, !exists and AND", async () => {
    expect(await select("app=web")).toEqual(["a", "b"]);
    expect(await select("app==web")).toEqual(["a", "b"]);
    expect(await select("app!=web")).toEqual(["c", "d", "e", ROOT_CA]);
    expect(await select("tier in (frontend,backend)")).toEqual(["a", "b", "c"]);
    expect(await select("tier notin (frontend)")).toEqual(["b", "c", "d", "e", ROOT_CA]);
    expect(await select("tier")).toEqual(["a", "b", "c"]);
    expect(await select("!tier")).toEqual(["d", "e", ROOT_CA]);
    expect(await select("app=web,tier=backend")).toEqual(["b"]);
    expect(await select(" env in ( prod , staging ) , app = web ")).toEqual(["a", "b"]);
    expect(await select("app=nothing")).toEqual([]);
    expect(await select("")).toEqual(["a", "b", "c", "d", "e", ROOT_CA]);
  });

  test("a malformed label selector is 400 BadRequest", async () => {
    for (const bad of ["app in (", "tier notin frontend", "=web", "app=web,", "app=(x)"]) {
      const res = await server.request("GET", `${SEL}?labelSelector=${encodeURIComponent(bad)}`);
      expectStatus(res, 400, "BadRequest");
    }
  });

  test("field selectors on metadata.name and metadata.namespace, and 400 for unsupported fields", async () => {
    expect(names(await server.request("GET", `${SEL}?fieldSelector=metadata.name%3Dc`))).toEqual(["c"]);
    expect(names(await server.request("GET", `${SEL}?fieldSelector=metadata.name!%3Dc`))).toEqual(["a", "b", "d", "e", ROOT_CA]);
    expect(names(await server.request("GET", `${SEL}?fieldSelector=metadata.name%3Dc&labelSelector=app%3Dweb`))).toEqual([]);
    const across = await server.request("GET", `/api/v1/configmaps?fieldSelector=metadata.namespace%3D${SEL_NS}`);
    expect(names(across)).toEqual(["a", "b", "c", "d", "e", ROOT_CA]);
    expect(across.body.items.every((i: any) => i.metadata.namespace === SEL_NS)).toBe(true);

    const bad = await server.request("GET", `${SEL}?fieldSelector=data.foo%3Dbar`);
    expectStatus(bad, 400, "BadRequest", '"data.foo" is not a known field selector: only "metadata.name", "metadata.namespace"');
    const badPod = await server.request("GET", `/api/v1/namespaces/${SEL_NS}/pods?fieldSelector=spec.foo%3Dx`);
    expectStatus(badPod, 400, "BadRequest", "field label not supported: spec.foo");
    expectStatus(await server.request("GET", `${SEL}?fieldSelector=metadata.name`), 400, "BadRequest");
  });

  test("pod field selectors status.phase and spec.nodeName", async () => {
    const pods = `/api/v1/namespaces/${SEL_NS}/pods`;
    const pod = (name: string, nodeName?: string) => ({
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name },
      spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: "main", image: "busybox:1.36", command: ["sleep", "3600"] }] },
    });
    const p1 = await create(pods, pod("unscheduled"));
    await create(pods, pod("on-node-a", "node-a"));
    expect(p1.status?.phase).toBe("Pending");

    const q = async (sel: string) => names(await server.request("GET", `${pods}?fieldSelector=${encodeURIComponent(sel)}`));
    expect(await q("spec.nodeName=node-a")).toEqual(["on-node-a"]);
    expect(await q("spec.nodeName!=node-a")).toEqual(["unscheduled"]);
    expect(await q("spec.nodeName=")).toEqual(["unscheduled"]);
    expect(await q("status.phase=Pending")).toEqual(["on-node-a", "unscheduled"]);
    expect(await q("status.phase=Running")).toEqual([]);
    expect(await q("status.phase=Pending,spec.nodeName=node-a")).toEqual(["on-node-a"]);
    const all = await server.request("GET", `/api/v1/pods?fieldSelector=${encodeURIComponent("spec.nodeName=node-a")}`);
    expect(names(all)).toEqual(["on-node-a"]);
  });

  test("secret field selector type", async () => {
    const secrets = `/api/v1/namespaces/${SEL_NS}/secrets`;
    const b64 = (s: string) => Buffer.from(s).toString("base64");
    await create(secrets, { apiVersion: "v1", kind: "Secret", metadata: { name: "plain" }, type: "Opaque", data: { k: b64("v") } });
    await create(secrets, {
      apiVersion: "v1", kind: "Secret", metadata: { name: "tls" }, type: "kubernetes.io/tls",
      data: { "tls.crt": b64("-----BEGIN CERTIFICATE-----"), "tls.key": b64("-----BEGIN PRIVATE KEY-----") },
    });
    await create(secrets, {
      apiVersion: "v1", kind: "Secret", metadata: { name: "basic" }, type: "kubernetes.io/basic-auth",
      data: { username: b64("admin"), password: b64("pw") },
    });
    const q = async (sel: string) => names(await server.request("GET", `${secrets}?fieldSelector=${encodeURIComponent(sel)}`));
    expect(await q("type=kubernetes.io/tls")).toEqual(["tls"]);
    expect(await q("type!=Opaque")).toEqual(["basic", "tls"]);
    expect(await q("type=Opaque")).toEqual(["plain"]);
  });

  test("event field selectors involvedObject.name, involvedObject.kind and reason", async () => {
    const events = `/api/v1/namespaces/${SEL_NS}/events`;
    const event = (name: string, objName: string, reason: string, kind = "Pod") => ({
      apiVersion: "v1",
      kind: "Event",
      metadata: { name },
      involvedObject: { apiVersion: "v1", kind, name: objName, namespace: SEL_NS },
      reason,
      message: `${reason} for ${objName}`,
      source: { component: "kubelet", host: "node-a" },
      type: reason === "BackOff" ? "Warning" : "Normal",
      count: 1,
      firstTimestamp: "2025-05-01T12:00:00Z",
      lastTimestamp: "2025-05-01T12:00:00Z",
    });
    await create(events, event("web-0.1", "web-0", "Pulled"));
    await create(events, event("web-0.2", "web-0", "BackOff"));
    await create(events, event("web-1.1", "web-1", "Pulled"));
    await create(events, event("svc.1", "web", "Created", "Service"));
    const q = async (sel: string) => names(await server.request("GET", `${events}?fieldSelector=${encodeURIComponent(sel)}`));
    expect(await q("involvedObject.name=web-0")).toEqual(["web-0.1", "web-0.2"]);
    expect(await q("involvedObject.kind=Service")).toEqual(["svc.1"]);
    expect(await q("involvedObject.kind=Pod,reason=Pulled")).toEqual(["web-0.1", "web-1.1"]);
    expect(await q("type=Warning")).toEqual(["web-0.2"]);
    expectStatus(await server.request("GET", `${events}?fieldSelector=message%3Dx`), 400, "BadRequest", "field label not supported: message");
  });
});

describe("resourceVersion", { timeout: 60_000 }, () => {
  test("resourceVersions strictly increase across kinds and writes", async () => {
    const seen: bigint[] = [];
    const push = (obj: any) => seen.push(rv(obj.metadata.resourceVersion));
    push(await create(`/api/v1/namespaces/${NS}/configmaps`, configMap("rv-1")));
    push(await create(`/api/v1/namespaces/${NS}/secrets`, { apiVersion: "v1", kind: "Secret", metadata: { name: "rv-2" } }));
    push(await create(`/api/v1/namespaces/${NS}/serviceaccounts`, { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: "rv-3" } }));
    push(await create("/api/v1/persistentvolumes", { ...loadFixture(KINDS.find((k) => k.kind === "PersistentVolume")!), metadata: { name: "rv-4" } }));
    const patched = await server.request("PATCH", `${CM}/rv-1`, {
      body: { metadata: { labels: { bumped: "yes" } } },
      contentType: "application/merge-patch+json",
    });
    expect(patched.status, patched.text).toBe(200);
    push(patched.body);
    push(await create(`/api/v1/namespaces/other-${NS}/endpoints`, { apiVersion: "v1", kind: "Endpoints", metadata: { name: "rv-5" } }));
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1]);

    const list = await server.request("GET", "/api/v1/configmaps");
    expect(rv(list.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(seen[seen.length - 1]);
  });
});

describe("delete", { timeout: 60_000 }, () => {
  test("deleting a ConfigMap answers a Success Status and the object is gone", async () => {
    const created = await create(CM, configMap("to-delete"));
    const res = await server.request("DELETE", `${CM}/to-delete`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      kind: "Status",
      apiVersion: "v1",
      status: "Success",
      details: { name: "to-delete", kind: "configmaps", uid: created.metadata.uid },
    });
    expectStatus(await server.request("GET", `${CM}/to-delete`), 404, "NotFound");
  });

  test("a negative gracePeriodSeconds is rejected and the object stays", async () => {
    await create(CM, configMap("negative-grace"));
    const res = await server.request("DELETE", `${CM}/negative-grace?gracePeriodSeconds=-1`);
    expect([400, 422], res.text).toContain(res.status);
    expect(res.body).toMatchObject({ kind: "Status", status: "Failure", code: res.status });
    const inBody = await server.request("DELETE", `${CM}/negative-grace`, { body: { gracePeriodSeconds: -1 } });
    expect([400, 422], inBody.text).toContain(inBody.status);
    expect((await server.request("GET", `${CM}/negative-grace`)).status).toBe(200);
  });

  test("orphanDependents together with propagationPolicy is 422 Invalid", async () => {
    await create(CM, configMap("both-options"));
    const res = await server.request("DELETE", `${CM}/both-options`, {
      body: { kind: "DeleteOptions", apiVersion: "v1", orphanDependents: true, propagationPolicy: "Orphan" },
    });
    expectStatus(
      res,
      422,
      "Invalid",
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set',
    );
    expect(res.body.details).toMatchObject({ group: "meta.k8s.io", kind: "DeleteOptions" });
    const viaQuery = await server.request("DELETE", `${CM}/both-options?orphanDependents=false&propagationPolicy=Background`);
    expectStatus(viaQuery, 422, "Invalid");
    const badPolicy = await server.request("DELETE", `${CM}/both-options?propagationPolicy=Sometimes`);
    expectStatus(badPolicy, 422, "Invalid");
    expect((await server.request("GET", `${CM}/both-options`)).status).toBe(200);
  });

  test("finalizers keep a deleted object (with deletionTimestamp) until a PATCH removes them", async () => {
    await create(CM, configMap("guarded", { finalizers: ["example.com/protect"] }));
    const del = await server.request("DELETE", `${CM}/guarded`);
    expect(del.status, del.text).toBe(200);
    expect(del.body.kind).toBe("ConfigMap");
    expect(del.body.metadata.deletionTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    const still = await server.request("GET", `${CM}/guarded`);
    expect(still.status).toBe(200);
    expect(still.body.metadata.deletionTimestamp).toBeDefined();
    expect(still.body.metadata.deletionGracePeriodSeconds).toBe(0);
    expect(still.body.metadata.finalizers).toEqual(["example.com/protect"]);

    const recreate = await server.request("POST", CM, { body: configMap("guarded") });
    expectStatus(recreate, 409, "AlreadyExists");

    // Other fields stay writable while terminating, and new finalizers are refused.
    const label = await server.request("PATCH", `${CM}/guarded`, {
      body: { metadata: { labels: { state: "terminating" } } },
      contentType: "application/merge-patch+json",
    });
    expect(label.status, label.text).toBe(200);
    expect(label.body.metadata.deletionTimestamp).toBe(still.body.metadata.deletionTimestamp);
    const addFinalizer = await server.request("PATCH", `${CM}/guarded`, {
      body: [{ op: "add", path: "/metadata/finalizers/-", value: "example.com/another" }],
      contentType: "application/json-patch+json",
    });
    expectStatus(addFinalizer, 422, "Invalid");

    const release = await server.request("PATCH", `${CM}/guarded`, {
      body: { metadata: { finalizers: null } },
      contentType: "application/merge-patch+json",
    });
    expect(release.status, release.text).toBe(200);
    expectStatus(await server.request("GET", `${CM}/guarded`), 404, "NotFound");
  });

  test("deletecollection with a label selector deletes only the matches", async () => {
    const DC = `/api/v1/namespaces/e2e-rest-deletecollection/configmaps`;
    for (const [name, batch] of [["one-a", "one"], ["one-b", "one"], ["two-a", "two"], ["two-b", "two"]]) {
      await create(DC, configMap(name, { labels: { batch } }));
    }
    const res = await server.request("DELETE", `${DC}?labelSelector=batch%3Done`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.kind).toBe("ConfigMapList");
    expect(names(res)).toEqual(["one-a", "one-b"]);
    expect(names(await server.request("GET", DC))).toEqual([ROOT_CA, "two-a", "two-b"]);
  });

  test("a pod without spec.nodeName is deleted at once and the delete answers the pod", async () => {
    const pods = `/api/v1/namespaces/${NS}/pods`;
    await create(pods, { ...loadFixture(KINDS.find((k) => k.kind === "Pod")!), metadata: { name: "unscheduled-delete" } });
    const del = await server.request("DELETE", `${pods}/unscheduled-delete`);
    expect(del.status, del.text).toBe(200);
    expect(del.body.kind).toBe("Pod");
    expectStatus(await server.request("GET", `${pods}/unscheduled-delete`), 404, "NotFound");
  });

  test("a scheduled pod is deleted gracefully: terminating first, gone after its grace period", async () => {
    const pods = `/api/v1/namespaces/${NS}/pods`;
    const fixture = loadFixture(KINDS.find((k) => k.kind === "Pod")!);
    await create(pods, { ...fixture, metadata: { name: "scheduled-delete" }, spec: { ...fixture.spec, nodeName: "node-a" } });
    const del = await server.request("DELETE", `${pods}/scheduled-delete?gracePeriodSeconds=2`);
    expect(del.status, del.text).toBe(200);
    expect(del.body.metadata.deletionTimestamp).toBeDefined();
    expect(del.body.metadata.deletionGracePeriodSeconds).toBe(2);
    expect((await server.request("GET", `${pods}/scheduled-delete`)).status).toBe(200);
    const deadline = Date.now() + 20_000;
    let status = 200;
    while (Date.now() < deadline && status === 200) {
      await new Promise((r) => setTimeout(r, 250));
      status = (await server.request("GET", `${pods}/scheduled-delete`)).status;
    }
    expect(status).toBe(404);
  });
});

describe("PersistentVolumeClaim status subresource", { timeout: 60_000 }, () => {
  const PVC = `/api/v1/namespaces/${NS}/persistentvolumeclaims`;

  test("/status GET, PUT and PATCH change only status; the main PUT keeps status", async () => {
    const fixture = loadFixture(KINDS.find((k) => k.kind === "PersistentVolumeClaim")!);
    const created = await create(PVC, { ...fixture, status: { phase: "Bound" } });
    expect(created.status?.phase).not.toBe("Bound");

    const st = await server.request("GET", `${PVC}/${fixture.metadata.name}/status`);
    expect(st.status, st.text).toBe(200);
    expect(st.body.kind).toBe("PersistentVolumeClaim");
    expect(st.body.metadata.uid).toBe(created.metadata.uid);

    const put = await server.request("PUT", `${PVC}/${fixture.metadata.name}/status`, {
      body: {
        ...st.body,
        spec: { ...st.body.spec, resources: { requests: { storage: "99Gi" } } },
        status: { phase: "Bound", accessModes: ["ReadWriteOnce"], capacity: { storage: "5Gi" } },
      },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.status).toMatchObject({ phase: "Bound", capacity: { storage: "5Gi" } });
    expect(put.body.spec.resources.requests.storage).toBe("5Gi");
    expect(rv(put.body.metadata.resourceVersion)).toBeGreaterThan(rv(st.body.metadata.resourceVersion));

    const main = await server.request("PUT", `${PVC}/${fixture.metadata.name}`, {
      body: {
        ...put.body,
        metadata: { ...put.body.metadata, labels: { ...put.body.metadata.labels, edited: "main" } },
        status: { phase: "Lost" },
      },
    });
    expect(main.status, main.text).toBe(200);
    expect(main.body.metadata.labels.edited).toBe("main");
    expect(main.body.status.phase).toBe("Bound");

    const patch = await server.request("PATCH", `${PVC}/${fixture.metadata.name}/status`, {
      body: { spec: { storageClassName: "fast" }, status: { phase: "Lost" } },
      contentType: "application/merge-patch+json",
    });
    expect(patch.status, patch.text).toBe(200);
    expect(patch.body.status.phase).toBe("Lost");
    expect(patch.body.spec.storageClassName).toBe("standard");

    const mainPatch = await server.request("PATCH", `${PVC}/${fixture.metadata.name}`, {
      body: { status: { phase: "Pending" } },
      contentType: "application/merge-patch+json",
    });
    expect(mainPatch.status, mainPatch.text).toBe(200);
    const final = await server.request("GET", `${PVC}/${fixture.metadata.name}`);
    expect(final.body.status.phase).toBe("Lost");
    expect(final.body.spec.resources.requests.storage).toBe("5Gi");
  });
});

describe("discovery and health", { timeout: 60_000 }, () => {
  test("/version", async () => {
    const res = await server.request("GET", "/version");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ major: "1", minor: expect.stringMatching(/^\d+/) });
    expect(res.body.gitVersion).toMatch(/^v\d+\.\d+\.\d+/);
  });

  test("/api and /apis", async () => {
    const api = await server.request("GET", "/api");
    expect(api.status).toBe(200);
    expect(api.body.kind).toBe("APIVersions");
    expect(api.body.versions).toContain("v1");
    const apis = await server.request("GET", "/apis");
    expect(apis.status).toBe(200);
    expect(apis.body.kind).toBe("APIGroupList");
    expect(Array.isArray(apis.body.groups)).toBe(true);
    // RBAC and the review APIs are groups of their own, served at v1 as in kube-apiserver 1.32.
    const groups = new Map<string, any>(apis.body.groups.map((g: any) => [g.name, g]));
    for (const name of ["rbac.authorization.k8s.io", "authentication.k8s.io", "authorization.k8s.io"]) {
      expect(groups.get(name), `/apis lacks ${name}`).toMatchObject({
        versions: [{ groupVersion: `${name}/v1`, version: "v1" }],
        preferredVersion: { groupVersion: `${name}/v1`, version: "v1" },
      });
    }
  });

  test("/apis/rbac.authorization.k8s.io/v1 lists the four RBAC kinds", async () => {
    const res = await server.request("GET", "/apis/rbac.authorization.k8s.io/v1");
    expect(res.status, res.text).toBe(200);
    expect(res.body.kind).toBe("APIResourceList");
    expect(res.body.groupVersion).toBe("rbac.authorization.k8s.io/v1");
    const byName = new Map<string, any>(res.body.resources.map((r: any) => [r.name, r]));
    for (const [name, kind, namespaced] of [
      ["roles", "Role", true], ["rolebindings", "RoleBinding", true],
      ["clusterroles", "ClusterRole", false], ["clusterrolebindings", "ClusterRoleBinding", false],
    ] as const) {
      const r = byName.get(name);
      expect(r, `missing ${name}`).toBeDefined();
      expect(r.kind).toBe(kind);
      expect(r.namespaced).toBe(namespaced);
      expect([...r.verbs].sort()).toEqual(ALL_VERBS);
    }
  });

  test("/api/v1 lists all twelve kinds with scope, verbs and short names, Namespace, and the PVC, namespace and token subresources", async () => {
    const res = await server.request("GET", "/api/v1");
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe("APIResourceList");
    expect(res.body.groupVersion).toBe("v1");
    const byName = new Map<string, any>(res.body.resources.map((r: any) => [r.name, r]));
    for (const k of KINDS) {
      const r = byName.get(k.plural);
      expect(r, `missing ${k.plural}`).toBeDefined();
      expect(r.kind).toBe(k.kind);
      expect(r.namespaced).toBe(k.namespaced);
      expect([...r.verbs].sort()).toEqual(ALL_VERBS);
      expect(r.shortNames ?? []).toEqual(k.shortNames);
    }
    const status = byName.get("persistentvolumeclaims/status");
    expect(status, "missing persistentvolumeclaims/status").toBeDefined();
    expect([...status.verbs].sort()).toEqual(["get", "patch", "update"]);

    // Namespaces are real objects: kube-apiserver's namespace storage has no deletecollection, and the
    // status and finalize subresources are the namespace controller's way in.
    expect(byName.get("namespaces")).toMatchObject({ kind: "Namespace", namespaced: false, shortNames: ["ns"] });
    expect([...byName.get("namespaces").verbs].sort()).toEqual(["create", "delete", "get", "list", "patch", "update", "watch"]);
    expect(byName.get("namespaces/status")).toMatchObject({ kind: "Namespace", namespaced: false });
    expect([...byName.get("namespaces/status").verbs].sort()).toEqual(["get", "patch", "update"]);
    expect(byName.get("namespaces/finalize")).toMatchObject({ kind: "Namespace", namespaced: false, verbs: ["update"] });
    // TokenRequest lives under serviceaccounts but belongs to authentication.k8s.io/v1.
    expect(byName.get("serviceaccounts/token")).toMatchObject({
      namespaced: true, group: "authentication.k8s.io", version: "v1", kind: "TokenRequest", verbs: ["create"],
    });
  });

  test("/healthz, /livez and /readyz answer ok", async () => {
    for (const p of ["/healthz", "/livez", "/readyz"]) {
      const res = await server.request("GET", p);
      expect(res.status, p).toBe(200);
      expect(res.text.trim(), p).toBe("ok");
    }
  });
});
