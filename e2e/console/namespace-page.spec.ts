// A namespace's page (issue 22, item 5): its delete dialog says one true thing, that deleting a Namespace
// deletes everything in it, and counts what it holds by kind; its live tab is one scrolling area with one feed
// of changes, which shows a kubectl change as it happens.
import { expect, type Page } from "@playwright/test";
import { ensureNamespaces, ensureObjects, expectAccessible, kubectl, signIn, test, uniqueName } from "./support";

test.describe.configure({ timeout: 180_000 });

const configMap = (namespace: string, name: string) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace }, data: { a: "b" } });

/** How many objects of a kind kubectl finds in the namespace. */
async function count(resource: string, namespace: string): Promise<number> {
  return (await kubectl(["get", resource, "-n", namespace, "-o", "name"])).split("\n").filter(Boolean).length;
}

test("the namespace delete dialog says everything in it goes, counts it by kind, and deleting takes it all", async ({ page }) => {
  const ns = uniqueName("doomed-contents");
  await ensureNamespaces(ns);
  await ensureObjects(
    ...["one", "two", "three"].map((n) => configMap(ns, n)),
    ...["s1", "s2"].map((name) => ({ apiVersion: "v1", kind: "Secret", metadata: { name, namespace: ns }, data: { k: Buffer.from("v").toString("base64") } })),
    { apiVersion: "v1", kind: "Service", metadata: { name: "web", namespace: ns }, spec: { selector: { app: "web" }, ports: [{ port: 80 }] } },
  );
  // What kubectl sees (the namespace's own ConfigMap and ServiceAccount included), once the controllers settled.
  await expect.poll(() => count("serviceaccounts", ns), { timeout: 30_000 }).toBeGreaterThan(0);
  await expect.poll(() => count("configmaps", ns), { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
  const configMaps = await count("configmaps", ns);
  const serviceAccounts = await count("serviceaccounts", ns);

  await signIn(page, `/namespaces/${ns}?tab=overview&delete=1`);
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible({ timeout: 60_000 });
  await expect(dialog.getByTestId("namespace-contents")).toHaveAttribute("data-state", "ready");
  // One true thing, said once: no word of "only the Namespace is deleted".
  await expect(dialog).toContainText("Deleting a Namespace deletes everything in it");
  await expect(dialog).not.toContainText(/only the Namespace/i);
  await expect(dialog).not.toContainText("No dependents found");
  const items = dialog.getByTestId("namespace-contents-item");
  await expect(items.filter({ hasText: "ConfigMap" })).toHaveText(`${configMaps} ConfigMaps`);
  await expect(items.filter({ hasText: "Secret" })).toHaveText("2 Secrets");
  await expect(items.filter({ hasText: /^\d+ Services?$/ })).toHaveText("1 Service");
  await expect(items.filter({ hasText: "ServiceAccount" })).toHaveText(serviceAccounts === 1 ? "1 ServiceAccount" : `${serviceAccounts} ServiceAccounts`);
  // Kinds it holds none of are not listed.
  await expect(items.filter({ hasText: "PersistentVolumeClaim" })).toHaveCount(0);
  await expectAccessible(page, "namespace delete dialog with its contents");

  await dialog.getByTestId("delete-confirm-text").fill(ns);
  await dialog.getByTestId("confirm-delete").click();
  // Kube's namespace lifecycle: the content goes, then the namespace.
  await expect
    .poll(() => kubectl(["get", "namespace", ns, "-o", "name"]).then(() => "present", (e: Error) => (/NotFound|not found/.test(e.message) ? "gone" : e.message)), { timeout: 60_000 })
    .toBe("gone");
  expect(await kubectl(["get", "configmaps,secrets,services", "-n", ns, "-o", "name"]).catch(() => "")).toBe("");
});

/** Elements of the page that scroll vertically: their content is taller than they are and they let it scroll. */
function scrollAreas(page: Page): Promise<string[]> {
  return page.locator("main").evaluate((main) =>
    [...main.querySelectorAll<HTMLElement>("*")]
      .filter((el) => {
        const style = getComputedStyle(el).overflowY;
        return (style === "auto" || style === "scroll") && el.scrollHeight > el.clientHeight + 1 && el.clientHeight > 0;
      })
      .map((el) => el.getAttribute("aria-label") ?? el.getAttribute("data-testid") ?? el.className),
  );
}

test("a namespace's live tab scrolls as one area and shows its changes in one feed, live", async ({ page }) => {
  const ns = uniqueName("one-feed");
  await ensureNamespaces(ns);
  // Enough changes and Events that the page is taller than the screen.
  await ensureObjects(
    ...Array.from({ length: 30 }, (_, i) => configMap(ns, `cm-${String(i).padStart(2, "0")}`)),
    ...Array.from({ length: 12 }, (_, i) => ({
      apiVersion: "v1",
      kind: "Event",
      metadata: { name: `cm-${i}.seen`, namespace: ns },
      involvedObject: { apiVersion: "v1", kind: "ConfigMap", name: `cm-${String(i).padStart(2, "0")}`, namespace: ns },
      reason: "Seen",
      message: "an event to fill the page",
      type: "Normal",
      count: 1,
      firstTimestamp: new Date().toISOString().replace(/\.\d{3}Z$/, "Z"),
      lastTimestamp: new Date().toISOString().replace(/\.\d{3}Z$/, "Z"),
    })),
  );
  await signIn(page, `/namespaces/${ns}`);
  await expect(page.getByTestId("count-configmaps")).toHaveText(/\d$/, { timeout: 60_000 });
  await expect(page.getByTestId("namespace-change").first()).toBeVisible({ timeout: 30_000 });

  // One feed of changes: the history of the last hour (who, what), not a second "newest changes" beside it.
  const feeds = page.locator('[data-testid="recent-changes"], [data-testid="namespace-changes"]');
  await expect(feeds).toHaveCount(1);
  await expect.poll(() => scrollAreas(page)).toHaveLength(1);

  // A change made now shows in that feed within a moment, not at the next poll.
  const fresh = uniqueName("fresh");
  await kubectl(["create", "configmap", fresh, "-n", ns]);
  const entry = page.getByTestId("namespace-change").filter({ hasText: fresh });
  await expect(entry).toHaveCount(1, { timeout: 3_000 });
  // Then the history says who made it, and it is still listed once.
  await expect(entry).not.toContainText("by …");
  await expect(entry).toContainText(/by \S+/);
  await expect(entry).toHaveCount(1);
  await expect.poll(() => scrollAreas(page)).toHaveLength(1);
  await expectAccessible(page, "namespace live tab");
});
