// axe on every main page type in light and dark (sign-in, overview, a list, an object page, its YAML, the
// palette open, the phone menu), keyboard shortcuts, and screenshots of each view as artifacts.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { ensureNamespaces, kubectl, shot, signIn, uniqueName } from "./support";

const NAMESPACE = "e2e-a11y";

async function expectNoSeriousViolations(page: Page, view: string) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${view}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(" | ")}`)).toEqual([]);
}

test.beforeAll(async () => {
  await ensureNamespaces(NAMESPACE);
  const name = uniqueName("a11y");
  await kubectl(
    ["create", "--validate=false", "-f", "-"],
    JSON.stringify({ apiVersion: "v1", kind: "Secret", metadata: { name, namespace: NAMESPACE, labels: { app: "web" } }, type: "Opaque", data: { password: Buffer.from("s3cret").toString("base64") } }),
  );
  await kubectl(
    ["create", "--validate=false", "-f", "-"],
    JSON.stringify({
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: `${name}-pod`, namespace: NAMESPACE, labels: { app: "web" } },
      spec: { containers: [{ name: "app", image: "nginx", env: [{ name: "P", valueFrom: { secretKeyRef: { name, key: "password" } } }] }] },
    }),
  );
  process.env.A11Y_SECRET = name;
});

for (const theme of ["light", "dark"] as const) {
  test(`main views have no serious axe violations (${theme})`, async ({ page }) => {
    // Seven views, each analysed by axe: slow on a busy machine.
    test.setTimeout(300_000);
    await page.emulateMedia({ colorScheme: theme });
    await page.goto("/signin");
    // The theme really is the one checked (the no-flash script follows the OS when nothing is stored).
    await expect(page.locator("html")).toHaveClass(theme === "dark" ? /\bdark\b/ : /^(?!.*\bdark\b)/);
    await expectNoSeriousViolations(page, "sign-in");
    await signIn(page, "/");
    await expect(page.getByTestId("kind-counts")).toBeVisible();
    await expectNoSeriousViolations(page, "overview");
    await shot(page, `overview-${theme}`);

    await page.goto(`/namespaces/${NAMESPACE}/secrets`);
    await expect(page.getByTestId("resource-row").first()).toBeVisible();
    await expectNoSeriousViolations(page, "list");
    await shot(page, `list-secrets-${theme}`);

    const secret = process.env.A11Y_SECRET!;
    await page.goto(`/namespaces/${NAMESPACE}/secrets/${secret}`);
    await expect(page.getByTestId("secret-value-password")).not.toContainText("s3cret");
    await page.getByRole("button", { name: "Reveal password" }).click();
    await expect(page.getByTestId("secret-value-password")).toHaveText("s3cret");
    await expect(page.getByTestId("related-pods")).toContainText(`${secret}-pod`);
    await expectNoSeriousViolations(page, "object");
    await shot(page, `object-secret-${theme}`);

    await page.goto(`/namespaces/${NAMESPACE}/secrets/${secret}?tab=yaml`);
    await expect(page.getByTestId("yaml-editor").locator(".monaco-editor")).toBeVisible();
    await expectNoSeriousViolations(page, "yaml");
    await shot(page, `yaml-editor-${theme}`);

    await page.goto(`/namespaces/${NAMESPACE}/pods`);
    await expect(page.getByTestId("resource-row").first()).toBeVisible();
    await page.locator("body").press("Control+k");
    await page.getByTestId("palette-input").fill("a11y");
    await expect(page.getByRole("listbox", { name: "Results" }).getByRole("option", { name: new RegExp(secret) }).first()).toBeVisible();
    await expectNoSeriousViolations(page, "palette");
    await shot(page, `palette-${theme}`);
    await page.keyboard.press("Escape");

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole("button", { name: "Menu" }).click();
    await expect(page.getByRole("navigation", { name: "Kinds" })).toBeVisible();
    await expectNoSeriousViolations(page, "phone menu");
    await shot(page, `phone-menu-${theme}`);
    await page.setViewportSize({ width: 1440, height: 900 });
  });
}

test("keyboard: / focuses the filter, g then a key jumps to a kind, ? shows the shortcuts", async ({ page }) => {
  await signIn(page, `/namespaces/${NAMESPACE}/secrets`);
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-status", "live");
  await page.locator("body").press("/");
  await expect(page.getByLabel("Filter by name")).toBeFocused();
  await page.keyboard.type("zzz-nothing");
  await expect(page.getByText("No secrets match the filter")).toBeVisible();
  await page.keyboard.press("Escape");
  // Leave the filter as a user would (its text is kept); the shortcuts only work outside a field.
  await page.locator("body").click({ position: { x: 5, y: 300 } });
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await expect(page.getByLabel("Filter by name")).not.toBeFocused();
  await page.keyboard.press("g");
  await page.keyboard.press("p");
  await expect(page).toHaveURL(new RegExp(`/namespaces/${NAMESPACE}/pods$`));
  await page.keyboard.press("?");
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
  await shot(page, "shortcuts");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
});

test("delete several rows at once with a confirmation that names them", async ({ page }) => {
  const names = [uniqueName("bulk"), uniqueName("bulk")];
  for (const name of names) {
    await kubectl(["create", "--validate=false", "-f", "-"], JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: NAMESPACE } }));
  }
  await signIn(page, `/namespaces/${NAMESPACE}/configmaps`);
  for (const name of names) await page.getByLabel(`Select ${NAMESPACE}/${name}`).check();
  await page.getByTestId("delete-selected").click();
  for (const name of names) await expect(page.getByTestId("delete-list")).toContainText(name);
  await page.getByLabel("Dependents").selectOption("Foreground");
  await page.getByLabel("Grace period (seconds)").fill("0");
  await shot(page, "delete-dialog");
  await page.getByTestId("confirm-delete").click();
  for (const name of names) await expect(page.locator(`[data-key="${NAMESPACE}/${name}"]`)).toHaveCount(0);
});
