// Helpers the watch/consistency/pagination/client tests need beyond harness.ts: a streaming watch client
// (harness.request buffers whole responses, a watch never ends on its own) and several server processes
// sharing one SQLite file. Servers started here are ordinary harness servers: stopAll() stops them.
import { mkdtempSync, rmSync } from "node:fs";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import type { IncomingHttpHeaders } from "node:http";
import { freshDatabaseUrl, type Backend } from "../../lib/storage/test-databases";
import { startServer, type Server, type StartOptions } from "./harness";

export interface WatchEvent {
  type: string;
  object: any;
}

export interface WatchStream {
  status: number;
  headers: IncomingHttpHeaders;
  /** Every event received so far, in arrival order. */
  readonly events: WatchEvent[];
  /** Lines of the body that were not a JSON `{"type","object"}` document. */
  readonly malformed: string[];
  /** The raw body received so far. */
  text(): string;
  /** Settles when the response is over; `clean` = the server finished the chunked body (not a reset). */
  readonly ended: Promise<{ clean: boolean }>;
  isEnded(): boolean;
  /** Resolves once `done(events)` holds; rejects after `timeoutMs` (or when the stream ends first). */
  until(done: (events: WatchEvent[]) => boolean, timeoutMs?: number, what?: string): Promise<void>;
  /** The first event (from index `from`) satisfying `pred`, waiting for it. */
  waitForEvent(pred: (e: WatchEvent) => boolean, timeoutMs?: number, from?: number): Promise<WatchEvent>;
  /** Drops the connection from the client side. */
  close(): void;
}

/**
 * Opens `GET urlPath` as a watch against `server` on its own connection and resolves once the response
 * headers arrived (the server flushes them before the first event). Non-200 answers resolve too: their body
 * is then in text() once `ended` settles.
 */
export function openWatch(server: Server, urlPath: string, opts: { accept?: string } = {}): Promise<WatchStream> {
  return new Promise((resolve, reject) => {
    const events: WatchEvent[] = [];
    const malformed: string[] = [];
    let raw = "";
    let pending = "";
    let endedFlag = false;
    const listeners = new Set<() => void>();
    const notify = () => {
      for (const l of [...listeners]) l();
    };
    let resolveEnded!: (v: { clean: boolean }) => void;
    const ended = new Promise<{ clean: boolean }>((r) => (resolveEnded = r));
    const finish = (clean: boolean) => {
      if (endedFlag) return;
      endedFlag = true;
      if (pending.trim()) malformed.push(pending);
      pending = "";
      resolveEnded({ clean });
      notify();
    };

    const req = https.request(
      {
        host: "127.0.0.1",
        port: server.port,
        method: "GET",
        path: urlPath,
        ca: server.ca,
        agent: false,
        headers: { Accept: opts.accept ?? "application/json", Authorization: `Bearer ${server.token}` },
      },
      (res) => {
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          raw += chunk;
          pending += chunk;
          let nl: number;
          let added = false;
          while ((nl = pending.indexOf("\n")) >= 0) {
            const line = pending.slice(0, nl);
            pending = pending.slice(nl + 1);
            if (res.statusCode !== 200) continue;
            try {
              const ev = JSON.parse(line);
              if (ev && typeof ev.type === "string" && typeof ev.object === "object" && Object.keys(ev).length === 2) {
                events.push(ev);
                added = true;
              } else malformed.push(line);
            } catch {
              malformed.push(line);
            }
          }
          if (added) notify();
        });
        res.on("end", () => finish(true));
        res.on("close", () => finish(res.complete));
        res.on("error", () => finish(false));
        const stream: WatchStream = {
          status: res.statusCode ?? 0,
          headers: res.headers,
          events,
          malformed,
          text: () => raw,
          ended,
          isEnded: () => endedFlag,
          until(done, timeoutMs = 15_000, what = "condition") {
            return new Promise<void>((ok, fail) => {
              const check = () => {
                if (done(events)) {
                  cleanup();
                  ok();
                } else if (endedFlag) {
                  cleanup();
                  fail(new Error(`watch ${urlPath} ended before ${what}; events: ${describe(events)}`));
                }
              };
              const timer = setTimeout(() => {
                cleanup();
                fail(new Error(`timed out after ${timeoutMs} ms waiting for ${what} on ${urlPath}; events: ${describe(events)}`));
              }, timeoutMs);
              const cleanup = () => {
                clearTimeout(timer);
                listeners.delete(check);
              };
              listeners.add(check);
              check();
            });
          },
          async waitForEvent(pred, timeoutMs = 15_000, from = 0) {
            let found: WatchEvent | undefined;
            await stream.until(
              (evs) => (found = evs.slice(from).find(pred)) !== undefined,
              timeoutMs,
              "a matching event",
            );
            return found!;
          },
          close() {
            req.destroy();
            res.destroy();
          },
        };
        resolve(stream);
      },
    );
    req.on("error", (err) => {
      if (!endedFlag) {
        // Before the response: a failed request. After it: the connection dropped.
        reject(err);
        finish(false);
      }
    });
    req.setTimeout(0);
    req.end();
  });
}

/** Compact "TYPE name@rv" rendering of events for failure messages. */
export function describe(events: WatchEvent[], max = 60): string {
  const parts = events.map((e) => `${e.type} ${e.object?.metadata?.name ?? e.object?.reason ?? "?"}@${e.object?.metadata?.resourceVersion ?? ""}`);
  return parts.length > max ? `${parts.slice(0, max).join(", ")} … (+${parts.length - max})` : parts.join(", ");
}

const sharedDirs = new Set<string>();
process.once("exit", () => {
  if (process.env.E2E_KEEP_DATA) return;
  for (const d of sharedDirs) rmSync(d, { recursive: true, force: true });
});

/**
 * Starts `count` server processes on one store: by default one SQLite file (DATABASE_URL=file:<temp
 * dir>/cluster-core.db), or `databaseUrl` (e.g. a PostgreSQL database from freshPostgresDatabase). Each process
 * has its own DATA_DIR, hence its own CA and token. Every process tails the shared revision log.
 */
export async function startSharedServers(count: number, opts: StartOptions = {}, databaseUrl?: string): Promise<Server[]> {
  let url = databaseUrl;
  if (!url) {
    const dbDir = mkdtempSync(path.join(os.tmpdir(), "cluster-core-shared-db-"));
    sharedDirs.add(dbDir);
    url = `file:${path.join(dbDir, "cluster-core.db")}`;
  }
  const env = { ...(opts.env ?? {}), DATABASE_URL: url };
  // The first process creates the schema; the others start once it is ready.
  const first = await startServer({ ...opts, env });
  const rest = await Promise.all(Array.from({ length: count - 1 }, () => startServer({ ...opts, env })));
  return [first, ...rest];
}

export { freshPostgresDatabase } from "../../lib/storage/test-databases";

/**
 * The server environment for a store backend: nothing for SQLite (the default file in DATA_DIR), or
 * DATABASE_URL of a fresh database on TEST_PG_URL's PostgreSQL server (failing without it, see
 * lib/storage/test-databases.ts).
 */
export async function backendEnv(backend: Backend): Promise<Record<string, string>> {
  return backend === "postgresql" ? { DATABASE_URL: await freshDatabaseUrl("postgresql", "cc_e2e") } : {};
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
