// Black-box harness for the API integration tests: starts the real server (`node --import tsx server.ts`)
// on a free loopback port with a fresh DATA_DIR, waits for /readyz over verified TLS, and offers raw HTTPS
// requests (node:https, CA-pinned, bearer token) and kubectl runs (own KUBECONFIG and --cache-dir).
// Every server started here is tracked; call stopAll() in afterAll so none outlives its test file.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import fs from "node:fs/promises";
import https from "node:https";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll } from "vitest";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const FIXTURES_DIR = path.join(REPO_ROOT, "e2e", "fixtures");
const KUBECTL = process.env.KUBECTL ?? "/usr/bin/kubectl";
const READY_TIMEOUT_MS = 60_000;
const LOG_LIMIT = 200_000;

export interface StartOptions {
  env?: Record<string, string>;
  dataDir?: string;
  /** Reuse a port (restart); a free one is picked otherwise. */
  port?: number;
  /** The CA to trust instead of $DATA_DIR/pki/ca.crt (a server given TLS_CERT_FILE and TLS_CA_FILE). */
  ca?: string;
  /** What node runs (default `--import tsx server.ts`, the source), e.g. the compiled server of `npm start`. */
  nodeArgs?: string[];
}

export interface RequestOptions {
  /** Object → JSON (Content-Type application/json unless given); string/Buffer → sent as is. */
  body?: unknown;
  headers?: Record<string, string>;
  contentType?: string;
  /** Bearer token to send; `null` sends no Authorization header. Defaults to the admin token. */
  token?: string | null;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON when the response is JSON, otherwise undefined. */
  body: any;
  text: string;
}

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface KubectlOptions {
  input?: string;
  allowFail?: boolean;
  timeoutMs?: number;
}

export interface Server {
  url: string;
  port: number;
  dataDir: string;
  token: string;
  /** PEM of the cluster CA ($DATA_DIR/pki/ca.crt) as read when this server became ready. */
  ca: string;
  /** Path of $DATA_DIR/admin.kubeconfig. */
  kubeconfig: string;
  kubectl(args: string[], opts?: KubectlOptions): Promise<KubectlResult>;
  request(method: string, urlPath: string, opts?: RequestOptions): Promise<ApiResponse>;
  stop(signal?: NodeJS.Signals): Promise<void>;
  kill9(): Promise<void>;
  /** Stops this server if it still runs, then starts a new one on the same DATA_DIR, port and env. */
  restart(): Promise<Server>;
  /** stdout+stderr the server printed so far. */
  logs(): string;
}

interface Tracked {
  child: ChildProcess;
  exited: Promise<void>;
}

const running = new Set<Tracked>();
const ownedDirs = new Set<string>();

// Last resort: never leave a server behind if the worker exits without afterAll (e.g. a crash).
process.once("exit", () => {
  for (const t of running) {
    try {
      t.child.kill("SIGKILL");
    } catch {
      /* already gone */
    }
  }
});

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function rawRequest(
  port: number,
  ca: string | undefined,
  method: string,
  urlPath: string,
  headers: Record<string, string>,
  payload: Buffer | undefined,
  agent?: https.Agent,
  timeoutMs = 60_000,
): Promise<ApiResponse> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: "127.0.0.1",
        port,
        method,
        path: urlPath,
        ca,
        agent,
        headers: payload ? { ...headers, "Content-Length": String(payload.length) } : headers,
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          const ct = String(res.headers["content-type"] ?? "");
          let body: any;
          if (/json/i.test(ct)) {
            try {
              body = JSON.parse(text);
            } catch {
              body = undefined;
            }
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text });
        });
      },
    );
    req.on("timeout", () => req.destroy(new Error(`request ${method} ${urlPath} timed out after ${timeoutMs} ms`)));
    req.on("error", (err: NodeJS.ErrnoException) => {
      // A server may answer (e.g. 413) and close before it has read a large body; the response, if any,
      // still arrives through the 'response' callback, so only report errors that left us without one.
      if ((err.code === "EPIPE" || err.code === "ECONNRESET") && payload && payload.length > 1_000_000) {
        setTimeout(() => reject(err), 2_000);
        return;
      }
      reject(err);
    });
    if (payload) req.end(payload);
    else req.end();
  });
}

async function waitReady(
  child: ChildProcess,
  port: number,
  dataDir: string,
  fixedToken: string | undefined,
  logs: () => string,
  exitInfo: () => string | undefined,
  givenCa?: string,
): Promise<string> {
  const caPath = path.join(dataDir, "pki", "ca.crt");
  const tokenPath = path.join(dataDir, "admin-token");
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastError = "";
  while (Date.now() < deadline) {
    const exited = exitInfo();
    if (exited) throw new Error(`server exited before it was ready (${exited}).\n--- server output ---\n${logs()}`);
    if (givenCa !== undefined || existsSync(caPath)) {
      const ca = givenCa ?? readFileSync(caPath, "utf8");
      const token = fixedToken ?? (existsSync(tokenPath) ? readFileSync(tokenPath, "utf8").trim() : undefined);
      try {
        const res = await rawRequest(
          port,
          ca,
          "GET",
          "/readyz",
          token ? { Authorization: `Bearer ${token}` } : {},
          undefined,
          undefined,
          5_000,
        );
        if (res.status === 200 && res.text.trim() === "ok") return ca;
        lastError = `GET /readyz answered ${res.status}: ${res.text.slice(0, 200)}`;
      } catch (err) {
        lastError = String((err as Error).message ?? err);
      }
    } else {
      lastError = `${caPath} does not exist yet`;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill("SIGKILL");
  throw new Error(
    `server not ready within ${READY_TIMEOUT_MS / 1000} s (last: ${lastError}).\n--- server output ---\n${logs()}`,
  );
}

export async function startServer(opts: StartOptions = {}): Promise<Server> {
  let dataDir = opts.dataDir;
  if (!dataDir) {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "cluster-core-e2e-"));
    ownedDirs.add(dataDir);
  }
  const port = opts.port ?? (await freePort());
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    CLUSTER_CORE_CONSOLE: "off",
    NODE_ENV: "production",
    ...(opts.env ?? {}),
  };
  // vitest sets these for its own workers; the server must not think it runs under test.
  delete env.VITEST;
  delete env.VITEST_WORKER_ID;
  delete env.VITEST_POOL_ID;
  delete env.TEST;

  const child = spawn(process.execPath, opts.nodeArgs ?? ["--import", "tsx", "server.ts"], {
    cwd: REPO_ROOT,
    env: env as NodeJS.ProcessEnv,
    detached: false,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const capture = (c: Buffer) => {
    output += c.toString("utf8");
    if (output.length > LOG_LIMIT) output = output.slice(-LOG_LIMIT);
  };
  child.stdout!.on("data", capture);
  child.stderr!.on("data", capture);
  let exitDescription: string | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once("exit", (code, signal) => {
      exitDescription = `exit code ${code}, signal ${signal}`;
      resolve();
    });
    child.once("error", (err) => {
      exitDescription = `spawn error ${err.message}`;
      resolve();
    });
  });
  const tracked: Tracked = { child, exited };
  running.add(tracked);
  exited.then(() => running.delete(tracked));

  const logs = () => output;
  let ca: string;
  try {
    ca = await waitReady(child, port, dataDir, opts.env?.CLUSTER_ADMIN_TOKEN, logs, () => exitDescription, opts.ca);
  } catch (err) {
    child.kill("SIGKILL");
    await exited;
    throw err;
  }

  const token =
    opts.env?.CLUSTER_ADMIN_TOKEN ?? (await fs.readFile(path.join(dataDir, "admin-token"), "utf8")).trim();
  const kubeconfig = path.join(dataDir, "admin.kubeconfig");
  const kubeHome = await fs.mkdtemp(path.join(os.tmpdir(), "cluster-core-kubectl-"));
  ownedDirs.add(kubeHome);
  const agent = new https.Agent({ keepAlive: true, maxSockets: 64, ca });

  const request: Server["request"] = (method, urlPath, ropts = {}) => {
    const headers: Record<string, string> = { Accept: "application/json" };
    let payload: Buffer | undefined;
    if (ropts.body !== undefined) {
      if (typeof ropts.body === "string" || Buffer.isBuffer(ropts.body)) {
        payload = Buffer.isBuffer(ropts.body) ? ropts.body : Buffer.from(ropts.body, "utf8");
      } else {
        payload = Buffer.from(JSON.stringify(ropts.body), "utf8");
      }
      headers["Content-Type"] = ropts.contentType ?? "application/json";
    } else if (ropts.contentType) {
      headers["Content-Type"] = ropts.contentType;
    }
    const tok = ropts.token === undefined ? token : ropts.token;
    if (tok !== null) headers.Authorization = `Bearer ${tok}`;
    for (const [k, v] of Object.entries(ropts.headers ?? {})) {
      for (const existing of Object.keys(headers)) {
        if (existing.toLowerCase() === k.toLowerCase()) delete headers[existing];
      }
      headers[k] = v;
    }
    return rawRequest(port, ca, method, urlPath, headers, payload, agent);
  };

  const kubectl: Server["kubectl"] = (args, kopts = {}) =>
    new Promise((resolve, reject) => {
      const proc = spawn(KUBECTL, [`--cache-dir=${path.join(kubeHome, "cache")}`, ...args], {
        env: {
          PATH: process.env.PATH ?? "/usr/bin:/bin",
          HOME: kubeHome,
          KUBECONFIG: kubeconfig,
        } as unknown as NodeJS.ProcessEnv,
        stdio: ["pipe", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      proc.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
      proc.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
      const timeoutMs = kopts.timeoutMs ?? 60_000;
      const timer = setTimeout(() => {
        stderr += `\n[harness] kubectl killed after ${timeoutMs} ms`;
        proc.kill("SIGKILL");
      }, timeoutMs);
      proc.on("error", (err) => {
        clearTimeout(timer);
        reject(err);
      });
      proc.on("close", (code) => {
        clearTimeout(timer);
        const result = { code: code ?? -1, stdout, stderr };
        if (result.code !== 0 && !kopts.allowFail) {
          reject(
            new Error(`kubectl ${args.join(" ")} exited ${result.code}\nstdout: ${stdout}\nstderr: ${stderr}`),
          );
        } else resolve(result);
      });
      proc.stdin.end(kopts.input ?? "");
    });

  const stop: Server["stop"] = async (signal = "SIGTERM") => {
    agent.destroy();
    if (exitDescription) return;
    child.kill(signal);
    const graceful = await Promise.race([
      exited.then(() => true),
      new Promise<boolean>((r) => setTimeout(() => r(false), 15_000)),
    ]);
    if (!graceful) {
      child.kill("SIGKILL");
      await exited;
    }
  };

  const kill9: Server["kill9"] = async () => {
    agent.destroy();
    if (exitDescription) return;
    child.kill("SIGKILL");
    await exited;
  };

  const restart: Server["restart"] = async () => {
    await stop();
    return startServer({ env: opts.env, dataDir, port, ca: opts.ca, nodeArgs: opts.nodeArgs });
  };

  return {
    url: `https://127.0.0.1:${port}`,
    port,
    dataDir,
    token,
    ca,
    kubeconfig,
    kubectl,
    request,
    stop,
    kill9,
    restart,
    logs,
  };
}

/** Stops every server this worker started (SIGTERM, then SIGKILL) and removes temp dirs it created. */
export async function stopAll(): Promise<void> {
  await Promise.all(
    [...running].map(async (t) => {
      t.child.kill("SIGTERM");
      const ok = await Promise.race([
        t.exited.then(() => true),
        new Promise<boolean>((r) => setTimeout(() => r(false), 10_000)),
      ]);
      if (!ok) {
        t.child.kill("SIGKILL");
        await t.exited;
      }
    }),
  );
  if (!process.env.E2E_KEEP_DATA) {
    for (const dir of ownedDirs) rmSync(dir, { recursive: true, force: true });
    ownedDirs.clear();
  }
}

// ---------- cluster setup helpers ----------

/**
 * Creates each namespace (`POST /api/v1/namespaces`, as `kubectl create namespace` does) and waits until the
 * service-account controller has given it its `default` ServiceAccount, so a test can then create pods there
 * exactly as a user of a real cluster would. Throws on anything but 201.
 */
export async function createNamespaces(server: Server, ...names: string[]): Promise<void> {
  for (const name of names) {
    const res = await server.request("POST", "/api/v1/namespaces", {
      body: { apiVersion: "v1", kind: "Namespace", metadata: { name } },
    });
    if (res.status !== 201) throw new Error(`creating namespace ${name} answered ${res.status}: ${res.text.slice(0, 300)}`);
  }
  const deadline = Date.now() + 30_000;
  for (const name of names) {
    for (;;) {
      const sa = await server.request("GET", `/api/v1/namespaces/${name}/serviceaccounts/default`);
      if (sa.status === 200) break;
      if (Date.now() > deadline) {
        throw new Error(`namespace ${name} got no default ServiceAccount within 30 s (last: ${sa.status} ${sa.text.slice(0, 200)})`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  // The root-ca-cert-publisher's ConfigMap comes last: once it is there, the namespace is as a new namespace
  // of a real cluster is, and later writes in it are the test's own.
  for (const name of names) await rootCA(server, name);
}

/** The ConfigMap the root-ca-cert-publisher puts into every namespace, as kube's does. */
export const ROOT_CA = "kube-root-ca.crt";

/** Waits for a namespace's `kube-root-ca.crt` and returns it. */
export function rootCA(server: Server, ns: string): Promise<any> {
  return waitFor(`${ROOT_CA} in namespace ${ns}`, async () => {
    const res = await server.request("GET", `/api/v1/namespaces/${ns}/configmaps/${ROOT_CA}`);
    return res.status === 200 ? res.body : undefined;
  }, 30_000);
}

// ---------- assertion helpers shared by the test files ----------

/** Numeric view of a resourceVersion (a decimal string of one store-wide counter). */
export function rv(value: unknown): bigint {
  if (typeof value !== "string" || !/^\d+$/.test(value)) {
    throw new Error(`resourceVersion ${JSON.stringify(value)} is not a decimal string`);
  }
  return BigInt(value);
}

/**
 * Checks that `actual` contains everything in `expected` (objects key by key, arrays element by element
 * with equal length). Returns the first mismatching path, or undefined.
 */
export function subsetMismatch(expected: unknown, actual: unknown, at = ""): string | undefined {
  if (expected === null || typeof expected !== "object") {
    return Object.is(expected, actual)
      ? undefined
      : `${at || "<root>"}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) {
      return `${at}: expected array of ${expected.length}, got ${JSON.stringify(actual)}`;
    }
    for (let i = 0; i < expected.length; i++) {
      const m = subsetMismatch(expected[i], actual[i], `${at}[${i}]`);
      if (m) return m;
    }
    return undefined;
  }
  if (actual === null || typeof actual !== "object" || Array.isArray(actual)) {
    return `${at}: expected an object, got ${JSON.stringify(actual)}`;
  }
  for (const [k, v] of Object.entries(expected as Record<string, unknown>)) {
    const m = subsetMismatch(v, (actual as Record<string, unknown>)[k], at ? `${at}.${k}` : k);
    if (m) return m;
  }
  return undefined;
}

/** Polls `probe` until it yields something other than undefined, and returns it; fails after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000, intervalMs = 50): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** A test file's scratch folder (manifests, logs): see scratchFolder. */
export interface ScratchFolder {
  /** The folder's path (set once the file's tests begin). */
  readonly dir: string;
  /** Writes `text` to `name` in the folder; its path. */
  file(name: string, text: string): string;
}

/**
 * A scratch folder for one test file: made before its tests, removed after them once every server the file
 * started has stopped (so call it at the top of the file instead of a stopAll afterAll of its own).
 */
export function scratchFolder(prefix: string): ScratchFolder {
  let dir = "";
  beforeAll(() => { dir = mkdtempSync(path.join(os.tmpdir(), prefix)); });
  afterAll(async () => {
    await stopAll();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);
  return {
    get dir() { return dir; },
    file(name, text) {
      const f = path.join(dir, name);
      writeFileSync(f, text);
      return f;
    },
  };
}
