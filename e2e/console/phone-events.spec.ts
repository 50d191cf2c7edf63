// The Events list on a phone (issue 22, item 5): each row says when, why and about what (last seen, reason,
// the object as Kind/name), not only the event's generated name, and still opens the event; nothing is wider
// than the screen.
import { expect } from "@playwright/test";
import { ensureNamespaces, ensureObjects, expectAccessible, signIn, test } from "./support";

const NAMESPACE = "e2e-phone-events";
const POD = "checkout-api-7d9f8c6b5-x2k4p";
const EVENT = `${POD}.17a3c2f1b6d84e20`;

test.describe.configure({ timeout: 180_000 });
test.use({ viewport: { width: 390, height: 844 } });

test.beforeAll(async () => {
  await ensureNamespaces(NAMESPACE);
  await ensureObjects({
    apiVersion: "v1",
    kind: "Event",
    metadata: { name: EVENT, namespace: NAMESPACE },
    involvedObject: { apiVersion: "v1", kind: "Pod", name: POD, namespace: NAMESPACE },
    type: "Warning",
    reason: "BackOff",
    message: "Back-off restarting failed container app",
    count: 3,
    firstTimestamp: new Date(Date.now() - 10 * 60_000).toISOString().replace(/\.\d{3}Z$/, "Z"),
    lastTimestamp: new Date(Date.now() - 2 * 60_000).toISOString().replace(/\.\d{3}Z$/, "Z"),
    source: { component: "kubelet" },
  });
});

test("a phone's Events list shows each event's reason, object and age, and the reason opens it", async ({ page }) => {
  await signIn(page, `/namespaces/${NAMESPACE}/events`);
  const row = page.locator(`[data-testid=resource-row][data-key="${NAMESPACE}/${EVENT}"]`);
  await expect(row).toBeVisible({ timeout: 60_000 });
  const cell = (column: string) => row.locator(`[data-column="${column}"]`);
  await expect(cell("Reason")).toBeVisible();
  await expect(cell("Reason")).toHaveText("BackOff");
  await expect(cell("Object")).toBeVisible();
  await expect(cell("Object")).toHaveText(`pod/${POD}`);
  await expect(cell("Last Seen")).toBeVisible();
  await expect(cell("Last Seen")).toHaveText(/^2m(\d+s)?$/);
  // The generated name is what the page is for, not the row.
  await expect(cell("Name")).toBeHidden();
  for (const column of ["Reason", "Object", "Last Seen"]) {
    await expect(page.getByRole("columnheader", { name: new RegExp(column) })).toBeVisible();
    const box = (await cell(column).boundingBox())!;
    expect(box.x + box.width, `${column} inside the screen`).toBeLessThanOrEqual(390);
    // Whole, not cut short.
    const fits = await cell(column).evaluate((el) => {
      const inner = (el.querySelector("a") ?? el) as HTMLElement;
      return inner.scrollWidth <= inner.clientWidth && inner.scrollHeight <= inner.clientHeight + 1;
    });
    expect(fits, `${column} shown whole`).toBe(true);
  }
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(page, "events on a phone");

  // The object links to its page; the reason opens the event.
  await expect(cell("Object").getByRole("link")).toHaveAttribute("href", `/namespaces/${NAMESPACE}/pods/${POD}`);
  await cell("Reason").getByRole("link", { name: "BackOff" }).click();
  await expect(page.getByTestId("object-title")).toHaveText(`Event ${EVENT}`, { timeout: 60_000 });
});
