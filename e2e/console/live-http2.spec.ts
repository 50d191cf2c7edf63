// Live everywhere (issue 14 item 2): the console is served over HTTP/2, so the namespace live view streams
// every kind at once on one connection (over HTTP/1.1 its watches had to take turns), and each change in its
// feed carries its own time (the object's stamp), not the moment it reached the browser.
import { expect, type Page } from "@playwright/test";
import { ensureNamespaces, kubectl, shot, signIn, test, uniqueName } from "./support";

const NAMESPACE = "e2e-live-h2";

test.beforeAll(() => ensureNamespaces(NAMESPACE));

const configMap = (name: string) => JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: NAMESPACE }, data: { k: "v" } });

/** Open WATCH requests the server counts right now (apiserver_longrunning_requests). */
async function openWatches(): Promise<number> {
  const text = await kubectl(["get", "--raw", "/metrics"]);
  let n = 0;
  for (const line of text.split("\n")) {
    if (line.startsWith("apiserver_longrunning_requests{") && line.includes('verb="WATCH"')) n += Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return n;
}

/** A change feed: the overview's newest changes (watch events) or a namespace's one feed (its history). */
interface Feed {
  row: string;
  added: string;
  modified: string;
  /** How far a row's time may be from the object's own stamp (whole seconds) in ms: the history keeps ms. */
  slack: number;
}
const OVERVIEW: Feed = { row: "[data-testid=change]", added: "ADDED", modified: "MODIFIED", slack: 0 };
const NAMESPACE_PAGE: Feed = { row: "[data-testid=namespace-change]", added: "Created", modified: "Modified", slack: 999 };

/**
 * The feed's rows for ConfigMap `name` (just created, its row shown) carry their own times: the create its
 * creation stamp, not the moment the event arrived; a label made 2.5 s later the time kubectl-label's
 * managedFields entry records; two rows, two ages, newest first.
 */
async function expectOwnTimes(page: Page, name: string, feed: Feed) {
  const rows = page.locator(`${feed.row}[data-name="${name}"]`);
  const near = (shown: string | null, stamp: string) => {
    const d = Date.parse(shown!) - Date.parse(stamp);
    expect(d, `shown ${shown}, stamped ${stamp}`).toBeGreaterThanOrEqual(0);
    expect(d, `shown ${shown}, stamped ${stamp}`).toBeLessThanOrEqual(feed.slack);
  };
  const created = JSON.parse(await kubectl(["get", "configmap", name, "-n", NAMESPACE, "-o", "json"]));
  near(await rows.filter({ hasText: feed.added }).locator("time").getAttribute("datetime"), created.metadata.creationTimestamp);

  await page.waitForTimeout(2_500);
  await kubectl(["label", "configmap", name, "-n", NAMESPACE, "tier=web"]);
  const modified = rows.filter({ hasText: feed.modified });
  await expect(modified).toBeVisible();
  const labelled = JSON.parse(await kubectl(["get", "configmap", name, "-n", NAMESPACE, "-o", "json", "--show-managed-fields"]));
  const labelTime = labelled.metadata.managedFields.find((f: { manager: string }) => f.manager === "kubectl-label").time;
  near(await modified.locator("time").getAttribute("datetime"), labelTime);
  const times = await rows.locator("time").evaluateAll((els) => els.map((e) => Date.parse(e.getAttribute("datetime")!)));
  expect(times).toHaveLength(2);
  // 2.5 s apart; the label's stamp is whole seconds while a history row keeps the create's milliseconds.
  expect(times[0] - times[1]).toBeGreaterThanOrEqual(2_500 - 1_000);
  await expect(rows.filter({ hasText: feed.added }).locator("time")).not.toHaveText(/^0s/);
}

test("the namespace live view streams every kind at once over HTTP/2; a kubectl change appears with its own time", async ({ page }) => {
  await signIn(page, `/namespaces/${NAMESPACE}`);
  expect(await page.evaluate(() => (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).nextHopProtocol)).toBe("h2");

  const tiles = page.locator("[data-testid=kind-counts] a");
  const kinds = await tiles.count();
  expect(kinds).toBeGreaterThanOrEqual(10);
  // The live view's indicator and the Namespace object page's own.
  const indicators = page.getByTestId("live-indicator");
  for (let i = 0; i < (await indicators.count()); i++) await expect(indicators.nth(i)).toHaveAttribute("data-status", "live");
  for (let i = 0; i < kinds; i++) await expect(tiles.nth(i)).not.toContainText("…");
  // Every kind's watch is open at the same time (HTTP/1.1's slots allowed four).
  await expect.poll(openWatches, { message: "every kind of the view watched at once" }).toBeGreaterThanOrEqual(kinds);

  const first = uniqueName("h2-first");
  await kubectl(["create", "--validate=false", "-f", "-"], configMap(first));
  await expect(page.locator(`${NAMESPACE_PAGE.row}[data-name="${first}"]`)).toContainText(NAMESPACE_PAGE.added);
  await expectOwnTimes(page, first, NAMESPACE_PAGE);
  await shot(page, "namespace-live-h2");
});

test("the overview streams every kind cluster-wide and shows a change made elsewhere, with its own time", async ({ page }) => {
  await signIn(page, "/");
  await expect(page.getByTestId("kind-counts")).toBeVisible();
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-status", "live");
  const name = uniqueName("h2-overview");
  await kubectl(["create", "--validate=false", "-f", "-"], configMap(name));
  await expect(page.locator(`[data-testid=change][data-name="${name}"]`)).toContainText(`${NAMESPACE}/${name}`);
  await expectOwnTimes(page, name, OVERVIEW);
});
