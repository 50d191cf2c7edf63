// Console benchmark, editor scenario (issue 14 item 1): how long the YAML tab of a pod takes to open.
//   - "from the overview": the pod's overview is shown, the user reads it for a moment (1.5 s), then clicks
//     the YAML tab → ms until the editor shows the pod's YAML (its model holds the text and a line with the
//     pod's name is rendered);
//   - "direct": navigation start of `?tab=yaml` (a fresh page, nothing cached in memory) → the same moment.
// bench/console.ts calls `editorOpenScenario` with its signed-in page; alone it starts its own server:
// `node --import tsx bench/console-editor.ts` (needs `npm run build`; port BENCH_CONSOLE_PORT, default 3941).
import type { Page } from "playwright-core";
import { isMain, runAlone, type ApiRequest } from "./console-harness";

const NAMESPACE = "bench-editor";
const POD = "bench-editor-pod";
const RUNS = Number(process.env.BENCH_EDITOR_RUNS ?? 5);

export interface EditorOpenResult {
  fromOverviewMs: { medianMs: number; runsMs: number[] };
  directMs: { medianMs: number; runsMs: number[] };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Resolves when the editor shows the pod's YAML; returns performance.now() of that moment. */
async function editorShown(page: Page): Promise<number> {
  await page.waitForFunction(
    (name) => {
      const el = document.querySelector("[data-testid=yaml-editor]");
      const uri = el?.getAttribute("data-model-uri");
      const monaco = (window as unknown as { __clusterCoreMonaco?: { editor: { getModel(u: unknown): { getValue(): string } | null }; Uri: { parse(s: string): unknown } } }).__clusterCoreMonaco;
      if (!uri || !monaco) return false;
      const model = monaco.editor.getModel(monaco.Uri.parse(uri));
      const rendered = [...(el?.querySelectorAll(".view-line") ?? [])].some((l) => l.textContent?.includes(name));
      return !!model && model.getValue().includes(`name: ${name}`) && rendered;
    },
    POD,
    { timeout: 60_000, polling: 10 },
  );
  return page.evaluate(() => performance.now());
}

export async function editorOpenScenario(page: Page, base: string, request: ApiRequest): Promise<EditorOpenResult> {
  await request("POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: NAMESPACE } });
  const created = await request("POST", `/api/v1/namespaces/${NAMESPACE}/pods`, {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: POD, namespace: NAMESPACE, labels: { app: "bench" } },
    spec: { containers: [{ name: "app", image: "nginx:1.27", ports: [{ containerPort: 8080 }] }] },
  });
  if (created.status !== 201 && created.status !== 409) throw new Error(`creating the pod: ${created.status} ${created.text.slice(0, 200)}`);
  const url = `${base}/namespaces/${NAMESPACE}/pods/${POD}`;
  const fromOverview: number[] = [];
  const direct: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    await page.goto(url);
    await page.getByTestId("tab-yaml").waitFor();
    await page.getByText(POD).first().waitFor();
    await page.waitForTimeout(1_500);
    const clicked = await page.evaluate(() => performance.now());
    await page.getByTestId("tab-yaml").click();
    fromOverview.push(Math.round((await editorShown(page)) - clicked));

    await page.goto(`${url}?tab=yaml`);
    direct.push(Math.round(await editorShown(page)));
  }
  const result = { fromOverviewMs: { medianMs: median(fromOverview), runsMs: fromOverview }, directMs: { medianMs: median(direct), runsMs: direct } };
  console.log(`YAML tab open, from the overview: ${result.fromOverviewMs.medianMs} ms (runs ${fromOverview.join(", ")})`);
  console.log(`YAML tab open, direct navigation: ${result.directMs.medianMs} ms (runs ${direct.join(", ")})`);
  return result;
}

if (isMain(import.meta.url)) {
  runAlone(editorOpenScenario).catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
