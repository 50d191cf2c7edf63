// Watch fan-out client (performance.md §8.3 S4). Opens W keep-alive HTTPS watch streams on one namespace
// (each its own TLS connection, like W separate informers; JSON lines, or protobuf frames with
// `"protobuf": true`), then writes E ConfigMaps at R per second open loop through a small keep-alive writer
// pool, and measures per delivered event the latency from "write sent" to "event parsed" in this process.
// Checks that every watcher received every event exactly once, in strictly increasing resourceVersion order,
// and that all watchers saw the same order.
//
// Run by bench/run.ts as a child with an IPC channel, in phases so the orchestrator can read the server's
// memory between them:   child: {phase:"ready"} -> parent: {cmd:"open"} -> child: {phase:"opened"}
//                          -> parent: {cmd:"write"} -> child: {phase:"done", result}
// Standalone (no IPC) it runs all phases itself and prints the result as JSON:
//   node --import tsx bench/watch-client.ts '{"baseUrl":"https://127.0.0.1:6443","caFile":"data/pki/ca.crt",
//     "token":"...","watchers":100,"events":200,"rate":20,"namespace":"wb"}'
import http from "node:http";
import https from "node:https";
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { percentile, round, sleep } from "./common";
import { Reader } from "../lib/codec/protobuf/wire";

export interface WatchClientConfig {
  baseUrl: string;
  /** Where the writes go, when not to baseUrl (another replica of the same store: cross-replica latency). */
  writeBaseUrl?: string;
  caFile?: string;
  token?: string;
  watchers: number;
  events: number;
  /** Events per second (open loop). */
  rate: number;
  namespace: string;
  /** POST the Namespace objects (run and prime) first: our server refuses creates in a missing namespace. */
  createNamespaces?: boolean;
  /** A short warm-up on another namespace first (JIT, TLS code paths); not measured. */
  primeWatchers?: number;
  primeEvents?: number;
  connectConcurrency?: number;
  /** How long to wait for the last deliveries after the last write. */
  deliveryTimeoutMs?: number;
  /** Size of the filler string in every object (the 1 KiB ConfigMap fixture). */
  fillerBytes?: number;
  writerSockets?: number;
  /**
   * Watch with `Accept: application/vnd.kubernetes.protobuf` and read length-prefixed WatchEvent frames
   * (decoding the fields checked: type, resourceVersion, data.run and data.seq) instead of JSON lines.
   */
  protobuf?: boolean;
}

export interface WatchClientResult {
  watchers: number;
  opened: number;
  openFailures: number;
  openMs: number;
  events: number;
  ratePerSec: number;
  expected: number;
  delivered: number;
  /** Every watcher got every event exactly once, in strictly increasing resourceVersion order. */
  complete: boolean;
  watchersComplete: number;
  outOfOrder: number;
  duplicates: number;
  /** Lines that were not ADDED events of this run (ERROR, BOOKMARK, unparsable). */
  unexpectedLines: number;
  /** Streams the server ended before the run was over. */
  streamsEnded: number;
  /** All complete watchers saw the same resourceVersion sequence. */
  sameOrder: boolean;
  latencyMs: { p50: number | null; p90: number | null; p99: number | null; max: number | null };
  writes: { status: Record<string, number>; p50Ms: number | null; p99Ms: number | null; errors: number };
  sendSpanMs: number;
}

const cfg: WatchClientConfig = JSON.parse(process.argv[2] ?? process.env.WATCH_CONFIG ?? "{}");
const base = new URL(cfg.baseUrl);
const writeBase = new URL(cfg.writeBaseUrl ?? cfg.baseUrl);
const secure = base.protocol === "https:";
const ca = cfg.caFile ? readFileSync(cfg.caFile, "utf8") : undefined;
const filler = "x".repeat(cfg.fillerBytes ?? 1024);
const tag = `${process.pid.toString(36)}${Date.now().toString(36)}`;
const baseHeaders: Record<string, string> = { accept: "application/json", ...(cfg.token ? { authorization: `Bearer ${cfg.token}` } : {}) };

function request(opts: https.RequestOptions, target: URL = base): http.ClientRequest {
  const full = { host: target.hostname, port: target.port, ...opts, headers: { ...baseHeaders, ...opts.headers } };
  return secure ? https.request({ ...full, ca }) : http.request(full);
}

interface WatchEventView { type?: string; object?: { metadata?: { resourceVersion?: string }; data?: { seq?: string; run?: string } } }

/** The first field `no` of the message in buf[start, end), as [start, end) of its bytes. */
function field(buf: Buffer, start: number, end: number, no: number): [number, number] | undefined {
  const r = new Reader(buf, start, end);
  while (!r.done) {
    const k = r.key("m");
    if (k.no === no && k.wire === 2) return r.delimited();
    r.skip(k.wire);
  }
  return undefined;
}

/**
 * One protobuf frame -> the same view of the event the JSON client parses: WatchEvent{type=1, object=2{raw=1}}
 * -> `k8s\0` + Unknown{raw=2} -> ConfigMap{metadata=1{resourceVersion=6}, data=2 map}. Only these fields are
 * decoded (the 1 KiB filler is skipped by its length), as generated code would read them without a JSON parse.
 */
function protobufEvent(buf: Buffer, start: number, end: number): WatchEventView | undefined {
  try {
    const type = field(buf, start, end, 1);
    const ext = field(buf, start, end, 2);
    const embedded = ext && field(buf, ext[0], ext[1], 1);
    if (!type || !embedded) return undefined;
    const raw = field(buf, embedded[0] + 4, embedded[1], 2);
    if (!raw) return undefined;
    const meta = field(buf, raw[0], raw[1], 1);
    const rv = meta && field(buf, meta[0], meta[1], 6);
    const data: Record<string, string> = {};
    const r = new Reader(buf, raw[0], raw[1]);
    while (!r.done) {
      const k = r.key("ConfigMap");
      if (k.no !== 2 || k.wire !== 2) { r.skip(k.wire); continue; }
      const [s, e] = r.delimited();
      const key = field(buf, s, e, 1);
      const name = key ? buf.toString("utf8", key[0], key[1]) : "";
      if (name !== "run" && name !== "seq") continue;
      const value = field(buf, s, e, 2);
      data[name] = value ? buf.toString("utf8", value[0], value[1]) : "";
    }
    return { type: buf.toString("utf8", type[0], type[1]), object: { metadata: { resourceVersion: rv ? buf.toString("utf8", rv[0], rv[1]) : undefined }, data } };
  } catch {
    return undefined;
  }
}

interface WatcherState {
  req?: http.ClientRequest;
  count: number;
  lastRv: number;
  outOfOrder: number;
  duplicates: number;
  seen: Uint8Array;
  orderHash: number;
  ended: boolean;
}

class Run {
  readonly states: WatcherState[] = [];
  readonly sent: Float64Array;
  readonly latencies: Float64Array;
  delivered = 0;
  unexpected = 0;
  measuring: boolean;
  openFailures = 0;
  writeStatus: Record<string, number> = {};
  writeLatencies: number[] = [];
  writeErrors = 0;
  private readonly writer: http.Agent;

  constructor(readonly namespace: string, readonly events: number, readonly watchers: number, measuring: boolean) {
    this.sent = new Float64Array(events).fill(NaN);
    this.latencies = new Float64Array(measuring ? watchers * events : 0);
    this.measuring = measuring;
    const agentOpts = { keepAlive: true, maxSockets: cfg.writerSockets ?? 8 };
    this.writer = secure ? new https.Agent({ ...agentOpts, ca }) : new http.Agent(agentOpts);
  }

  private onLine(w: WatcherState, line: string): void {
    let ev: WatchEventView;
    try { ev = JSON.parse(line); } catch { this.unexpected++; return; }
    this.onEvent(w, ev);
  }

  private onEvent(w: WatcherState, ev: WatchEventView): void {
    const data = ev.object?.data;
    if (ev.type !== "ADDED" || !data || data.run !== tag) { this.unexpected++; return; }
    const now = performance.now();
    const seq = Number(data.seq);
    const rv = Number(ev.object?.metadata?.resourceVersion);
    if (!(seq >= 0 && seq < this.events)) { this.unexpected++; return; }
    if (w.seen[seq]) { w.duplicates++; return; }
    w.seen[seq] = 1;
    if (!(rv > w.lastRv)) w.outOfOrder++;
    w.lastRv = rv;
    w.orderHash = (Math.imul(w.orderHash, 31) + rv) | 0;
    w.count++;
    if (this.measuring) this.latencies[this.delivered] = now - this.sent[seq];
    this.delivered++;
  }

  private open(): Promise<boolean> {
    const w: WatcherState = { count: 0, lastRv: 0, outOfOrder: 0, duplicates: 0, seen: new Uint8Array(this.events), orderHash: 17, ended: false };
    this.states.push(w);
    return new Promise((resolve) => {
      const req = request({
        method: "GET", path: `/api/v1/namespaces/${this.namespace}/configmaps?watch=1`, agent: false,
        ...(cfg.protobuf ? { headers: { accept: "application/vnd.kubernetes.protobuf" } } : {}),
      });
      w.req = req;
      const timer = setTimeout(() => { req.destroy(new Error("watch open timed out")); }, 60_000);
      req.on("response", (res) => {
        clearTimeout(timer);
        if (res.statusCode !== 200) { this.openFailures++; res.resume(); resolve(false); return; }
        if (cfg.protobuf) {
          let pending: Buffer = Buffer.alloc(0);
          res.on("data", (chunk: Buffer) => {
            pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
            let at = 0;
            while (pending.length - at >= 4 && pending.length - at >= 4 + pending.readUInt32BE(at)) {
              const end = at + 4 + pending.readUInt32BE(at);
              const ev = protobufEvent(pending, at + 4, end);
              if (ev) this.onEvent(w, ev); else this.unexpected++;
              at = end;
            }
            pending = pending.subarray(at);
          });
          res.on("end", () => { w.ended = true; });
          res.on("error", () => { w.ended = true; });
          resolve(true);
          return;
        }
        res.setEncoding("utf8");
        let buf = "";
        res.on("data", (chunk: string) => {
          buf += chunk;
          let i: number;
          while ((i = buf.indexOf("\n")) >= 0) {
            const line = buf.slice(0, i);
            buf = buf.slice(i + 1);
            if (line.trim()) this.onLine(w, line);
          }
        });
        res.on("end", () => { w.ended = true; });
        res.on("error", () => { w.ended = true; });
        resolve(true);
      });
      req.on("error", () => { clearTimeout(timer); if (!w.ended) { w.ended = true; } this.openFailures++; resolve(false); });
      req.end();
    });
  }

  async openAll(): Promise<number> {
    const t0 = performance.now();
    let next = 0;
    const worker = async () => { while (next < this.watchers) { next++; await this.open(); } };
    await Promise.all(Array.from({ length: Math.min(cfg.connectConcurrency ?? 64, this.watchers) }, worker));
    return performance.now() - t0;
  }

  private write(seq: number): void {
    const body = JSON.stringify({
      apiVersion: "v1", kind: "ConfigMap",
      metadata: { name: `w-${tag}-${seq}`, namespace: this.namespace },
      data: { run: tag, seq: String(seq), filler },
    });
    const req = request({
      method: "POST", path: `/api/v1/namespaces/${this.namespace}/configmaps`, agent: this.writer,
      headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) },
    }, writeBase);
    req.on("response", (res) => {
      const k = String(res.statusCode);
      this.writeStatus[k] = (this.writeStatus[k] ?? 0) + 1;
      res.resume();
      res.on("end", () => this.writeLatencies.push(performance.now() - this.sent[seq]));
    });
    req.on("error", () => { this.writeErrors++; });
    this.sent[seq] = performance.now();
    req.end(body);
  }

  /** Open-loop writer: event s is sent at t0 + s/R; then wait for every delivery (or the timeout). */
  async writeAll(rate: number, deliveryTimeoutMs: number): Promise<number> {
    const t0 = performance.now();
    for (let s = 0; s < this.events; s++) {
      const wait = t0 + (s * 1000) / rate - performance.now();
      if (wait > 1) await sleep(wait);
      this.write(s);
    }
    const span = performance.now() - t0;
    const expected = this.watchers * this.events;
    const deadline = performance.now() + deliveryTimeoutMs;
    while ((this.delivered < expected || this.writeLatencies.length + this.writeErrors < this.events) && performance.now() < deadline) await sleep(20);
    return span;
  }

  close(): void {
    for (const w of this.states) w.req?.destroy();
    this.writer.destroy();
  }

  result(openMs: number, sendSpanMs: number): WatchClientResult {
    const lat = Float64Array.from(this.latencies.subarray(0, this.delivered)).sort();
    const complete = this.states.filter((w) => w.count === this.events && w.outOfOrder === 0 && w.duplicates === 0);
    const hash0 = complete[0]?.orderHash;
    const wl = [...this.writeLatencies].sort((a, b) => a - b);
    const q = (p: number) => round(percentile(lat, p));
    return {
      watchers: this.watchers,
      opened: this.watchers - this.openFailures,
      openFailures: this.openFailures,
      openMs: Math.round(openMs),
      events: this.events,
      ratePerSec: cfg.rate,
      expected: this.watchers * this.events,
      delivered: this.delivered,
      complete: complete.length === this.watchers && this.openFailures === 0,
      watchersComplete: complete.length,
      outOfOrder: this.states.reduce((a, w) => a + w.outOfOrder, 0),
      duplicates: this.states.reduce((a, w) => a + w.duplicates, 0),
      unexpectedLines: this.unexpected,
      streamsEnded: this.states.filter((w) => w.ended).length,
      sameOrder: complete.every((w) => w.orderHash === hash0),
      latencyMs: { p50: q(0.5), p90: q(0.9), p99: q(0.99), max: round(lat.length ? lat[lat.length - 1] : null) },
      writes: { status: this.writeStatus, p50Ms: round(percentile(wl, 0.5)), p99Ms: round(percentile(wl, 0.99)), errors: this.writeErrors },
      sendSpanMs: Math.round(sendSpanMs),
    };
  }
}

function waitFor(cmd: string): Promise<void> {
  if (!process.send) return Promise.resolve();
  return new Promise((resolve) => {
    const on = (m: unknown) => { if ((m as { cmd?: string })?.cmd === cmd) { process.off("message", on); resolve(); } };
    process.on("message", on);
  });
}

const tell = (msg: object) => { if (process.send) process.send(msg); };

/** Creates a Namespace object; an existing one (409) is fine. */
function createNamespace(name: string): Promise<void> {
  const body = JSON.stringify({ apiVersion: "v1", kind: "Namespace", metadata: { name } });
  return new Promise((resolve, reject) => {
    const req = request({ method: "POST", path: "/api/v1/namespaces", agent: false, headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) } });
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => (res.statusCode === 201 || res.statusCode === 409 ? resolve() : reject(new Error(`create namespace ${name}: ${res.statusCode}`))));
    });
    req.on("error", reject);
    req.end(body);
  });
}

async function main(): Promise<void> {
  if (cfg.createNamespaces) for (const ns of [`${cfg.namespace}-prime`, cfg.namespace]) await createNamespace(ns);
  // Warm-up: a few watchers and events on another namespace, then closed again.
  const primeW = cfg.primeWatchers ?? 20, primeE = cfg.primeEvents ?? 50;
  if (primeW > 0 && primeE > 0) {
    const prime = new Run(`${cfg.namespace}-prime`, primeE, primeW, false);
    await prime.openAll();
    await prime.writeAll(200, 10_000);
    prime.close();
    await sleep(200);
  }
  tell({ phase: "ready" });
  await waitFor("open");
  const run = new Run(cfg.namespace, cfg.events, cfg.watchers, true);
  const openMs = await run.openAll();
  tell({ phase: "opened", openMs, openFailures: run.openFailures });
  await waitFor("write");
  const span = await run.writeAll(cfg.rate, cfg.deliveryTimeoutMs ?? 15_000);
  const result = run.result(openMs, span);
  run.close();
  if (process.send) tell({ phase: "done", result });
  else console.log(JSON.stringify(result));
  setTimeout(() => process.exit(0), 100);
}

main().catch((err) => {
  tell({ phase: "error", message: String(err?.stack ?? err) });
  console.error(err);
  setTimeout(() => process.exit(1), 100);
});
