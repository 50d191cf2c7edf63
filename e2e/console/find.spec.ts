// Finding things (issue 22, item 4) and two small things a user notices (item 5): Enter in Ctrl-K opens the
// object named exactly as typed; a new filter shows its first matches (the list scrolls to its top); a click
// on a list's checkbox before the page has hydrated is never silently lost; no keyboard-shortcut hints on a
// phone.
import { expect, type Page } from "@playwright/test";
import { ensureNamespaces, ensureObjects, expectAccessible, kubectl, shot, signIn, test } from "./support";

// The machine running these may be busy: allow for slow first loads.
test.describe.configure({ timeout: 180_000 });

const NS = "e2e-find";
const SCROLL_NS = "e2e-find-scroll";

const pod = (name: string) => ({ apiVersion: "v1", kind: "Pod", metadata: { name, namespace: NS }, spec: { containers: [{ name: "app", image: "kafka:3.7" }] } });

test.beforeAll(async () => {
  await ensureNamespaces(NS, SCROLL_NS);
  await ensureObjects(pod("kafka-2"), pod("kafka-20"), {
    apiVersion: "v1",
    kind: "Event",
    metadata: { name: "kafka-2.unhealthy", namespace: NS },
    involvedObject: { apiVersion: "v1", kind: "Pod", name: "kafka-2", namespace: NS },
    reason: "Unhealthy",
    message: "Readiness probe failed",
    type: "Warning",
    count: 3,
  });
  // 120 that the filter below matches, after 40 that sort before them: one kubectl call for all.
  const items = [
    ...Array.from({ length: 40 }, (_, i) => `aa-other-${String(i).padStart(3, "0")}`),
    ...Array.from({ length: 120 }, (_, i) => `zz-match-${String(i).padStart(3, "0")}`),
  ].map((name) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: SCROLL_NS }, data: { k: "v" } }));
  await kubectl(["create", "-f", "-"], JSON.stringify({ apiVersion: "v1", kind: "List", items })).catch((e: Error) => {
    if (!/AlreadyExists|already exists/.test(e.message)) throw e;
  });
});

const paletteInput = (page: Page) => page.getByRole("combobox", { name: /Search names and labels/ });

test("Ctrl-K: Enter on an exact name opens that object, not one whose name merely starts with it", async ({ page }) => {
  await signIn(page, `/namespaces/${NS}/pods`);
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-status", "live", { timeout: 90_000 });
  await expect(async () => {
    if (!(await paletteInput(page).isVisible())) await page.locator("body").press("Control+k");
    await expect(paletteInput(page)).toBeFocused({ timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
  await paletteInput(page).fill("kafka-2");
  const results = page.getByRole("listbox", { name: "Results" });
  // Both kinds are loaded before Enter: the Event's name starts with the text, the Pod's is the text.
  await expect(results.getByRole("group", { name: /Events/ }).getByRole("option", { name: /kafka-2\.unhealthy/ })).toBeVisible();
  await expect(results.getByRole("group", { name: /Pods/ }).getByRole("option", { name: /^kafka-2\b/ }).first()).toBeVisible();
  const first = results.getByRole("option").first();
  await expect(first).toHaveAttribute("aria-selected", "true");
  await expect(first).toHaveAttribute("data-href", `/namespaces/${NS}/pods/kafka-2`);
  await shot(page, "find-palette-exact");
  await expectAccessible(page, "palette with ranked results", ["light", "dark"], '[data-testid="palette"]');
  await paletteInput(page).press("Enter");
  await expect(page).toHaveURL(new RegExp(`/namespaces/${NS}/pods/kafka-2$`));
});

test("typing a filter on a scrolled list shows its first matches: the list goes back to its top", async ({ page }) => {
  await signIn(page, `/namespaces/${SCROLL_NS}/configmaps`);
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-status", "live", { timeout: 90_000 });
  await expect(page.getByTestId("row-count")).toContainText("total");
  const table = page.getByTestId("resource-table");
  await table.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(table.getByRole("link", { name: "zz-match-119", exact: true })).toBeVisible();
  await page.getByLabel("Filter by name or any column").fill("zz-match");
  await expect(page.getByTestId("row-count")).toContainText("120 of");
  await expect(table.getByRole("link", { name: "zz-match-000", exact: true })).toBeInViewport();
  expect(await table.evaluate((el) => el.scrollTop)).toBe(0);
  // A changed label selector is a new list too.
  await table.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(table.getByRole("link", { name: "zz-match-119", exact: true })).toBeVisible();
  await page.getByLabel("Filter by name or any column").fill("zz-match-0");
  await expect(table.getByRole("link", { name: "zz-match-000", exact: true })).toBeInViewport();
});

test("before the page hydrates the list's checkboxes take no click; after, the header checkbox selects the rows shown", async ({ page }) => {
  await signIn(page, "/");
  // Hold the page's scripts back (only the scripts: a Turbopack build keeps its CSS among the chunks too, and
  // held CSS would hide the page): the server's rows show, React has not taken over yet.
  let release!: () => void;
  const held = new Promise<void>((done) => (release = done));
  await page.route((url) => url.pathname.startsWith("/_next/static/chunks/") && url.pathname.endsWith(".js"), async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`/namespaces/${SCROLL_NS}/configmaps`, { waitUntil: "commit" });
  const header = page.getByTestId("select-shown");
  await expect(header).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("resource-row").first()).toBeVisible();
  await expect(header).toBeDisabled();
  await expect(page.getByTestId("resource-row").first().getByRole("checkbox")).toBeDisabled();
  await header.click({ force: true });
  await expect(header).not.toBeChecked();
  release();
  await expect(header).toBeEnabled({ timeout: 60_000 });
  await header.click();
  await expect(header).toBeChecked();
  await expect(page.getByTestId("selection-offer")).toContainText(/rows shown are selected/);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("no keyboard-shortcut hints: not in the sidebar, the filter or the search", async ({ page }) => {
    await signIn(page, `/namespaces/${NS}/pods`);
    await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-status", "live", { timeout: 90_000 });
    const filter = page.getByLabel("Filter by name or any column");
    await expect(filter).toHaveAttribute("placeholder", "Filter rows");
    await page.getByRole("button", { name: "Menu" }).click();
    const nav = page.getByRole("navigation", { name: "Kinds" });
    await expect(nav.getByRole("link", { name: /Pods/ })).toBeVisible();
    await expect(page.locator("kbd:visible")).toHaveCount(0);
    await expectAccessible(page, "phone sidebar without shortcut hints");
    await shot(page, "find-phone-no-hints");
    await page.keyboard.press("Escape");
    await page.getByTestId("palette-button").click();
    await expect(paletteInput(page)).toBeFocused();
    await expect(page.getByTestId("palette-status")).not.toContainText("Enter to open", { useInnerText: true });
    await expect(page.locator("kbd:visible")).toHaveCount(0);
  });
});

test("at a desk the shortcut hints stay", async ({ page }) => {
  await signIn(page, `/namespaces/${NS}/pods`);
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-status", "live", { timeout: 90_000 });
  await expect(page.getByLabel("Filter by name or any column")).toHaveAttribute("placeholder", "Filter rows  ( / )");
  await expect(page.getByRole("navigation", { name: "Kinds" }).locator("kbd", { hasText: "g p" })).toBeVisible();
});
