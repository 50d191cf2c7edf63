// Find anything: Ctrl-K opens a palette that searches names and labels across every kind and namespace the
// user may list (live lists from the watch caches, lists not loaded yet fetched once), grouped by kind, with
// keyboard navigation and "go to" commands. Nothing the user may not list is fetched.
import { expect, type Page } from "@playwright/test";
import { ensureNamespaces, ensureObjects, kubectl, shot, signIn, test, uniqueName } from "./support";

// The machine running these may be busy: allow for slow first loads.
test.describe.configure({ timeout: 180_000 });

const NS_A = "e2e-palette-a";
const NS_B = "e2e-palette-b";
const TEAM = "e2e-palette-team";
/**
 * The viewer of TEAM: a ServiceAccount of its own, so no other spec's binding (the token-file user gets edit
 * in namespaces of theirs) gives it Secrets somewhere the palette would then rightly search.
 */
const VIEWER = "palette-viewer";

test.beforeAll(async () => {
  await ensureNamespaces(NS_A, NS_B, TEAM);
  await ensureObjects(
    { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "zebra-settings", namespace: NS_B }, data: { a: "1" } },
    { apiVersion: "v1", kind: "Pod", metadata: { name: "storefront-1", namespace: NS_A, labels: { app: "palette-web" } }, spec: { containers: [{ name: "app", image: "nginx" }] } },
    { apiVersion: "v1", kind: "Service", metadata: { name: "storefront", namespace: NS_B, labels: { app: "palette-web" } }, spec: { ports: [{ port: 80 }] } },
    { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "unrelated", namespace: NS_B, labels: { app: "palette-other" } } },
    { apiVersion: "v1", kind: "Secret", metadata: { name: "zebra-credentials", namespace: TEAM }, type: "Opaque", data: { k: "dg==" } },
    { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "zebra-team-config", namespace: TEAM } },
    { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: VIEWER, namespace: TEAM } },
    {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "RoleBinding",
      metadata: { name: `${VIEWER}-view`, namespace: TEAM },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "view" },
      subjects: [{ kind: "ServiceAccount", name: VIEWER, namespace: TEAM }],
    },
  );
});

const input = (page: Page) => page.getByRole("combobox", { name: /Search names and labels/ });
const results = (page: Page) => page.getByRole("listbox", { name: "Results" });
const group = (page: Page, label: RegExp | string) => results(page).getByRole("group", { name: label });

/** Opens the palette the way the user does; a key pressed before the page has hydrated does nothing, so retry. */
async function openPalette(page: Page, how: "keys" | "button" = "keys") {
  await expect(async () => {
    if (!(await input(page).isVisible())) {
      if (how === "keys") await page.locator("body").press("Control+k");
      else await page.getByTestId("palette-button").click({ timeout: 5_000 });
    }
    await expect(input(page)).toBeFocused({ timeout: 5_000 });
  }).toPass({ timeout: 90_000 });
}

test("Ctrl-K finds an object in a namespace never opened; arrows and Enter open it", async ({ page }) => {
  await signIn(page, `/namespaces/${NS_A}/pods`);
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-status", "live", { timeout: 90_000 });
  await openPalette(page);
  await input(page).fill("zebra-sett");
  const configMaps = group(page, /ConfigMaps/);
  await expect(configMaps.getByRole("option", { name: /zebra-settings/ })).toBeVisible();
  await expect(configMaps.getByRole("option", { name: /zebra-settings/ })).toContainText(NS_B);
  await shot(page, "palette-search");
  // Move down to the object (past any "go to" entries) and open it.
  for (let i = 0; i < 10; i++) {
    const active = await input(page).getAttribute("aria-activedescendant");
    if (active && (await page.locator(`[id="${active}"]`).textContent())?.includes("zebra-settings")) break;
    await page.keyboard.press("ArrowDown");
  }
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/namespaces/${NS_B}/configmaps/zebra-settings$`));
  await expect(page.getByTestId("palette")).not.toBeVisible();
});

test("a label selector typed as app=web finds every kind carrying it, grouped by kind", async ({ page }) => {
  await signIn(page, "/");
  await openPalette(page, "button");
  await input(page).fill("app=palette-web");
  await expect(group(page, /Pods/).getByRole("option", { name: /storefront-1/ })).toBeVisible();
  await expect(group(page, /Services/).getByRole("option", { name: /storefront/ })).toBeVisible();
  await expect(results(page)).not.toContainText("unrelated");
  await shot(page, "palette-labels");
  // Escape closes and gives focus back to the button that opened it.
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("palette")).not.toBeVisible();
  await expect(page.getByTestId("palette-button")).toBeFocused();
});

test("results follow the watch cache: an object created while the palette is open appears", async ({ page }) => {
  await signIn(page, `/namespaces/${NS_A}/configmaps`);
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-status", "live");
  const name = uniqueName("fresh-cm");
  await openPalette(page);
  await input(page).fill("fresh-cm-");
  await kubectl(["create", "configmap", name, "-n", NS_A]);
  await expect(group(page, /ConfigMaps/).getByRole("option", { name: new RegExp(name) })).toBeVisible();
});

test("go to commands: kinds and namespaces", async ({ page }) => {
  await signIn(page, `/namespaces/${NS_A}/pods`);
  await openPalette(page);
  await input(page).fill("secrets");
  await expect(results(page).getByRole("group", { name: "Go to", exact: true }).getByRole("option").first()).toContainText("Secrets");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/namespaces/${NS_A}/secrets$`));

  await openPalette(page);
  await input(page).fill(NS_B);
  await group(page, "Go to namespace").getByRole("option", { name: new RegExp(NS_B) }).click();
  await expect(page).toHaveURL(new RegExp(`/namespaces/${NS_B}$`));
});

test("a user who may not list Secrets never has them fetched nor found", async ({ page }) => {
  const secretRequests: string[] = [];
  page.on("request", (r) => {
    if (/\/api\/v1\/(namespaces\/[^/]+\/)?secrets(\?|$)/.test(new URL(r.url()).pathname + "?")) secretRequests.push(r.url());
  });
  const token = (await kubectl(["create", "token", VIEWER, "-n", TEAM, "--duration=1h"])).trim();
  await signIn(page, `/namespaces/${TEAM}/configmaps`, token);
  await openPalette(page);
  await input(page).fill("zebra");
  await expect(group(page, /ConfigMaps/).getByRole("option", { name: /zebra-team-config/ })).toBeVisible();
  await expect(page.getByTestId("palette-status")).toContainText("Not searched");
  await expect(page.getByTestId("palette-status")).toContainText("Secrets");
  await expect(results(page)).not.toContainText("zebra-credentials");
  await expect(results(page)).not.toContainText("zebra-settings");
  expect(secretRequests).toEqual([]);
});
