// The scale benchmark's HTTPS client (bench/scale.ts): JSON requests for seeding (retrying what the server
// asks to be retried), and list reads that count bytes and items as they arrive instead of holding the body,
// optionally pausing after the first bytes (a slow reader). HTTP/1.1 over TLS, one connection per list.
import http from "node:http";
import https from "node:https";

export interface Endpoint {
  url: string;
  ca: Buffer;
  token: string;
}

export interface JsonAnswer {
  status: number;
  text: string;
  retryAfter?: number;
}

/** One request with a JSON (or patch) body; the answer's text. */
export function requestJson(ep: Endpoint, method: string, path: string, body: unknown, agent: http.Agent, headers: Record<string, string> = {}): Promise<JsonAnswer> {
  return new Promise((resolve, reject) => {
    const u = new URL(ep.url);
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = https.request({
      host: u.hostname, port: u.port, method, path, agent,
      headers: {
        authorization: `Bearer ${ep.token}`, accept: "application/json",
        ...(data ? { "content-type": "application/json", "content-length": String(Buffer.byteLength(data)) } : {}),
        ...headers,
      },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const ra = Number(res.headers["retry-after"]);
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString(), retryAfter: Number.isFinite(ra) ? ra : undefined });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(data);
  });
}

export interface SeedCounters {
  retries: number;
  tooMany: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * A write that must succeed: 429 waits its Retry-After, a 5xx or a refused connection is tried again, and a pod
 * refused for a ServiceAccount not made yet (its namespace's controller is a moment behind) waits too. Other
 * answers are errors.
 */
export async function mustWrite(ep: Endpoint, method: string, path: string, body: unknown, agent: http.Agent, counters: SeedCounters, headers: Record<string, string> = {}, ok = [200, 201]): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    let answer: JsonAnswer | undefined;
    try { answer = await requestJson(ep, method, path, body, agent, headers); } catch (err) {
      if (attempt >= 20) throw err;
    }
    if (answer && ok.includes(answer.status)) return answer.text;
    if (answer && answer.status === 429) counters.tooMany++;
    const retriable = !answer || answer.status === 429 || answer.status >= 500 || (answer.status === 403 && /service ?account/i.test(answer.text));
    if (!retriable || attempt >= 20) throw new Error(`${method} ${path}: ${answer?.status} ${answer?.text.slice(0, 300)}`);
    counters.retries++;
    await sleep(answer?.retryAfter !== undefined ? answer.retryAfter * 1000 : Math.min(2000, 50 * attempt));
  }
}

export interface ListRead {
  status: number;
  contentType: string;
  bytes: number;
  /** Occurrences of the marker in the body (found across chunk boundaries). */
  markers: number;
  /** Request sent -> first body byte, and -> last byte, ms. */
  firstByteMs: number;
  totalMs: number;
  /** The body's first 4 KiB (list metadata: resourceVersion, continue; or a Status). */
  head: string;
  /** The first bytes, raw (protobuf's `k8s\0`). */
  magic: Buffer;
  /** Slow reader: bytes received before the pause. */
  bytesBeforePause?: number;
}

export interface ListOptions {
  accept?: string;
  marker?: Buffer;
  /** Pause reading once this many bytes have arrived, for pauseMs (the socket stops: TCP backpressure). */
  pauseAfterBytes?: number;
  pauseMs?: number;
  /** Called once the reader is paused, before it resumes (the orchestrator samples the server then). */
  whilePaused?: () => Promise<void>;
  /** Keep the whole body (only for pages). */
  keepBody?: boolean;
}

/** GET `path` and read it to its end, counting instead of keeping (unless keepBody). */
export function readList(ep: Endpoint, path: string, opts: ListOptions = {}): Promise<ListRead & { body?: Buffer }> {
  return new Promise((resolve, reject) => {
    const u = new URL(ep.url);
    const t0 = performance.now();
    const req = https.request({
      host: u.hostname, port: u.port, method: "GET", path, ca: ep.ca, agent: false,
      headers: { authorization: `Bearer ${ep.token}`, accept: opts.accept ?? "application/json" },
    }, (res) => {
      let bytes = 0, markers = 0, firstByteMs = -1, paused = false, bytesBeforePause: number | undefined;
      let head: Buffer = Buffer.alloc(0);
      let tail: Buffer = Buffer.alloc(0);
      const kept: Buffer[] = [];
      const marker = opts.marker;
      res.on("data", (c: Buffer) => {
        if (firstByteMs < 0) firstByteMs = performance.now() - t0;
        bytes += c.length;
        if (head.length < 4096) head = Buffer.concat([head, c.subarray(0, 4096 - head.length)]);
        if (opts.keepBody) kept.push(c);
        if (marker) {
          const buf = tail.length ? Buffer.concat([tail, c]) : c;
          for (let at = buf.indexOf(marker); at >= 0; at = buf.indexOf(marker, at + marker.length)) markers++;
          // The kept tail is shorter than the marker: nothing is counted twice.
          tail = Buffer.from(buf.subarray(Math.max(0, buf.length - marker.length + 1)));
        }
        if (!paused && opts.pauseAfterBytes !== undefined && bytes >= opts.pauseAfterBytes) {
          paused = true;
          bytesBeforePause = bytes;
          res.pause();
          const resume = () => res.resume();
          const wait = sleep(opts.pauseMs ?? 0);
          void Promise.all([wait, opts.whilePaused?.() ?? Promise.resolve()]).then(resume, resume);
        }
      });
      res.on("end", () => resolve({
        status: res.statusCode ?? 0, contentType: String(res.headers["content-type"] ?? ""), bytes, markers,
        firstByteMs: Math.max(0, firstByteMs), totalMs: performance.now() - t0, head: head.toString("latin1"), magic: head.subarray(0, 4),
        bytesBeforePause, body: opts.keepBody ? Buffer.concat(kept) : undefined,
      }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** `metadata.continue` and `metadata.resourceVersion` from a list's first bytes. */
export function listMeta(head: string): { cont?: string; rv?: string; remaining?: number } {
  const meta = head.slice(0, head.indexOf('"items"') >= 0 ? head.indexOf('"items"') : 2000);
  return {
    cont: /"continue":"([^"]+)"/.exec(meta)?.[1],
    rv: /"resourceVersion":"(\d+)"/.exec(meta)?.[1],
    remaining: Number(/"remainingItemCount":(\d+)/.exec(meta)?.[1] ?? NaN),
  };
}
