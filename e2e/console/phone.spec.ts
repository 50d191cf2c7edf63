// A phone is a place to check on things: at 390×844 no page is wider than the screen, the sidebar folds
// behind a menu button (aria-expanded, Escape closes it and gives focus back), and lists keep names readable.
import { expect, type Page } from "@playwright/test";
import { ensureNamespaces, ensureObjects, shot, signIn, test } from "./support";

// The machine running these may be busy: allow for slow first loads.
test.describe.configure({ timeout: 180_000 });

const NAMESPACE = "e2e-phone";
const POD = "checkout-api-7d9f8c6b5-x2k4p";
const LONG_POD = "payments-reconciliation-worker-5f7c9d8b6-q8zlm";

test.use({ viewport: { width: 390, height: 844 } });

test.beforeAll(async () => {
  await ensureNamespaces(NAMESPACE);
  for (const name of [POD, LONG_POD]) {
    await ensureObjects({ apiVersion: "v1", kind: "Pod", metadata: { name, namespace: NAMESPACE, labels: { app: "checkout" } }, spec: { containers: [{ name: "app", image: "nginx:1.27" }] } });
  }
});

async function expectNoHorizontalScroll(page: Page, view: string) {
  const width = await page.evaluate(() => document.scrollingElement!.scrollWidth);
  expect(width, `${view} is ${width}px wide`).toBeLessThanOrEqual(390);
}

/** The name link shows all of its text: nothing cut horizontally or vertically. */
async function expectFullyShown(page: Page, name: string) {
  const link = page.getByTestId("resource-table").getByRole("link", { name, exact: true });
  await expect(link).toBeVisible();
  const box = await link.evaluate((a) => ({ sw: a.scrollWidth, cw: a.clientWidth, sh: a.scrollHeight, ch: a.clientHeight, right: a.getBoundingClientRect().right }));
  expect(box.sw, `${name} cut horizontally`).toBeLessThanOrEqual(box.cw);
  expect(box.sh, `${name} cut vertically`).toBeLessThanOrEqual(box.ch + 1);
  expect(box.right).toBeLessThanOrEqual(390);
}

test("the pods list fits the phone and shows whole pod names", async ({ page }) => {
  await signIn(page, `/namespaces/${NAMESPACE}/pods`);
  await expect(page.getByTestId("resource-row").first()).toBeVisible({ timeout: 60_000 });
  await expectNoHorizontalScroll(page, "pods list");
  await expectFullyShown(page, POD);
  await expectFullyShown(page, LONG_POD);
  // Status stays beside the name; the other columns fold away on a phone.
  await expect(page.getByRole("columnheader", { name: /Status/ })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: /Restarts/ })).toBeHidden();
  await shot(page, "phone-pods");
  await page.goto("/");
  await expect(page.getByTestId("kind-counts")).toBeVisible();
  await expectNoHorizontalScroll(page, "overview");
});

test("the sidebar folds behind the menu button: Escape closes it and focus returns", async ({ page }) => {
  await signIn(page, `/namespaces/${NAMESPACE}/pods`);
  const nav = page.getByRole("navigation", { name: "Kinds" });
  const menu = page.getByRole("button", { name: "Menu" });
  await expect(nav).toBeHidden();
  await expect(menu).toHaveAttribute("aria-expanded", "false");

  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await expect(nav).toBeVisible();
  await expect(nav.getByRole("link").first()).toBeFocused();
  await shot(page, "phone-menu");
  await page.keyboard.press("Escape");
  await expect(nav).toBeHidden();
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(menu).toBeFocused();

  // Following a link closes the menu and opens the kind.
  await menu.click();
  await nav.getByTestId("nav-configmaps").click();
  await expect(page).toHaveURL(new RegExp(`/namespaces/${NAMESPACE}/configmaps$`));
  await expect(nav).toBeHidden();
  await expectNoHorizontalScroll(page, "configmaps list");
});

test("an object page is usable on a phone", async ({ page }) => {
  await signIn(page, `/namespaces/${NAMESPACE}/pods/${LONG_POD}`);
  await expect(page.getByTestId("object-title")).toContainText(LONG_POD, { timeout: 60_000 });
  await expect(page.getByTestId("tab-overview")).toBeVisible();
  await expectNoHorizontalScroll(page, "pod page");
  for (const id of ["tab-yaml", "delete-object", "copy-name"]) {
    const box = (await page.getByTestId(id).boundingBox())!;
    expect(box.x + box.width, `${id} off screen`).toBeLessThanOrEqual(390);
  }
  await page.getByTestId("tab-yaml").click();
  // Monaco loads on demand; on a loaded test machine that can take a while.
  await expect(page.getByTestId("yaml-editor").locator(".monaco-editor")).toBeVisible({ timeout: 45_000 });
  await expectNoHorizontalScroll(page, "pod YAML");
  await shot(page, "phone-pod-yaml");
  // The breadcrumbs lead back to the list.
  await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Pods" }).click();
  await expect(page).toHaveURL(new RegExp(`/namespaces/${NAMESPACE}/pods$`));
});
