// R-HTTP (performance.md §8.2): a bare node:https server serving the same JSON as ours, with no pipeline in
// between. It loads the objects our server holds (FIXTURE: one stored object JSON per line, written by
// bench/run.ts or bench/scale.ts after seeding, so the bytes are identical) and answers
//   GET  /api/v1/namespaces/<ns>/<resource>/<name>   the pre-serialised object (a Map lookup)
//   GET  /api/v1/namespaces/<ns>/<resource>[?limit=&continue=] and /api/v1/<resource> (all namespaces)
//        the List, built per request by splicing the stored JSON strings exactly as lib/api/encode/list.ts
//        does (keyset pagination; from memory, no SQLite). With REF_STREAM_LISTS=1 (bench/scale.ts: lists too
//        large for one string) the same bytes are written as they are spliced, in chunks of 64 KiB with the
//        socket's backpressure, as our server writes a list.
//   POST /api/v1/namespaces/<ns>/configmaps   parse, stamp metadata, stringify (the HTTP + JSON ceiling)
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import type http from "node:http";
import { JSON_HEADERS, readBody, serve } from "./serve";

const STREAM = process.env.REF_STREAM_LISTS === "1";
const CHUNK_BYTES = 64 * 1024;

interface Listed { names: string[]; json: string[]; bytes: Buffer[] }
const objects = new Map<string, Buffer>();
/** `<resource>` (all namespaces, ordered by namespace then name) and `<ns>/<resource>`. */
const lists = new Map<string, Listed>();
const kinds = new Map<string, string>();

function listOf(key: string): Listed {
  let l = lists.get(key);
  if (!l) { l = { names: [], json: [], bytes: [] }; lists.set(key, l); }
  return l;
}

if (process.env.FIXTURE) {
  // Read as bytes and split on newlines: a fixture of 150,000 pods is larger than one JS string may be.
  const file = readFileSync(process.env.FIXTURE);
  const parsed: { line: Buffer; ns: string; name: string; resource: string; kind: string }[] = [];
  for (let at = 0; at < file.length;) {
    let end = file.indexOf(10, at);
    if (end < 0) end = file.length;
    if (end > at) {
      const line = file.subarray(at, end);
      const o = JSON.parse(line.toString()) as { kind: string; metadata: { namespace: string; name: string } };
      parsed.push({ line, ns: o.metadata.namespace, name: o.metadata.name, kind: o.kind, resource: `${o.kind.toLowerCase()}s` });
    }
    at = end + 1;
  }
  parsed.sort((a, b) => (a.ns === b.ns ? (a.name < b.name ? -1 : 1) : a.ns < b.ns ? -1 : 1));
  for (const { line, ns, name, resource, kind } of parsed) {
    objects.set(`/api/v1/namespaces/${ns}/${resource}/${name}`, Buffer.concat([line, Buffer.from("\n")]));
    kinds.set(resource, kind);
    const json = STREAM ? "" : line.toString();
    for (const [key, listName] of [[`${ns}/${resource}`, name], [resource, `${ns}/${name}`]]) {
      const l = listOf(key);
      l.names.push(listName);
      if (STREAM) l.bytes.push(line); else l.json.push(json);
    }
  }
}
const listRv = process.env.LIST_RV ?? "1";
let rv = 1_000_000;

const LIST_PATH = /^\/api\/v1\/(?:namespaces\/([^/]+)\/)?([a-z]+)$/;

function upperBound(a: string[], x: string): number {
  let lo = 0, hi = a.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (a[mid] <= x) lo = mid + 1; else hi = mid; }
  return lo;
}

/** Write `pieces` in chunks of about CHUNK_BYTES, waiting for 'drain' when the socket's buffer is full. */
async function writeStreamed(res: http.ServerResponse, head: string, items: Buffer[], start: number, end: number): Promise<void> {
  let pending: Buffer[] = [Buffer.from(head)];
  let length = pending[0].length;
  const comma = Buffer.from(",");
  const flush = async () => {
    const ok = res.write(pending.length === 1 ? pending[0] : Buffer.concat(pending, length));
    pending = [];
    length = 0;
    if (!ok) await new Promise<void>((resolve) => { res.once("drain", resolve); res.once("close", resolve); });
  };
  for (let i = start; i < end; i++) {
    if (res.destroyed) return;
    if (i > start) { pending.push(comma); length += 1; }
    pending.push(items[i]);
    length += items[i].length;
    if (length >= CHUNK_BYTES) await flush();
  }
  pending.push(Buffer.from("]}\n"));
  res.end(Buffer.concat(pending));
}

serve("bare-http", (req, res) => {
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  const path = q < 0 ? url : url.slice(0, q);
  if (req.method === "GET") {
    const obj = objects.get(path);
    if (obj) { res.writeHead(200, JSON_HEADERS); res.end(obj); return; }
    const m = LIST_PATH.exec(path);
    if (m && (m[1] !== undefined || m[2] !== "namespaces")) {
      const params = new URLSearchParams(q < 0 ? "" : url.slice(q + 1));
      const nsName = m[1];
      const l = lists.get(nsName === undefined ? m[2] : `${nsName}/${m[2]}`) ?? { names: [], json: [], bytes: [] };
      const limit = Number(params.get("limit") ?? 0);
      const cont = params.get("continue");
      // Same token shape as lib/registry/continue-token.ts: {"v","rv","start":"<ns>/<name>\u0000"} (namespaced
      // lists carry the namespace in the key; an all-namespaces list's names are already "<ns>/<name>").
      const prefixLength = nsName === undefined ? 0 : nsName.length + 1;
      const after = cont ? (JSON.parse(Buffer.from(cont, "base64url").toString()) as { start: string }).start.slice(prefixLength, -1) : undefined;
      const start = after !== undefined ? upperBound(l.names, after) : 0;
      const end = limit > 0 ? Math.min(l.names.length, start + limit) : l.names.length;
      const meta: Record<string, unknown> = { resourceVersion: listRv };
      if (end < l.names.length) {
        const last = nsName === undefined ? l.names[end - 1] : `${nsName}/${l.names[end - 1]}`;
        meta.continue = Buffer.from(JSON.stringify({ v: "meta.k8s.io/v1", rv: Number(listRv), start: `${last}\u0000` })).toString("base64url");
        meta.remainingItemCount = l.names.length - end;
      }
      const kind = kinds.get(m[2]) ?? "ConfigMap";
      const prefix = JSON.stringify({ kind: `${kind}List`, apiVersion: "v1", metadata: meta }).slice(0, -1);
      res.writeHead(200, JSON_HEADERS);
      if (STREAM) { void writeStreamed(res, `${prefix},"items":[`, l.bytes, start, end); return; }
      res.end(`${prefix},"items":[${l.json.slice(start, end).join(",")}]}\n`);
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
