// R-HTTP (performance.md §8.2): a bare node:https server serving the same JSON as ours, with no pipeline in
// between. It loads the objects our server holds (FIXTURE: one stored object JSON per line, written by
// bench/run.ts after seeding, so the bytes are identical) and answers
//   GET  /api/v1/namespaces/<ns>/configmaps/<name>   the pre-serialised object (a Map lookup)
//   GET  /api/v1/namespaces/<ns>/configmaps[?limit=&continue=]   the List, built per request by splicing the
//        stored JSON strings exactly as lib/api/encode/list.ts does (keyset pagination; from memory, no SQLite)
//   POST /api/v1/namespaces/<ns>/configmaps   parse, stamp metadata, stringify (the HTTP + JSON ceiling)
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { JSON_HEADERS, readBody, serve } from "./serve";

const objects = new Map<string, Buffer>();
const byNamespace = new Map<string, { names: string[]; json: string[] }>();
if (process.env.FIXTURE) {
  const lines = readFileSync(process.env.FIXTURE, "utf8").split("\n").filter(Boolean);
  const parsed = lines.map((json) => ({ json, meta: (JSON.parse(json) as { metadata: { namespace: string; name: string } }).metadata }));
  parsed.sort((a, b) => (a.meta.namespace === b.meta.namespace ? (a.meta.name < b.meta.name ? -1 : 1) : a.meta.namespace < b.meta.namespace ? -1 : 1));
  for (const { json, meta } of parsed) {
    objects.set(`/api/v1/namespaces/${meta.namespace}/configmaps/${meta.name}`, Buffer.from(`${json}\n`));
    let ns = byNamespace.get(meta.namespace);
    if (!ns) { ns = { names: [], json: [] }; byNamespace.set(meta.namespace, ns); }
    ns.names.push(meta.name);
    ns.json.push(json);
  }
}
const listRv = process.env.LIST_RV ?? "1";
let rv = 1_000_000;

const LIST_PATH = /^\/api\/v1\/namespaces\/([^/]+)\/configmaps$/;

function upperBound(a: string[], x: string): number {
  let lo = 0, hi = a.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (a[mid] <= x) lo = mid + 1; else hi = mid; }
  return lo;
}

serve("bare-http", (req, res) => {
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  const path = q < 0 ? url : url.slice(0, q);
  if (req.method === "GET") {
    const obj = objects.get(path);
    if (obj) { res.writeHead(200, JSON_HEADERS); res.end(obj); return; }
    const m = LIST_PATH.exec(path);
    if (m) {
      const params = new URLSearchParams(q < 0 ? "" : url.slice(q + 1));
      const ns = byNamespace.get(m[1]) ?? { names: [], json: [] };
      const limit = Number(params.get("limit") ?? 0);
      const cont = params.get("continue");
      // Same token shape as lib/registry/continue-token.ts: {"v","rv","start":"<ns>/<name>\u0000"}.
      const after = cont ? (JSON.parse(Buffer.from(cont, "base64url").toString()) as { start: string }).start.slice(m[1].length + 1, -1) : undefined;
      const start = after !== undefined ? upperBound(ns.names, after) : 0;
      const end = limit > 0 ? Math.min(ns.names.length, start + limit) : ns.names.length;
      const meta: Record<string, unknown> = { resourceVersion: listRv };
      if (end < ns.names.length) {
        meta.continue = Buffer.from(JSON.stringify({ v: "meta.k8s.io/v1", rv: Number(listRv), start: `${m[1]}/${ns.names[end - 1]}\u0000` })).toString("base64url");
        meta.remainingItemCount = ns.names.length - end;
      }
      const prefix = JSON.stringify({ kind: "ConfigMapList", apiVersion: "v1", metadata: meta }).slice(0, -1);
      res.writeHead(200, JSON_HEADERS);
      res.end(`${prefix},"items":[${ns.json.slice(start, end).join(",")}]}\n`);
      return;
    }
    res.writeHead(404, JSON_HEADERS);
    res.end('{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}\n');
    return;
  }
  if (req.method === "POST") {
    void readBody(req).then((body) => {
      const obj = JSON.parse(body.toString()) as { metadata: Record<string, unknown> };
      obj.metadata.uid = randomUUID();
      obj.metadata.creationTimestamp = new Date().toISOString().replace(/\.\d+Z$/, "Z");
      obj.metadata.resourceVersion = String(++rv);
      res.writeHead(201, JSON_HEADERS);
      res.end(`${JSON.stringify(obj)}\n`);
    });
    return;
  }
  res.writeHead(405, JSON_HEADERS);
  res.end("{}\n");
});
