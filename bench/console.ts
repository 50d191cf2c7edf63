// Console benchmark (issue 5): against the real production server in Debian Chromium, measures
//   1. time to first rendered row of a pod list holding 1,000 and 10,000 pods (navigation start → first row);
//   2. how many watch events per second an open 5,000-row list absorbs before frame time goes over 50 ms
//      (p95 of requestAnimationFrame intervals during each step of an increasing update rate);
//   3. how long a pod's YAML tab takes to open (console-editor.ts).
// Needs `npm run build` first. Run: `node --import tsx bench/console.ts` (npm run bench:console).
// Results go to stdout and bench/results/console-<timestamp>.json.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Page } from "playwright-core";
import { editorOpenScenario, type EditorOpenResult } from "./console-editor";
import type { ListsResult } from "./console-lists";
import { apiRequester, BENCH_TOKEN, benchPort, signIn, startBenchServer, waitReady } from "./console-harness";
import { measureLiveView, type LiveResult } from "./console-live";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PORT = benchPort();
const TOKEN = BENCH_TOKEN;
const BASE = `https://127.0.0.1:${PORT}`;
const DATA_DIR_FILE = `/tmp/cc-console-bench-${PORT}.datadir`;
const FRAME_BUDGET_MS = 50;
const STEP_SECONDS = Number(process.env.BENCH_STEP_SECONDS ?? 4);
const RATES = (process.env.BENCH_RATES ?? "25,50,100,200,400,800,1600").split(",").map(Number);

const api = apiRequester(BASE, TOKEN);
const request = api.request;

const pod = (namespace: string, i: number) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name: `bench-${i.toString().padStart(5, "0")}`, namespace, labels: { app: `app-${i % 20}`, bench: "console" } },
  spec: { containers: [{ name: "app", image: "nginx:1.27", ports: [{ containerPort: 8080 }] }], nodeName: `node-${i % 8}` },
});

async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

async function seed(namespace: string, count: number): Promise<void> {
  const started = Date.now();
  const ns = await request("POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: namespace } });
  if (ns.status !== 201 && ns.status !== 409) throw new Error(`creating namespace ${namespace}: ${ns.status} ${ns.text.slice(0, 200)}`);
  await pool([...Array(count).keys()], 16, async (i) => {
    const r = await request("POST", `/api/v1/namespaces/${namespace}/pods`, pod(namespace, i));
    if (r.status !== 201 && r.status !== 409) throw new Error(`seeding ${namespace}: ${r.status} ${r.text.slice(0, 200)}`);
  });
  console.log(`seeded ${count} pods in ${namespace} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}


/** ms from navigation start until the first table row is in the DOM (median of `runs`). */
async function timeToFirstRow(page: Page, urlPath: string, expectedRows: number, runs = 3): Promise<{ medianMs: number; runsMs: number[] }> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    await page.goto(`${BASE}${urlPath}`);
    await page.waitForSelector("[data-testid=resource-row]", { timeout: 120_000 });
    const ms = await page.evaluate(() => (window as unknown as { __firstRowAt?: number }).__firstRowAt ?? performance.now());
    // The first rows may be the server's first page; the whole list follows.
    await page.getByTestId("row-count").filter({ hasText: / total$/ }).waitFor({ timeout: 120_000 });
    const count = await page.getByTestId("row-count").textContent();
    if (!count?.includes(String(expectedRows))) throw new Error(`expected ${expectedRows} rows at ${urlPath}, page says ${count}`);
    times.push(Math.round(ms));
  }
  times.sort((a, b) => a - b);
  return { medianMs: times[Math.floor(times.length / 2)], runsMs: times };
}

interface StepResult {
  targetPerSecond: number;
  sentPerSecond: number;
  foldedPerSecond: number;
  p95FrameMs: number;
  maxFrameMs: number;
}

/** Updates pods at `rate` per second for STEP_SECONDS while the page records frame intervals. */
async function absorbStep(page: Page, namespace: string, count: number, rate: number, tick: number): Promise<StepResult> {
  // A string, not a function: tsx wraps named functions in a helper that does not exist in the page.
  await page.evaluate(`(() => {
    const w = window;
    w.__frames = [];
    w.__foldedStart = w.__clusterCoreFoldedEvents ?? 0;
    if (w.__frameLoop) return;
    w.__frameLoop = true;
    let last = performance.now();
    const loop = (t) => { w.__frames.push(t - last); last = t; requestAnimationFrame(loop); };
    requestAnimationFrame(loop);
  })()`);
  const started = Date.now();
  const deadline = started + STEP_SECONDS * 1000;
  let sent = 0;
  const inflight = new Set<Promise<unknown>>();
  while (Date.now() < deadline) {
    const due = Math.floor(((Date.now() - started) / 1000) * rate);
    while (sent < due && inflight.size < 64) {
      const i = (sent * 7919) % count;
      const p = request("PATCH", `/api/v1/namespaces/${namespace}/pods/${pod(namespace, i).metadata.name}`, { metadata: { labels: { tick: `${tick}-${sent}` } } }, "application/merge-patch+json").finally(() => inflight.delete(p));
      inflight.add(p);
      sent++;
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  await Promise.all(inflight);
  const elapsed = (Date.now() - started) / 1000;
  await page.waitForTimeout(500);
  const { frames, folded } = await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __foldedStart: number; __clusterCoreFoldedEvents?: number };
    return { frames: w.__frames.slice(1), folded: (w.__clusterCoreFoldedEvents ?? 0) - w.__foldedStart };
  });
  const sorted = [...frames].sort((a, b) => a - b);
  return {
    targetPerSecond: rate,
    sentPerSecond: Math.round(sent / elapsed),
    foldedPerSecond: Math.round(folded / (elapsed + 0.5)),
    p95FrameMs: Math.round(sorted[Math.floor(sorted.length * 0.95)] ?? 0),
    maxFrameMs: Math.round(sorted.at(-1) ?? 0),
  };
}

async function main() {
  const server = startBenchServer(PORT);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  try {
    await waitReady(request);
    console.log(`server ready; data dir ${readFileSync(DATA_DIR_FILE, "utf8").trim()}`);
    await seed("bench-1k", 1_000);
    await seed("bench-4k", 4_000);
    await seed("bench-5k", 5_000);

    const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1440, height: 900 } });
    await context.addInitScript(() => {
      const w = window as unknown as { __firstRowAt?: number };
      new MutationObserver((_, observer) => {
        if (w.__firstRowAt === undefined && document.querySelector("[data-testid=resource-row]")) {
          w.__firstRowAt = performance.now();
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    });
    const page = await context.newPage();
    await signIn(page, BASE);

    const firstRow1k = await timeToFirstRow(page, "/namespaces/bench-1k/pods", 1_000);
    console.log(`first row, 1,000 pods: ${firstRow1k.medianMs} ms (runs ${firstRow1k.runsMs.join(", ")})`);
    const firstRow10k = await timeToFirstRow(page, "/pods", 10_000);
    console.log(`first row, 10,000 pods: ${firstRow10k.medianMs} ms (runs ${firstRow10k.runsMs.join(", ")})`);

    await page.goto(`${BASE}/namespaces/bench-5k/pods`);
    await page.waitForSelector("[data-testid=resource-row]");
    await page.waitForSelector("[data-testid=live-indicator][data-status=live]");
    const steps: StepResult[] = [];
    let absorbed = 0;
    let serverBound = false;
    for (const [i, rate] of RATES.entries()) {
      const step = await absorbStep(page, "bench-5k", 5_000, rate, i);
      steps.push(step);
      console.log(`rate ${rate}/s: sent ${step.sentPerSecond}/s, folded ${step.foldedPerSecond}/s, frame p95 ${step.p95FrameMs} ms, max ${step.maxFrameMs} ms`);
      if (step.p95FrameMs > FRAME_BUDGET_MS) break;
      absorbed = Math.max(absorbed, step.foldedPerSecond);
      // The server, not the page, is the limit once it cannot send faster than asked.
      if (step.sentPerSecond < rate * 0.8) {
        console.log("the writer could not reach the target rate; stopping (the limit is the server's write path here)");
        serverBound = true;
        break;
      }
    }
    console.log(`5,000-row list absorbs ${serverBound ? "at least " : ""}${absorbed} watch events/s with p95 frame time ≤ ${FRAME_BUDGET_MS} ms${serverBound ? " (the server could not write faster)" : ""}`);
    const lists = await (await import("./console-lists")).listsScenario({ page, base: BASE, token: TOKEN });

    const result = {
      live: await measureLiveView(page, BASE, request), // bench/console-live.ts: the namespace live view (issue 14)
      at: new Date().toISOString(),
      firstRowMs: { pods1000: firstRow1k, pods10000: firstRow10k },
      watchAbsorption: { rows: 5_000, frameBudgetMs: FRAME_BUDGET_MS, stepSeconds: STEP_SECONDS, absorbedEventsPerSecond: absorbed, limitedByServerWrites: serverBound, steps },
      lists,
    };
    const editorOpen = await editorOpenScenario(page, BASE, (method, urlPath, body) => request(method, urlPath, body));
    const targets = issueTargets(result.live, lists, editorOpen);
    console.log("\nissue 14 targets:");
    for (const t of targets) console.log(`  ${t.met ? "met    " : "NOT met"}  ${t.name}: ${t.value} (goal ${t.goal})`);
    Object.assign(result, { editorOpen, targets });
    mkdirSync(path.join(root, "bench", "results"), { recursive: true });
    const file = path.join(root, "bench", "results", `console-${result.at.replace(/[:.]/g, "-")}.json`);
    writeFileSync(file, JSON.stringify(result, null, 2) + "\n");
    console.log(`written ${path.relative(root, file)}`);
  } finally {
    await browser.close();
    server.kill("SIGTERM");
    api.close();
  }
}

interface Target {
  name: string;
  goal: string;
  value: number;
  met: boolean;
}

/** Issue 14's numbers, each judged on this run (medians of the runs where a scenario repeats). */
function issueTargets(live: LiveResult, lists: ListsResult, editor: EditorOpenResult): Target[] {
  const under = (name: string, value: number, goal: number, unit: string): Target => ({ name, goal: `< ${goal} ${unit}`, value, met: value < goal });
  const atLeast = (name: string, value: number, goal: number): Target => ({ name, goal: `>= ${goal}`, value, met: value >= goal });
  return [
    under("namespace view: a change visible, p95 ms", live.changeToVisibleMs.p95, 1_000, "ms"),
    under("10,000 rows: first rows, median ms", lists.firstRowsMs.medianMs, 500, "ms"),
    atLeast("10,000 rows: share of scroll frames under 20 ms", lists.scrollIdle.under20Share, 0.95),
    atLeast(`10,000 rows: share of scroll frames under 20 ms with ${lists.scrollWithEvents.eventsPerSecond} watch events/s`, lists.scrollWithEvents.under20Share, 0.95),
    under("YAML tab open from the overview, median ms", editor.fromOverviewMs.medianMs, 1_000, "ms"),
    under("YAML tab open by direct navigation, median ms", editor.directMs.medianMs, 1_000, "ms"),
  ];
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
