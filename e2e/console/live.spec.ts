// Lists stay live: kubectl's changes appear in an open list without a reload; pause holds them back and
// counts them; the namespace live view streams counts, changes and Events.
import { expect } from "@playwright/test";
import { ensureNamespaces, kubectl, shot, signIn, test, uniqueName } from "./support";

const NAMESPACE = "e2e-live";

test.beforeAll(() => ensureNamespaces(NAMESPACE));

const configMap = (name: string, labels: Record<string, string> = {}) =>
  JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: NAMESPACE, labels }, data: { k: "v" } });

test("a change made by kubectl appears in an open list without reload", async ({ page }) => {
  const seed = uniqueName("seed");
  await kubectl(["create", "--validate=false", "-f", "-"], configMap(seed, { app: "web" }));
  await signIn(page, `/namespaces/${NAMESPACE}/configmaps`);
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-status", "live");
  // A marker that only survives if the page is never reloaded.
  await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));

  const added = uniqueName("added");
  await kubectl(["create", "--validate=false", "-f", "-"], configMap(added, { app: "db" }));
  const row = page.locator(`[data-testid=resource-row][data-key="${NAMESPACE}/${added}"]`);
  await expect(row).toBeVisible();

  await kubectl(["label", "-n", NAMESPACE, "configmap", added, "tier=backend"]);
  await expect(row).toHaveClass(/row-flash/);

  // Label selector filtering is client-side over the live list.
  await page.getByLabel("Label selector").fill("app=db");
  await expect(page.getByTestId("resource-row")).toHaveCount(1);
  await expect(page).toHaveURL(/l=app%3Ddb/);
  await page.getByLabel("Label selector").fill("");

  await kubectl(["delete", "-n", NAMESPACE, "configmap", added]);
  await expect(row).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
});

test("pause freezes the list and counts the changes waiting", async ({ page }) => {
  await kubectl(["create", "--validate=false", "-f", "-"], configMap(uniqueName("base")));
  await signIn(page, `/namespaces/${NAMESPACE}/configmaps`);
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-status", "live");
  await page.getByTestId("pause-button").click();
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-status", "paused");

  const names = [uniqueName("held"), uniqueName("held")];
  for (const name of names) await kubectl(["create", "--validate=false", "-f", "-"], configMap(name));
  await expect(page.getByTestId("pending-count")).toHaveText("· 2 waiting");
  await expect(page.locator(`[data-key="${NAMESPACE}/${names[0]}"]`)).toHaveCount(0);
  await shot(page, "list-paused");

  await page.getByTestId("pause-button").click();
  for (const name of names) await expect(page.locator(`[data-key="${NAMESPACE}/${name}"]`)).toBeVisible();
});

test("the namespace live view streams counts, newest changes and events", async ({ page }) => {
  const seed = uniqueName("nsview");
  await kubectl(["create", "--validate=false", "-f", "-"], configMap(seed));
  await signIn(page, `/namespaces/${NAMESPACE}`);
  const count = page.getByTestId("count-configmaps");
  await expect(count).not.toContainText("…");
  const before = Number((await count.locator("span").nth(1).textContent())!.trim());

  const fresh = uniqueName("nsview");
  await kubectl(["create", "--validate=false", "-f", "-"], configMap(fresh));
  await expect(count.locator("span").nth(1)).toHaveText(String(before + 1));
  await expect(page.getByTestId("namespace-changes")).toContainText(fresh);

  const event = {
    apiVersion: "v1",
    kind: "Event",
    metadata: { name: uniqueName("ev"), namespace: NAMESPACE },
    involvedObject: { apiVersion: "v1", kind: "ConfigMap", name: fresh, namespace: NAMESPACE },
    reason: "ConsoleE2E",
    message: "streamed to the namespace view",
    type: "Normal",
    count: 1,
    firstTimestamp: new Date().toISOString(),
    lastTimestamp: new Date().toISOString(),
  };
  await kubectl(["create", "--validate=false", "-f", "-"], JSON.stringify(event));
  await expect(page.getByTestId("namespace-events")).toContainText("streamed to the namespace view");
  await shot(page, "namespace-live-view");

  // The object page shows that Event too, through its involvedObject field selector.
  await page.goto(`/namespaces/${NAMESPACE}/configmaps/${fresh}`);
  await expect(page.getByTestId("object-events")).toContainText("ConsoleE2E");
  await shot(page, "object-page");
});
