// Console benchmark scenario "live" (issue 14 item 2): how fast the namespace live view connects, and how long
// a change made through the API takes to show in it. The view watches every namespaced kind at once (a
// dozen streams; over HTTP/2 they share one connection). Measured:
//   - connect: navigation start → the view's indicator says Live (every watch streaming);
//   - change → visible: a write (ConfigMap, Secret, ServiceAccount in turn, one a second) is sent at t0; a
//     MutationObserver in the page notes when its row appears in the page's feed of changes (the namespace's
//     history of the last hour, read again when a watch sees a change); p50/p95/max of the
//     differences (same machine, same clock). Target: p95 ≤ 1,000 ms.
//   - the protocol the page was served over, and whether each change's displayed time is its own (within
//     a second of its write, not the moment it arrived).
// Registered in bench/console.ts; also runs alone: `node --import tsx bench/console-live.ts` (needs a build;
// BENCH_LIVE_HTTP1=1 makes the browser speak HTTP/1.1, for comparison; BENCH_LIVE_CHANGES, default 30).
import type { Page } from "playwright-core";
import { isMain, runAlone, type ApiRequest } from "./console-harness";

export interface LiveResult {
  protocol: string;
  connectMs: number[];
  changes: number;
  changeToVisibleMs: { p50: number; p95: number; max: number };
  /** Changes whose shown time lies within 1.5 s of their write (whole-second stamps). */
  ownTimeShown: number;
  targetMet: boolean;
}

const NAMESPACE = "bench-live";
const CHANGES = Number(process.env.BENCH_LIVE_CHANGES ?? 30);
const CONNECT_RUNS = 3;

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

function object(i: number, name: string): { plural: string; body: unknown } {
  const metadata = { name, namespace: NAMESPACE, labels: { bench: "live" } };
  switch (i % 3) {
    case 0: return { plural: "configmaps", body: { apiVersion: "v1", kind: "ConfigMap", metadata, data: { i: String(i) } } };
    case 1: return { plural: "secrets", body: { apiVersion: "v1", kind: "Secret", metadata, stringData: { i: String(i) } } };
    default: return { plural: "serviceaccounts", body: { apiVersion: "v1", kind: "ServiceAccount", metadata } };
  }
}

/** Runs the scenario on a signed-in page of the console at `base`. */
export async function measureLiveView(page: Page, base: string, request: ApiRequest): Promise<LiveResult> {
  const ns = await request("POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: NAMESPACE } });
  if (ns.status !== 201 && ns.status !== 409) throw new Error(`namespace ${NAMESPACE}: ${ns.status} ${ns.text.slice(0, 200)}`);

  await page.context().addInitScript(liveInitScript);
  const connectMs: number[] = [];
  for (let run = 0; run < CONNECT_RUNS; run++) {
    await page.goto(`${base}/namespaces/${NAMESPACE}`);
    await page.waitForSelector("[data-testid=live-indicator][data-status=live]", { timeout: 60_000 });
    connectMs.push(Math.round(await page.evaluate(() => (window as unknown as { __liveAt?: number }).__liveAt ?? performance.now())));
  }
  const protocol = await page.evaluate(() => (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).nextHopProtocol);

  // Note when each change's row first appears (epoch ms, the clock the writer uses too).
  await page.evaluate(`(() => {
    const w = window;
    w.__seen = {};
    const note = () => {
      for (const li of document.querySelectorAll("[data-testid=namespace-change]")) {
        const name = li.getAttribute("data-name");
        if (name && !(name in w.__seen)) w.__seen[name] = { at: Date.now(), shown: Date.parse(li.querySelector("time")?.getAttribute("datetime") ?? "") };
      }
    };
    new MutationObserver(note).observe(document.querySelector("[data-testid=namespace-changes]"), { childList: true, subtree: true });
  })()`);

  const run = Date.now().toString(36);
  const sent: { name: string; t0: number }[] = [];
  for (let i = 0; i < CHANGES; i++) {
    const name = `live-${run}-${i}`;
    const { plural, body } = object(i, name);
    const t0 = Date.now();
    const r = await request("POST", `/api/v1/namespaces/${NAMESPACE}/${plural}`, body);
    if (r.status !== 201) throw new Error(`create ${plural}/${name}: ${r.status} ${r.text.slice(0, 200)}`);
    sent.push({ name, t0 });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  await page.waitForFunction(`Object.keys(window.__seen).length >= ${CHANGES}`, undefined, { timeout: 30_000 }).catch(() => {});
  const seen = (await page.evaluate("window.__seen")) as Record<string, { at: number; shown: number }>;
  const latencies = sent.map(({ name, t0 }) => (seen[name] ? seen[name].at - t0 : Infinity)).sort((a, b) => a - b);
  const ownTimeShown = sent.filter(({ name, t0 }) => seen[name] && Math.abs(seen[name].shown - t0) <= 1_500).length;
  const result: LiveResult = {
    protocol,
    connectMs,
    changes: CHANGES,
    changeToVisibleMs: { p50: pct(latencies, 0.5), p95: pct(latencies, 0.95), max: latencies.at(-1) ?? 0 },
    ownTimeShown,
    targetMet: pct(latencies, 0.95) <= 1_000,
  };
  console.log(`live view over ${protocol}: connected in ${connectMs.join(", ")} ms; change → visible p50 ${result.changeToVisibleMs.p50} ms, p95 ${result.changeToVisibleMs.p95} ms, max ${result.changeToVisibleMs.max} ms (${CHANGES} changes; target p95 ≤ 1000 ms: ${result.targetMet ? "met" : "NOT met"}); own time shown for ${ownTimeShown}/${CHANGES}`);
  return result;
}

/** Records when the page's live indicator first says Live (navigation-relative ms), for every page. */
export const liveInitScript = `(() => {
  const w = window;
  new MutationObserver((_, observer) => {
    if (w.__liveAt === undefined && document.querySelector("[data-testid=live-indicator][data-status=live]")) {
      w.__liveAt = performance.now();
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-status"] });
})()`;

// Alone: its own server and browser (BENCH_LIVE_HTTP1=1: the browser speaks HTTP/1.1 only, six connections per host).
if (isMain(import.meta.url)) {
  runAlone(measureLiveView, process.env.BENCH_LIVE_HTTP1 === "1" ? ["--disable-http2"] : []).catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
