// Protobuf responses on the real server, as client-go receives them: get, list, create, update, patch, delete
// and delete-collection of every kind in `application/vnd.kubernetes.protobuf` holding exactly what JSON holds;
// Status errors in protobuf; content negotiation and kube's 406s; the metadata-only views client-go's metadata
// client asks for; `;stream=watch` frames (decoded here) that keep an informer-style cache in sync through
// ADDED, MODIFIED, DELETED and bookmarks, with in-stream errors; and kubectl's typed requests, which now get
// protobuf answers and still work.
import https from "node:https";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { decodeMessage } from "../../lib/codec/protobuf/decode";
import { encodeProtobufBody } from "../../lib/codec/protobuf/encode";
import { MESSAGES } from "../../lib/codec/protobuf/schema";
import { openEnvelope } from "../../lib/codec/protobuf/fixtures/envelope";
import { Reader } from "../../lib/codec/protobuf/wire";
import YAML from "yaml";
import { openWatch, sleep } from "./cluster";
import { createNamespaces, startServer, stopAll, type Server } from "./harness";
import { KINDS, loadFixture } from "./kinds";

const PB = "application/vnd.kubernetes.protobuf";
const PB_JSON = `${PB}, application/json`;
const PB_WATCH = `${PB};stream=watch`;
const NS = "pb";
const RBAC = "rbac.authorization.k8s.io";
const META_GET = `${PB};as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json`;
const META_LIST = `${PB};as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json`;
const OFFERED = "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf";

let server: Server;
let shortWindow: Server;

beforeAll(async () => {
  [server, shortWindow] = await Promise.all([startServer(), startServer({ env: { COMPACTION_WINDOW_SECONDS: "2" } })]);
  await createNamespaces(server, NS, "pb-watch", "pb-meta");
}, 120_000);
afterAll(async () => { await stopAll(); }, 60_000);

// ---- raw HTTPS and the way back from protobuf ----------------------------------------------------------

interface Raw { status: number; contentType: string; body: Buffer }

function raw(s: Server, method: string, urlPath: string, opts: { accept?: string; body?: unknown; contentType?: string; token?: string | null } = {}): Promise<Raw> {
  const payload = opts.body === undefined ? undefined : Buffer.isBuffer(opts.body) ? opts.body : Buffer.from(JSON.stringify(opts.body));
  const headers: Record<string, string> = { Accept: opts.accept ?? PB };
  if (opts.token !== null) headers.Authorization = `Bearer ${opts.token ?? s.token}`;
  if (payload) Object.assign(headers, { "Content-Type": opts.contentType ?? "application/json", "Content-Length": String(payload.length) });
  return new Promise((resolve, reject) => {
    const req = https.request({ host: "127.0.0.1", port: s.port, method, path: urlPath, ca: s.ca, agent: false, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers["content-type"] ?? ""), body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(payload);
  });
}

/** `k8s\0` + runtime.Unknown{typeMeta{apiVersion=1, kind=2}, raw=2} -> the object as JSON, through the declarations. */
function decode(body: Uint8Array): any {
  const env = openEnvelope(body);
  expect(env.magic, "the k8s\\0 magic").toEqual([0x6b, 0x38, 0x73, 0x00]);
  expect(env.rest.every((s) => s === ""), "contentEncoding/contentType empty").toBe(true);
  return { kind: env.kind, apiVersion: env.apiVersion, ...decodeMessage(env.kind, env.raw) };
}

async function pb(s: Server, method: string, urlPath: string, opts: Parameters<typeof raw>[3] = {}): Promise<{ status: number; object: any }> {
  const res = await raw(s, method, urlPath, opts);
  expect(res.contentType, `${method} ${urlPath}: ${res.status} ${res.body.toString("utf8").slice(0, 300)}`).toBe(PB);
  return { status: res.status, object: decode(res.body) };
}

async function json(s: Server, urlPath: string): Promise<any> {
  const res = await raw(s, "GET", urlPath, { accept: "application/json" });
  expect(res.status, res.body.toString()).toBe(200);
  return JSON.parse(res.body.toString("utf8"));
}

/**
 * What a Go client decodes, whichever the encoding: a JSON null, an absent field and a zero Go value (non-pointer
 * "" / 0 / false, an empty value struct, an empty list or map) all give the same struct. Walks `value` by the
 * protobuf declarations of `message`; pointers keep their zero values (nil and false differ in Go).
 */
function goView(message: string, value: any): any {
  const decl = MESSAGES.get(message);
  if (!decl || value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const fields = new Map<string, { type: string; shape: string; presence: string; message: boolean }>();
  const collect = (m: string) => {
    for (const f of MESSAGES.get(m)!.ordered) if (f.inline) collect(f.type); else fields.set(f.json, f);
  };
  collect(message);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const f = fields.get(k);
    if (!f) { out[k] = v; continue; }
    if (v === null || v === undefined) continue;
    if (f.shape === "repeated") {
      if ((v as unknown[]).length) out[k] = (v as unknown[]).map((i) => goView(f.type, i));
    } else if (f.shape === "map") {
      if (Object.keys(v as object).length) out[k] = Object.fromEntries(Object.entries(v as object).map(([mk, mv]) => [mk, goView(f.type, mv)]));
    } else if (f.message && MESSAGES.has(f.type)) {
      const inner = goView(f.type, v);
      if (f.presence === "pointer" || Object.keys(inner).length) out[k] = inner;
    } else if (f.presence === "pointer" || f.message || (v !== "" && v !== 0 && v !== false)) {
      out[k] = v;
    }
  }
  return out;
}
const same = (kind: string, got: any, want: any) => expect(goView(kind, got)).toStrictEqual(goView(kind, want));

/** List items carry no type meta in protobuf; compare them with JSON's without it. */
const bare = (o: any) => {
  const { kind: _k, apiVersion: _a, ...rest } = o;
  return rest;
};

/**
 * The object read both ways at one resourceVersion: controllers may change it between the two reads, so read
 * again until both saw the same version.
 */
async function bothWays(urlPath: string): Promise<{ asJson: any; asProtobuf: any }> {
  for (let attempt = 0; ; attempt++) {
    const asJson = await json(server, urlPath);
    const got = await pb(server, "GET", urlPath);
    expect(got.status).toBe(200);
    if (got.object.metadata.resourceVersion === asJson.metadata.resourceVersion || attempt === 5) return { asJson, asProtobuf: got.object };
    await sleep(200);
  }
}

// ---- every kind ----------------------------------------------------------------------------------------

interface Case { kind: string; apiVersion: string; collection: string; body: any; deleteCollection: boolean }

const cases: Case[] = [
  ...KINDS.map((k) => {
    const body = loadFixture(k, k.namespaced ? NS : undefined);
    if (!k.namespaced) body.metadata.name = `pb-${body.metadata.name}`;
    return { kind: k.kind, apiVersion: "v1", collection: k.namespaced ? `/api/v1/namespaces/${NS}/${k.plural}` : `/api/v1/${k.plural}`, body, deleteCollection: true };
  }),
  {
    kind: "SecurityContextConstraints", apiVersion: "security.openshift.io/v1", collection: "/apis/security.openshift.io/v1/securitycontextconstraints",
    body: { ...loadFixture(KINDS.find((k) => k.kind === "SecurityContextConstraints")!), apiVersion: "security.openshift.io/v1", metadata: { name: "pb-openshift" } },
    deleteCollection: true,
  },
  { kind: "Namespace", apiVersion: "v1", collection: "/api/v1/namespaces", body: { apiVersion: "v1", kind: "Namespace", metadata: { name: "pb-created", labels: { a: "b" } } }, deleteCollection: false },
  {
    kind: "Role", apiVersion: `${RBAC}/v1`, collection: `/apis/${RBAC}/v1/namespaces/${NS}/roles`, deleteCollection: true,
    body: { apiVersion: `${RBAC}/v1`, kind: "Role", metadata: { name: "pod-reader" }, rules: [{ apiGroups: [""], resources: ["pods", "pods/log"], verbs: ["get", "list"] }] },
  },
  {
    kind: "ClusterRole", apiVersion: `${RBAC}/v1`, collection: `/apis/${RBAC}/v1/clusterroles`, deleteCollection: true,
    body: { apiVersion: `${RBAC}/v1`, kind: "ClusterRole", metadata: { name: "pb-viewer", labels: { "pb.example.com/x": "1" } }, rules: [{ nonResourceURLs: ["/healthz"], verbs: ["get"] }] },
  },
  {
    kind: "RoleBinding", apiVersion: `${RBAC}/v1`, collection: `/apis/${RBAC}/v1/namespaces/${NS}/rolebindings`, deleteCollection: true,
    body: {
      apiVersion: `${RBAC}/v1`, kind: "RoleBinding", metadata: { name: "readers" }, roleRef: { apiGroup: RBAC, kind: "Role", name: "pod-reader" },
      subjects: [{ kind: "User", apiGroup: RBAC, name: "alice" }, { kind: "ServiceAccount", name: "default", namespace: NS }],
    },
  },
  {
    kind: "ClusterRoleBinding", apiVersion: `${RBAC}/v1`, collection: `/apis/${RBAC}/v1/clusterrolebindings`, deleteCollection: true,
    body: { apiVersion: `${RBAC}/v1`, kind: "ClusterRoleBinding", metadata: { name: "pb-viewers", labels: { "pb.example.com/x": "1" } }, roleRef: { apiGroup: RBAC, kind: "ClusterRole", name: "pb-viewer" }, subjects: [{ kind: "Group", apiGroup: RBAC, name: "devs" }] },
  },
  {
    kind: "Lease", apiVersion: "coordination.k8s.io/v1", collection: `/apis/coordination.k8s.io/v1/namespaces/${NS}/leases`, deleteCollection: true,
    body: { apiVersion: "coordination.k8s.io/v1", kind: "Lease", metadata: { name: "leader" }, spec: { holderIdentity: "a", leaseDurationSeconds: 15, renewTime: "2026-01-02T03:04:05.123456Z" } },
  },
];

describe("every kind answers protobuf", () => {
  test.each(cases.map((c) => [`${c.kind} (${c.apiVersion})`, c] as const))("%s: create, get, list, update, patch, delete", async (_name, c) => {
    const name = c.body.metadata.name as string;
    const item = `${c.collection}/${name}`;

    const created = await pb(server, "POST", c.collection, { body: c.body });
    expect(created.status, JSON.stringify(created.object)).toBe(201);
    expect(created.object).toMatchObject({ kind: c.kind, apiVersion: c.apiVersion, metadata: { name } });

    // The same object both ways.
    const { asJson, asProtobuf } = await bothWays(item);
    same(c.kind, asProtobuf, asJson);

    // The list both ways: <Kind>List, its list meta, and every item as JSON has it.
    for (let attempt = 0; ; attempt++) {
      const listJson = await json(server, c.collection);
      const list = await pb(server, "GET", c.collection);
      if (list.object.metadata.resourceVersion !== listJson.metadata.resourceVersion && attempt < 5) continue;
      expect(list.object.kind).toBe(`${c.kind}List`);
      expect(list.object.apiVersion).toBe(c.apiVersion);
      expect(list.object.metadata).toStrictEqual(listJson.metadata);
      same(`${c.kind}List`, list.object, { ...listJson, items: listJson.items.map(bare) });
      expect(list.object.items.map((i: any) => i.metadata.name)).toContain(name);
      break;
    }

    // Update (the object read back, labelled) and a merge patch: protobuf answers with the new state.
    const current = await json(server, item);
    const updated = await pb(server, "PUT", item, { body: { ...current, metadata: { ...current.metadata, labels: { ...current.metadata.labels, updated: "yes" } } } });
    expect(updated.status).toBe(200);
    expect(updated.object).toMatchObject({ kind: c.kind, apiVersion: c.apiVersion, metadata: { name, labels: { updated: "yes" } } });
    const patched = await pb(server, "PATCH", item, { body: { metadata: { annotations: { "pb.example.com/patched": "1" } } }, contentType: "application/merge-patch+json" });
    expect(patched.status).toBe(200);
    expect(patched.object.metadata.annotations["pb.example.com/patched"]).toBe("1");

    // Delete: the object or a Status, as the kind answers in JSON.
    const deleted = await pb(server, "DELETE", item);
    expect(deleted.status).toBe(200);
    expect(deleted.object.kind === "Status" ? deleted.object.status : deleted.object.metadata.name).toBe(deleted.object.kind === "Status" ? "Success" : name);
  });

  test.each(cases.filter((c) => c.deleteCollection).map((c) => [`${c.kind} (${c.apiVersion})`, c] as const))("%s: delete-collection", async (_name, c) => {
    const body = { ...c.body, metadata: { name: `${c.body.metadata.name}-dc`, labels: { "pb.example.com/dc": "yes" } } };
    if (c.kind === "Pod") delete body.spec.nodeName;
    expect((await raw(server, "POST", c.collection, { body })).status).toBe(201);
    const res = await pb(server, "DELETE", `${c.collection}?labelSelector=pb.example.com%2Fdc%3Dyes`);
    expect(res.status).toBe(200);
    if (res.object.kind === "Status") expect(res.object).toMatchObject({ apiVersion: "v1", status: "Success" });
    else {
      expect(res.object.kind).toBe(`${c.kind}List`);
      expect(res.object.items.map((i: any) => i.metadata.name)).toEqual([body.metadata.name]);
    }
    const left = await json(server, `${c.collection}?labelSelector=pb.example.com%2Fdc%3Dyes`);
    expect(left.items.filter((i: any) => !i.metadata.deletionTimestamp)).toEqual([]);
  });

  test("a protobuf request body, answered in protobuf", async () => {
    const body = encodeProtobufBody({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "pb-body" }, binaryData: { blob: Buffer.from([0, 1, 255]).toString("base64") } });
    const created = await pb(server, "POST", `/api/v1/namespaces/${NS}/configmaps`, { body, contentType: PB, accept: PB_JSON });
    expect(created.status).toBe(201);
    expect(created.object.binaryData).toEqual({ blob: "AAH/" });
    same("ConfigMap", created.object, await json(server, `/api/v1/namespaces/${NS}/configmaps/pb-body`));
  });
});

// ---- bytes fields ------------------------------------------------------------------------------------------

describe("bytes fields travel as their raw bytes", () => {
  const NON_UTF8 = Buffer.from([0x00, 0x01, 0xfe]); // "AAH+": not valid UTF-8 on its own
  const HIGH = Buffer.from([0xff, 0xc3, 0x28, 0x80, 0x7f]);
  const cms = `/api/v1/namespaces/${NS}/configmaps`;
  const secrets = `/api/v1/namespaces/${NS}/secrets`;
  const b64 = (b: Buffer) => b.toString("base64");

  /** The bytes of map entry `key` of field `fieldNo` in a ConfigMap/Secret message, read off the wire itself. */
  function wireEntry(message: Uint8Array, fieldNo: number, key: string): number[] | undefined {
    const r = new Reader(message);
    while (!r.done) {
      const { no, wire } = r.key("message");
      if (no !== fieldNo) { r.skip(wire); continue; }
      const [s, e] = r.delimited();
      const entry = new Reader(message, s, e);
      let k = "";
      let v: Uint8Array | undefined;
      while (!entry.done) if (entry.key("entry").no === 1) k = entry.string(); else v = entry.bytes();
      if (k === key) return [...(v ?? [])];
    }
    return undefined;
  }

  test("a ConfigMap's binaryData and a Secret's data: GET, list and watch in protobuf carry the bytes", async () => {
    const rv = (await pb(server, "GET", cms)).object.metadata.resourceVersion;
    const wCm = await openProtobufWatch(server, `${cms}?watch=true&resourceVersion=${rv}`);
    const wSecret = await openProtobufWatch(server, `${secrets}?watch=true&resourceVersion=${rv}`);
    expect((await raw(server, "POST", cms, { body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "bin" }, binaryData: { blob: b64(NON_UTF8), high: b64(HIGH) } } })).status).toBe(201);
    expect((await raw(server, "POST", secrets, { body: { apiVersion: "v1", kind: "Secret", metadata: { name: "bin" }, data: { key: b64(HIGH), nul: b64(NON_UTF8) } } })).status).toBe(201);

    // GET: the raw message holds the bytes themselves, and decodes to the base64 JSON shows.
    const got = await raw(server, "GET", `${cms}/bin`);
    expect(wireEntry(openEnvelope(got.body).raw, 3, "blob")).toEqual([0x00, 0x01, 0xfe]);
    expect(decode(got.body).binaryData).toStrictEqual({ blob: "AAH+", high: b64(HIGH) });
    const secret = await raw(server, "GET", `${secrets}/bin`);
    expect(wireEntry(openEnvelope(secret.body).raw, 2, "key")).toEqual([...HIGH]);
    expect(decode(secret.body).data).toStrictEqual((await json(server, `${secrets}/bin`)).data);

    // List and watch.
    const cmList = (await pb(server, "GET", cms)).object.items.find((i: any) => i.metadata.name === "bin");
    expect(cmList.binaryData).toStrictEqual({ blob: "AAH+", high: b64(HIGH) });
    const secretList = (await pb(server, "GET", secrets)).object.items.find((i: any) => i.metadata.name === "bin");
    expect(secretList.data).toStrictEqual({ key: b64(HIGH), nul: "AAH+" });
    const cmEvent = await wCm.waitFor((e) => e.type === "ADDED" && e.object.metadata.name === "bin");
    expect(cmEvent.object.binaryData).toStrictEqual({ blob: "AAH+", high: b64(HIGH) });
    const secretEvent = await wSecret.waitFor((e) => e.type === "ADDED" && e.object.metadata.name === "bin");
    expect(secretEvent.object.data).toStrictEqual({ key: b64(HIGH), nul: "AAH+" });
    wCm.close();
    wSecret.close();
  });

  test("a protobuf request body's bytes arrive as their base64 in JSON", async () => {
    const body = encodeProtobufBody({ apiVersion: "v1", kind: "Secret", metadata: { name: "bin-pb" }, type: "Opaque", data: { key: b64(HIGH), nul: b64(NON_UTF8) } });
    expect(body.includes(Buffer.from([0x12, 0x03, 0x00, 0x01, 0xfe])), "the body carries the bytes themselves").toBe(true);
    const created = await pb(server, "POST", secrets, { body, contentType: PB, accept: PB_JSON });
    expect(created.status).toBe(201);
    expect(created.object.data).toStrictEqual({ key: b64(HIGH), nul: "AAH+" });
    expect((await json(server, `${secrets}/bin-pb`)).data).toStrictEqual({ key: b64(HIGH), nul: "AAH+" });
    const cm = encodeProtobufBody({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "bin-pb" }, binaryData: { blob: "AAH+" } });
    expect((await raw(server, "POST", cms, { body: cm, contentType: PB })).status).toBe(201);
    expect((await json(server, `${cms}/bin-pb`)).binaryData).toStrictEqual({ blob: "AAH+" });
  });
});

// ---- errors and negotiation ----------------------------------------------------------------------------

describe("Status errors and content negotiation", () => {
  test("errors are protobuf Status objects: 404, 409, 422 with causes, 401", async () => {
    const missing = await pb(server, "GET", `/api/v1/namespaces/${NS}/configmaps/nope`, { accept: PB_JSON });
    expect(missing.status).toBe(404);
    expect(missing.object).toStrictEqual({
      kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message: 'configmaps "nope" not found', reason: "NotFound",
      details: { name: "nope", kind: "configmaps" }, code: 404,
    });
    await raw(server, "POST", `/api/v1/namespaces/${NS}/configmaps`, { body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "twice" } } });
    const conflict = await pb(server, "POST", `/api/v1/namespaces/${NS}/configmaps`, { body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "twice" } } });
    expect(conflict.status).toBe(409);
    expect(conflict.object).toMatchObject({ kind: "Status", reason: "AlreadyExists", message: 'configmaps "twice" already exists', code: 409 });
    const invalid = await pb(server, "POST", `/api/v1/namespaces/${NS}/configmaps`, { body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "Not_Valid" } } });
    expect(invalid.status).toBe(422);
    const asJson = await raw(server, "POST", `/api/v1/namespaces/${NS}/configmaps`, { accept: "application/json", body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "Not_Valid" } } });
    expect(invalid.object).toStrictEqual(JSON.parse(asJson.body.toString()));
    expect(invalid.object.details.causes.length).toBeGreaterThan(0);
    const unauthorized = await pb(server, "GET", `/api/v1/namespaces/${NS}/configmaps`, { token: null });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.object).toMatchObject({ kind: "Status", reason: "Unauthorized", code: 401 });
  });

  test("q-values, wildcards and fallbacks choose the serializer", async () => {
    const path = `/api/v1/namespaces/${NS}/configmaps/kube-root-ca.crt`;
    const type = async (accept: string) => (await raw(server, "GET", path, { accept })).contentType;
    expect(await type("application/json;q=0.5, application/vnd.kubernetes.protobuf;q=0.9")).toBe(PB);
    expect(await type("application/vnd.kubernetes.protobuf;q=0.5, application/json")).toBe("application/json");
    expect(await type("text/html, application/vnd.kubernetes.protobuf")).toBe(PB);
    expect(await type("*/*")).toBe("application/json");
    // goautoneg's order puts a concrete type before a wildcard, whatever the q-values.
    expect(await type("*/*;q=0.9, application/yaml;q=0.1")).toBe("application/yaml");
    expect(await type(`${PB};as=Table;g=meta.k8s.io;v=v1, application/json;as=Table;g=meta.k8s.io;v=v1`)).toBe("application/json");
  });

  test("406: nothing acceptable is written as kube's indented JSON Status", async () => {
    for (const accept of ["text/html", `${PB};as=Table;g=meta.k8s.io;v=v1`]) {
      const res = await raw(server, "GET", `/api/v1/namespaces/${NS}/configmaps`, { accept });
      expect(res.status).toBe(406);
      expect(res.contentType).toBe("application/json");
      expect(res.body.toString()).toBe(JSON.stringify({ kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message: OFFERED, reason: "NotAcceptable", code: 406 }, null, 2));
    }
    const watchYaml = await raw(server, "GET", `/api/v1/namespaces/${NS}/configmaps?watch=true`, { accept: "application/yaml" });
    expect(watchYaml.status).toBe(406);
    expect(watchYaml.contentType).toBe("application/yaml");
    expect(YAML.parse(watchYaml.body.toString())).toStrictEqual({
      kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", reason: "NotAcceptable", code: 406,
      message: "only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch",
    });
  });

  test("406: a metadata view that does not fit the answer, in protobuf and JSON, naming kube's internal type", async () => {
    const cases: [string, string, string][] = [
      [`/api/v1/namespaces/${NS}/configmaps`, "PartialObjectMetadata", "you requested PartialObjectMetadata, but the requested object is a list (*core.ConfigMapList)"],
      [`/api/v1/namespaces/${NS}/configmaps/kube-root-ca.crt`, "PartialObjectMetadataList", "you requested PartialObjectMetadataList, but the requested object is not a list (*core.ConfigMap)"],
      [`/apis/${RBAC}/v1/clusterroles`, "PartialObjectMetadata", "you requested PartialObjectMetadata, but the requested object is a list (*rbac.ClusterRoleList)"],
      [`/apis/coordination.k8s.io/v1/namespaces/${NS}/leases`, "PartialObjectMetadata", "you requested PartialObjectMetadata, but the requested object is a list (*coordination.LeaseList)"],
      ["/api/v1/namespaces/default", "PartialObjectMetadataList", "you requested PartialObjectMetadataList, but the requested object is not a list (*core.Namespace)"],
    ];
    for (const [path, as, message] of cases) {
      for (const media of [PB, "application/json"]) {
        // With a plain JSON fallback the error is compact JSON; without one, kube's indented JSON.
        for (const fallback of [", application/json", ""]) {
          const res = await raw(server, "GET", path, { accept: `${media};as=${as};g=meta.k8s.io;v=v1${fallback}` });
          expect(res.status, `${path} ${as} ${media}${fallback}`).toBe(406);
          expect(res.contentType).toBe("application/json");
          const status = JSON.parse(res.body.toString());
          expect(status).toStrictEqual({ kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message, reason: "NotAcceptable", code: 406 });
          expect(res.body.toString().includes("\n  ")).toBe(fallback === "");
        }
      }
    }
  });
});

// ---- metadata-only views ---------------------------------------------------------------------------------

describe("client-go's metadata client", () => {
  test("get and list as PartialObjectMetadata[List] in protobuf, the full ObjectMeta", async () => {
    const path = "/api/v1/namespaces/pb-meta/serviceaccounts";
    const asJson = await json(server, `${path}/default`);
    const got = await pb(server, "GET", `${path}/default`, { accept: META_GET });
    expect(got.object).toStrictEqual({ kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata: asJson.metadata });
    const listJson = await json(server, path);
    const list = await pb(server, "GET", path, { accept: META_LIST });
    expect(list.object).toStrictEqual({ kind: "PartialObjectMetadataList", apiVersion: "meta.k8s.io/v1", metadata: listJson.metadata, items: listJson.items.map((i: any) => ({ metadata: i.metadata })) });
    // The JSON forms (the clients' second choice), and v1beta1.
    const jsonView = await raw(server, "GET", `${path}/default`, { accept: "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1" });
    expect(JSON.parse(jsonView.body.toString())).toStrictEqual({ kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1beta1", metadata: asJson.metadata });
  });

  test("a metadata watch: PartialObjectMetadata frames, bookmarks included; as=PartialObjectMetadataList ends the stream", async () => {
    const path = "/api/v1/namespaces/pb-meta/configmaps";
    const w = await openProtobufWatch(server, `${path}?watch=true&allowWatchBookmarks=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan`, `${PB};as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json`);
    const bookmark = await w.waitFor((e) => e.type === "BOOKMARK");
    expect(bookmark.object).toMatchObject({ kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata: { annotations: { "k8s.io/initial-events-end": "true" } } });
    const added = w.events.find((e) => e.type === "ADDED")!;
    expect(added.object).toStrictEqual({ kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata: (await json(server, `${path}/${added.object.metadata.name}`)).metadata });
    await raw(server, "POST", path, { body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "m1" }, data: { a: "b" } } });
    const ev = await w.waitFor((e) => e.type === "ADDED" && e.object.metadata.name === "m1");
    expect(ev.object.kind).toBe("PartialObjectMetadata");
    expect(ev.object).not.toHaveProperty("data");
    w.close();
    // The JSON metadata watch converts its bookmarks too.
    const jw = await openWatch(server, `${path}?watch=true&allowWatchBookmarks=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan`, { accept: "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1" });
    const jsonBookmark = await jw.waitForEvent((e) => e.type === "BOOKMARK");
    expect(jsonBookmark.object).toMatchObject({ kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata: { annotations: { "k8s.io/initial-events-end": "true" } } });
    const jsonAdded = jw.events.filter((e) => e.type === "ADDED");
    expect(jsonAdded.map((e) => e.object.metadata.name)).toContain("m1");
    expect(jsonAdded.every((e) => e.object.kind === "PartialObjectMetadata" && !("data" in e.object))).toBe(true);
    jw.close();

    const listView = await openProtobufWatch(server, `${path}?watch=true`, `${PB};as=PartialObjectMetadataList;g=meta.k8s.io;v=v1`);
    expect(await Promise.race([listView.ended, sleep(10_000).then(() => "still open")])).toBe("ended");
    expect(listView.events).toEqual([]);
  });
});

// ---- watches ---------------------------------------------------------------------------------------------

interface Event { type: string; object: any }

interface ProtobufWatch {
  status: number;
  contentType: string;
  events: Event[];
  ended: Promise<"ended">;
  waitFor(pred: (e: Event) => boolean, timeoutMs?: number): Promise<Event>;
  close(): void;
}

/** A watch whose frames are decoded here: 4-byte big-endian length, WatchEvent{type=1, object=2{raw=1}}. */
function openProtobufWatch(s: Server, urlPath: string, accept = PB): Promise<ProtobufWatch> {
  return new Promise((resolve, reject) => {
    const events: Event[] = [];
    let pending = Buffer.alloc(0);
    let endedResolve!: (v: "ended") => void;
    const ended = new Promise<"ended">((r) => (endedResolve = r));
    const listeners = new Set<() => void>();
    const req = https.request({ host: "127.0.0.1", port: s.port, path: urlPath, ca: s.ca, agent: false, headers: { Accept: accept, Authorization: `Bearer ${s.token}` } }, (res) => {
      res.on("data", (chunk: Buffer) => {
        pending = Buffer.concat([pending, chunk]);
        while (pending.length >= 4 && pending.length >= 4 + pending.readUInt32BE(0)) {
          const frame = pending.subarray(4, 4 + pending.readUInt32BE(0));
          pending = pending.subarray(4 + frame.length);
          const event = decodeMessage("WatchEvent", frame) as { type: string; object: { raw: string } };
          events.push({ type: event.type, object: decode(Buffer.from(event.object.raw, "base64")) });
        }
        for (const l of [...listeners]) l();
      });
      res.on("end", () => { endedResolve("ended"); for (const l of [...listeners]) l(); });
      res.on("error", () => endedResolve("ended"));
      resolve({
        status: res.statusCode ?? 0,
        contentType: String(res.headers["content-type"]),
        events,
        ended,
        waitFor: (pred, timeoutMs = 15_000) => new Promise((ok, fail) => {
          const check = () => {
            const found = events.find(pred);
            if (found) { listeners.delete(check); clearTimeout(timer); ok(found); }
          };
          const timer = setTimeout(() => { listeners.delete(check); fail(new Error(`no such event in ${events.length} events: ${JSON.stringify(events.map((e) => [e.type, e.object.metadata?.name, e.object.metadata?.resourceVersion]))}`)); }, timeoutMs);
          listeners.add(check);
          check();
        }),
        close: () => req.destroy(),
      });
    });
    req.on("error", (err) => { if (!(err as NodeJS.ErrnoException).code?.startsWith("ECONNRESET")) reject(err); });
    req.end();
  });
}

describe("protobuf watches", () => {
  const path = "/api/v1/namespaces/pb-watch/configmaps";
  const cm = (name: string, data: Record<string, string>, labels: Record<string, string> = {}) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, labels }, data });

  test("an informer-style cache stays in sync through ADDED, MODIFIED, DELETED and bookmarks; the frames hold what JSON's lines hold", async () => {
    // List (protobuf), then watch from the list's resourceVersion, as a reflector does.
    const listed = await pb(server, "GET", path);
    const cache = new Map<string, any>(listed.object.items.map((i: any) => [i.metadata.name, i]));
    const rv = listed.object.metadata.resourceVersion;
    const w = await openProtobufWatch(server, `${path}?watch=true&allowWatchBookmarks=true&resourceVersion=${rv}`, PB_JSON);
    expect(w.status).toBe(200);
    expect(w.contentType).toBe(PB_WATCH);
    const selected = await openProtobufWatch(server, `${path}?watch=true&labelSelector=tier%3Dfront&resourceVersion=${rv}`);
    const jsonLines: string[] = [];
    const jsonWatch = await new Promise<() => void>((resolve) => {
      const req = https.request({ host: "127.0.0.1", port: server.port, path: `${path}?watch=true&resourceVersion=${rv}`, ca: server.ca, agent: false, headers: { Authorization: `Bearer ${server.token}` } }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => { text += c; const lines = text.split("\n"); text = lines.pop()!; jsonLines.push(...lines.filter(Boolean)); });
        resolve(() => req.destroy());
      });
      req.on("error", () => {});
      req.end();
    });

    // Changes: creates, updates (one moves into and out of the selector), deletes, a delete-collection.
    for (const n of ["a", "b", "c", "d"]) expect((await raw(server, "POST", path, { body: cm(n, { v: "1" }, n === "d" ? { gone: "yes" } : {}) })).status).toBe(201);
    await raw(server, "PATCH", `${path}/a`, { body: { data: { v: "2" }, metadata: { labels: { tier: "front" } } }, contentType: "application/merge-patch+json" });
    await raw(server, "PATCH", `${path}/b`, { body: { data: { v: "2", w: "x".repeat(300) } }, contentType: "application/merge-patch+json" });
    await raw(server, "PATCH", `${path}/a`, { body: { metadata: { labels: { tier: "back" } } }, contentType: "application/merge-patch+json" });
    await raw(server, "DELETE", `${path}/c`);
    await raw(server, "DELETE", `${path}?labelSelector=gone%3Dyes`);
    const last = await pb(server, "POST", path, { body: cm("e", { v: "1" }) });
    const lastRv = last.object.metadata.resourceVersion;

    await w.waitFor((e) => e.object.metadata.resourceVersion === lastRv);
    const changes = w.events.filter((e) => e.type !== "BOOKMARK");
    for (const e of changes) {
      if (e.type === "ADDED" || e.type === "MODIFIED") cache.set(e.object.metadata.name, bare(e.object));
      else if (e.type === "DELETED") cache.delete(e.object.metadata.name);
    }
    const relisted = await pb(server, "GET", path);
    expect(relisted.object.metadata.resourceVersion).toBe(lastRv);
    expect(Object.fromEntries(cache)).toStrictEqual(Object.fromEntries(relisted.object.items.map((i: any) => [i.metadata.name, i])));
    expect(changes.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual([
      "ADDED a", "ADDED b", "ADDED c", "ADDED d", "MODIFIED a", "MODIFIED b", "MODIFIED a", "DELETED c", "DELETED d", "ADDED e",
    ]);
    expect(w.events.every((e) => e.object.kind === "ConfigMap" && e.object.apiVersion === "v1")).toBe(true);
    expect(w.events.filter((e) => e.type === "BOOKMARK").every((e) => Number(e.object.metadata.resourceVersion) > 0)).toBe(true);

    // The JSON watch saw the same events, object for object.
    await waitUntil(() => jsonLines.some((l) => l.includes(`"resourceVersion":"${lastRv}"`)));
    const jsonEvents = jsonLines.map((l) => JSON.parse(l));
    expect(changes.map((e) => e.type)).toEqual(jsonEvents.map((e) => e.type));
    changes.forEach((e, i) => same("ConfigMap", e.object, jsonEvents[i].object));
    // A selector transition: ADDED when it starts matching, DELETED (at that revision) when it stops.
    const sel = await selected.waitFor((e) => e.type === "DELETED");
    expect(selected.events.map((e) => `${e.type} ${e.object.metadata.name} ${e.object.metadata.labels?.tier}`)).toEqual(["ADDED a front", "DELETED a front"]);
    expect(Number(sel.object.metadata.resourceVersion)).toBeGreaterThan(Number(selected.events[0].object.metadata.resourceVersion));
    w.close();
    selected.close();
    jsonWatch();
  });

  test("initial events, then the initial-events-end bookmark, in protobuf", async () => {
    const w = await openProtobufWatch(server, `${path}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`);
    const bookmark = await w.waitFor((e) => e.type === "BOOKMARK");
    const listed = (await pb(server, "GET", path)).object;
    expect(w.events.slice(0, -1).map((e) => e.type)).toEqual(listed.items.map(() => "ADDED"));
    same("ConfigMapList", { items: w.events.slice(0, -1).map((e) => bare(e.object)) }, { items: listed.items });
    expect(bookmark.object).toStrictEqual({
      kind: "ConfigMap", apiVersion: "v1",
      metadata: { resourceVersion: listed.metadata.resourceVersion, creationTimestamp: null, annotations: { "k8s.io/initial-events-end": "true" } },
    });
    w.close();
  });

  test("the watch of SecurityContextConstraints under security.openshift.io carries that group's apiVersion", async () => {
    const collection = "/apis/security.openshift.io/v1/securitycontextconstraints";
    const w = await openProtobufWatch(server, `${collection}?watch=true&fieldSelector=metadata.name%3Drestricted-v2`);
    const ev = await w.waitFor((e) => e.type === "ADDED");
    expect(ev.object.apiVersion).toBe("security.openshift.io/v1");
    same("SecurityContextConstraints", ev.object, await json(server, `${collection}/restricted-v2`));
    w.close();
  });

  test("a too old resourceVersion: one ERROR frame with a 410 Expired Status, then the stream ends", async () => {
    const p = "/api/v1/namespaces/default/configmaps";
    const first = await pb(shortWindow, "POST", p, { body: cm("old", { k: "1" }) });
    await raw(shortWindow, "PATCH", `${p}/old`, { body: { data: { k: "2" } }, contentType: "application/merge-patch+json" });
    const deadline = Date.now() + 20_000;
    for (;;) {
      await sleep(1_000);
      const w = await openProtobufWatch(shortWindow, `${p}?watch=true&resourceVersion=${first.object.metadata.resourceVersion}`);
      const done = await Promise.race([w.ended, sleep(1_500).then(() => "open")]);
      if (done === "ended" && w.events.length === 1 && w.events[0].type === "ERROR") {
        expect(w.events[0].object).toMatchObject({ kind: "Status", apiVersion: "v1", status: "Failure", reason: "Expired", code: 410 });
        expect(w.events[0].object.message).toMatch(/^too old resource version: \d+ \(\d+\)$/);
        return;
      }
      w.close();
      if (Date.now() > deadline) throw new Error(`no ERROR frame: ${JSON.stringify(w.events)}`);
    }
  });
});

async function waitUntil(cond: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await sleep(20);
  }
}

// ---- kubectl ---------------------------------------------------------------------------------------------

describe("kubectl's typed requests (Accept: protobuf, json) now get protobuf and still work", () => {
  const protobufAnswers = (stderr: string) => (stderr.match(/Response Headers:[\s\S]*?Content-Type: ([^\s]+)/g) ?? []).map((m) => m.split("Content-Type: ")[1]);

  test.each([
    [["create", "configmap", "kc-cm", "-n", NS, "--from-literal=a=b"], /configmap\/kc-cm created/],
    [["create", "secret", "generic", "kc-secret", "-n", NS, "--from-literal=a=b"], /secret\/kc-secret created/],
    [["create", "namespace", "pb-kubectl"], /namespace\/pb-kubectl created/],
    [["create", "role", "kc-role", "-n", NS, "--verb=get", "--resource=pods"], /role.rbac.authorization.k8s.io\/kc-role created/],
    [["create", "serviceaccount", "kc-sa", "-n", NS], /serviceaccount\/kc-sa created/],
    [["auth", "can-i", "get", "pods", "-n", NS], /^yes$/m],
    [["auth", "whoami"], /admin/],
  ])("kubectl %j", async (args, out) => {
    const res = await server.kubectl([...args, "-v=8"]);
    expect(res.stdout).toMatch(out);
    expect(protobufAnswers(res.stderr)).toContain(PB);
  });

  test("kubectl create token gets a TokenRequest in protobuf; an AlreadyExists Status in protobuf is reported as kubectl reports it", async () => {
    const token = await server.kubectl(["create", "token", "default", "-n", NS, "-v=8"]);
    expect(token.stdout.trim()).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(protobufAnswers(token.stderr)).toContain(PB);
    const again = await server.kubectl(["create", "configmap", "kc-cm", "-n", NS, "--from-literal=a=b"], { allowFail: true });
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe('error: failed to create configmap: configmaps "kc-cm" already exists');
  });
});
