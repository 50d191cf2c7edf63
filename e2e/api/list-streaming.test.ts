// Lists stream (issue 23 item 3): a list of 20,000 ConfigMaps (about 30 MB of JSON) is written as the client
// reads it. Clients that stop reading midway, over HTTP/1.1 and HTTP/2, in JSON, protobuf and Table, leave the
// server holding a bounded buffer (its resident memory barely moves, where the whole answers would be over
// 100 MB), and each still gets its whole, correct list when it reads on. A WatchList (sendInitialEvents) of the
// same objects whose client pauses gets every initial event and its bookmark, where the server used to cut it
// off at the 8 MiB watch backlog. Overload is refused, not fatal (item 4): beyond the memory budget for list
// answers in flight (LIST_MEMORY_BUDGET_BYTES) a full list gets kube's 429 with Retry-After, while pages,
// GETs and watches keep being served.
import { mkdtemp } from "node:fs/promises";
import http2 from "node:http2";
import os from "node:os";
import path from "node:path";
import tls from "node:tls";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { decodeMessage } from "../../lib/codec/protobuf/decode";
import { openEnvelope } from "../../lib/codec/protobuf/fixtures/envelope";
import { kindByPlural, kinds } from "../../lib/kinds";
import { Registry } from "../../lib/registry/registry";
import { openStore } from "../../lib/storage";
import { openWatch, sleep } from "./cluster";
import { startServer, stopAll, type Server } from "./harness";

const NS = "big";
const COUNT = 20_000;
/** The seeded ConfigMaps and the namespace's kube-root-ca.crt (which sorts after them). */
const ITEMS = COUNT + 1;
const VALUE = "v".repeat(1400);
const LIST = `/api/v1/namespaces/${NS}/configmaps`;
const PROTOBUF = "application/vnd.kubernetes.protobuf";
const TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io";
const BUDGET = 4_500_000;
let server: Server;

/** The ConfigMaps written through the registry over the store on the server's data directory, before it starts. */
async function seed(dataDir: string): Promise<void> {
  const store = await openStore({ databaseUrl: `file:${path.join(dataDir, "cluster-core.db")}`, compactionWindowSeconds: 300 });
  const registry = new Registry(store, kinds);
  const opts = { dryRun: false, fieldValidation: "Warn" as const };
  try {
    await registry.create(kindByPlural("namespaces")!, undefined, { apiVersion: "v1", kind: "Namespace", metadata: { name: NS } }, opts);
    let next = 0;
    const worker = async () => {
      while (next < COUNT) {
        const i = next++;
        await registry.create(kindByPlural("configmaps")!, NS, { apiVersion: "v1", kind: "ConfigMap", metadata: { name: `cm-${String(i).padStart(5, "0")}` }, data: { value: VALUE } }, opts);
      }
    };
    await Promise.all(Array.from({ length: 128 }, worker));
  } finally {
    registry.close();
    await store.close();
  }
}

beforeAll(async () => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "cluster-core-list-streaming-"));
  await seed(dataDir);
  // Room for four full lists in flight (each counts 1 MB: its objects' bytes, capped as a streamed answer).
  server = await startServer({ dataDir, env: { LIST_MEMORY_BUDGET_BYTES: String(BUDGET) } });
}, 600_000);
afterAll(stopAll);

async function rss(): Promise<number> {
  const text = (await server.request("GET", "/metrics")).text;
  const line = text.split("\n").find((l) => l.startsWith("process_resident_memory_bytes "));
  return Number(line!.split(" ")[1]);
}

/** The highest resident memory seen over `ms`. */
async function peakRss(ms: number): Promise<number> {
  let peak = 0;
  for (const end = Date.now() + ms; Date.now() < end; await sleep(200)) peak = Math.max(peak, await rss());
  return peak;
}

interface SlowReader {
  /** Bytes of the body received so far. */
  received(): number;
  /** Read on to the end; resolves with the status and the whole body. */
  finish(): Promise<{ status: number; body: Buffer }>;
}

/** An HTTP/1.1 GET over a raw TLS socket that stops reading after about `first` bytes of the answer. */
function slowHttp1(urlPath: string, accept: string, first: number): Promise<SlowReader> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let paused = false;
    let done: (v: Buffer) => void;
    const ended = new Promise<Buffer>((r) => { done = r; });
    const socket = tls.connect({ host: "127.0.0.1", port: server.port, ca: server.ca, servername: "localhost" }, () => {
      socket.write(`GET ${urlPath} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${server.token}\r\nAccept: ${accept}\r\nConnection: close\r\n\r\n`);
    });
    socket.on("data", (c: Buffer) => {
      chunks.push(c);
      size += c.length;
      if (!paused && size >= first) {
        paused = true;
        socket.pause();
        resolve(reader);
      }
    });
    socket.on("end", () => done(Buffer.concat(chunks)));
    socket.on("close", () => done(Buffer.concat(chunks)));
    socket.on("error", reject);
    const reader: SlowReader = {
      received: () => size,
      finish: async () => {
        socket.resume();
        const raw = await ended;
        const head = raw.indexOf("\r\n\r\n");
        const status = Number(raw.subarray(9, 12).toString());
        return { status, body: dechunk(raw.subarray(head + 4)) };
      },
    };
  });
}

/** An HTTP/1.1 chunked body, whole. */
function dechunk(raw: Buffer): Buffer {
  const out: Buffer[] = [];
  let p = 0;
  for (;;) {
    const eol = raw.indexOf("\r\n", p);
    const len = parseInt(raw.subarray(p, eol).toString(), 16);
    if (!len) return Buffer.concat(out);
    out.push(raw.subarray(eol + 2, eol + 2 + len));
    p = eol + 2 + len + 2;
  }
}

/** The same over HTTP/2: the stream stops being read (flow control then holds the server back). */
function slowHttp2(session: http2.ClientHttp2Session, urlPath: string, accept: string, first: number): Promise<SlowReader> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let status = 0;
    let paused = false;
    let done: () => void;
    const ended = new Promise<void>((r) => { done = r; });
    const stream = session.request({ ":path": urlPath, authorization: `Bearer ${server.token}`, accept });
    stream.on("response", (h) => { status = Number(h[":status"]); });
    stream.on("data", (c: Buffer) => {
      chunks.push(c);
      size += c.length;
      if (!paused && size >= first) {
        paused = true;
        stream.pause();
        resolve({ received: () => size, finish: async () => { stream.resume(); await ended; return { status, body: Buffer.concat(chunks) }; } });
      }
    });
    stream.on("end", () => done());
    stream.on("error", reject);
  });
}

function checkJsonList(body: Buffer): void {
  const list = JSON.parse(body.toString());
  expect(list.kind).toBe("ConfigMapList");
  expect(list.items).toHaveLength(ITEMS);
  expect(list.items[COUNT - 1].metadata.name).toBe(`cm-${COUNT - 1}`);
  expect(list.items[0].data.value).toBe(VALUE);
}

describe("a large list with slow readers", () => {
  test("HTTP/1.1 readers that pause (JSON, protobuf, Table) leave the server a bounded buffer and then get the whole list", async () => {
    // One full read first, so what a list costs once (compiled code, kept protobuf encodings) is in the baseline.
    const whole = await server.request("GET", LIST);
    expect(whole.status).toBe(200);
    const listBytes = whole.text.length;
    expect(listBytes).toBeGreaterThan(25_000_000);
    await (await slowHttp1(LIST, PROTOBUF, 0)).finish();
    const before = await peakRss(1500);

    const readers = await Promise.all([
      slowHttp1(LIST, "application/json", 1 << 20),
      slowHttp1(LIST, "application/json", 1 << 20),
      slowHttp1(LIST, PROTOBUF, 1 << 20),
      slowHttp1(LIST, TABLE, 1 << 20),
    ]);
    const during = await peakRss(3000);
    // Four whole answers would be over 100 MB held for these clients; streaming holds a few chunks each.
    expect(during - before, `resident memory grew by ${((during - before) / 2 ** 20).toFixed(1)} MiB while four clients paused`).toBeLessThan(0.5 * listBytes);
    // Each has only what the socket buffers took, not the list.
    for (const r of readers) expect(r.received()).toBeLessThan(0.5 * listBytes);

    const [json1, json2, pb, table] = await Promise.all(readers.map((r) => r.finish()));
    for (const r of [json1, json2, pb, table]) expect(r.status).toBe(200);
    checkJsonList(json1.body);
    expect(json2.body.equals(json1.body)).toBe(true);
    const envelope = openEnvelope(pb.body);
    expect(envelope.kind).toBe("ConfigMapList");
    const decoded = decodeMessage(envelope.kind, envelope.raw) as { items: { metadata: { name: string } }[] };
    expect(decoded.items).toHaveLength(ITEMS);
    expect(decoded.items[COUNT - 1].metadata.name).toBe(`cm-${COUNT - 1}`);
    const rows = JSON.parse(table.body.toString());
    expect(rows.kind).toBe("Table");
    expect(rows.rows).toHaveLength(ITEMS);
  });

  test("HTTP/2 streams that pause leave the server a bounded buffer and then get the whole list", async () => {
    const session = http2.connect(`https://127.0.0.1:${server.port}`, { ca: server.ca, servername: "localhost" });
    try {
      const before = await peakRss(1500);
      const readers = await Promise.all([0, 1, 2, 3].map(() => slowHttp2(session, LIST, "application/json", 1 << 16)));
      const during = await peakRss(3000);
      expect(during - before, `resident memory grew by ${((during - before) / 2 ** 20).toFixed(1)} MiB while four streams paused`).toBeLessThan(15_000_000);
      const answers = await Promise.all(readers.map((r) => r.finish()));
      for (const a of answers) {
        expect(a.status).toBe(200);
        checkJsonList(a.body);
      }
    } finally {
      session.close();
    }
  });

  test("a WatchList whose client pauses gets every initial event and its bookmark, not a cut stream", async () => {
    const watch = `${LIST}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=40`;
    const reader = await slowHttp1(watch, "application/json", 1 << 20);
    await sleep(3000);
    // Read on to the watch's end (its timeout).
    const { status, body } = await Promise.race([
      reader.finish(),
      sleep(90_000).then(() => { throw new Error("the watch neither ended at its timeout nor was cut"); }),
    ]);
    expect(status).toBe(200);
    const events = body.toString().split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as { type: string; object: { metadata: { name?: string; annotations?: Record<string, string> } } });
    const added = events.filter((e) => e.type === "ADDED");
    expect(added).toHaveLength(ITEMS);
    const end = events.findIndex((e) => e.type === "BOOKMARK" && e.object.metadata.annotations?.["k8s.io/initial-events-end"] === "true");
    expect(end).toBe(ITEMS);
  });

  test("beyond the memory budget a full list gets 429 with Retry-After; pages, GETs and watches are still served", async () => {
    const readers = await Promise.all([0, 1, 2, 3].map(() => slowHttp1(LIST, "application/json", 1 << 20)));
    const refused = await server.request("GET", LIST);
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toBe("1");
    expect(refused.body).toMatchObject({ kind: "Status", apiVersion: "v1", status: "Failure", reason: "TooManyRequests", code: 429, message: "Too many requests, please try again later.", details: { retryAfterSeconds: 1 } });

    const page = await server.request("GET", `${LIST}?limit=10`);
    expect(page.status).toBe(200);
    expect(page.body.items).toHaveLength(10);
    expect(page.body.metadata.continue).toBeTruthy();
    expect((await server.request("GET", `${LIST}/cm-00042`)).status).toBe(200);
    const watch = await openWatch(server, `${LIST}?watch=true&resourceVersion=${page.body.metadata.resourceVersion}`);
    try {
      expect(watch.status).toBe(200);
      expect((await server.request("POST", LIST, { body: { metadata: { name: "during-overload" } } })).status).toBe(201);
      await watch.waitForEvent((e) => e.type === "ADDED" && e.object.metadata.name === "during-overload", 20_000);
    } finally {
      watch.close();
    }

    // The paused clients still get their whole lists, and once they are written a full list fits again.
    for (const a of await Promise.all(readers.map((r) => r.finish()))) {
      expect(a.status).toBe(200);
      expect(JSON.parse(a.body.toString()).items.length).toBeGreaterThanOrEqual(ITEMS);
    }
    const again = await server.request("GET", LIST);
    expect(again.status).toBe(200);
    expect(again.body.items.length).toBe(ITEMS + 1);
    expect((await server.request("DELETE", `${LIST}/during-overload`)).status).toBe(200);
  });
});
