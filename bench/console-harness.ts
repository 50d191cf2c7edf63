// What the console benchmarks share: the admin's HTTPS calls to the server under test, and, for a scenario run
// alone, the production server (e2e/console/start-server.sh) plus a signed-in Chromium page.
import { spawn, type ChildProcess } from "node:child_process";
import https from "node:https";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Page } from "playwright-core";

export type ApiRequest = (method: string, urlPath: string, body?: unknown, contentType?: string) => Promise<{ status: number; text: string }>;

export const BENCH_TOKEN = "console-bench-admin-token";
export const benchPort = () => Number(process.env.BENCH_CONSOLE_PORT ?? 3941);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Calls as the bearer of `token` (JSON bodies), on a keep-alive pool; `close` ends the pool. */
export function apiRequester(base: string, token: string): { request: ApiRequest; close: () => void } {
  const agent = new https.Agent({ keepAlive: true, maxSockets: 32, rejectUnauthorized: false });
  const request: ApiRequest = (method, urlPath, body, contentType = "application/json") =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const headers = { Authorization: `Bearer ${token}`, ...(payload ? { "Content-Type": contentType, "Content-Length": Buffer.byteLength(payload) } : {}) };
      const req = https.request(`${base}${urlPath}`, { method, agent, headers }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on("error", reject);
      req.end(payload);
    });
  return { request, close: () => agent.destroy() };
}

/** The production server on `port` with a fresh data directory (needs `npm run build`). */
export function startBenchServer(port: number): ChildProcess {
  return spawn("bash", ["e2e/console/start-server.sh"], {
    cwd: root,
    env: { ...process.env, E2E_PORT: String(port), E2E_ADMIN_TOKEN: BENCH_TOKEN, E2E_DATA_DIR_FILE: `/tmp/cc-console-bench-${port}.datadir` },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

export async function waitReady(request: ApiRequest): Promise<void> {
  for (let i = 0; ; i++) {
    if (await request("GET", "/readyz").then((r) => r.status === 200, () => false)) return;
    if (i > 240) throw new Error("server did not become ready");
    await new Promise((r) => setTimeout(r, 500));
  }
}

export async function signIn(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/signin`);
  await page.fill("#token", BENCH_TOKEN);
  await page.click("button[type=submit]");
  await page.waitForURL((u) => !u.pathname.startsWith("/signin"));
}

/** A scenario run alone: its own server and browser (`extraArgs` for Chromium), signed in, then cleaned up. */
export async function runAlone(scenario: (page: Page, base: string, request: ApiRequest) => Promise<unknown>, extraArgs: string[] = []): Promise<void> {
  const port = benchPort();
  const base = `https://127.0.0.1:${port}`;
  const api = apiRequester(base, BENCH_TOKEN);
  const server = startBenchServer(port);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", ...extraArgs],
  });
  try {
    await waitReady(api.request);
    const page = await (await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1440, height: 900 } })).newPage();
    await signIn(page, base);
    await scenario(page, base, api.request);
  } finally {
    await browser.close();
    server.kill("SIGTERM");
    api.close();
  }
}

/** Whether the module at `metaUrl` is the script node was started with. */
export const isMain = (metaUrl: string) => !!process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(metaUrl);
