// The console is per user: a token-file user bound by a RoleBinding to ClusterRole `edit` in `team-a` sees
// that namespace's objects, kube's 403 message elsewhere, no Delete on namespaces it may not delete, and its
// own name in the header. The admin manages namespaces and RBAC objects from the same views.
import { expect } from "@playwright/test";
import { ensureNamespaces, ensureObjects, shot, signIn, test, uniqueName, USER_NAME, USER_TOKEN } from "./support";

const TEAM = "team-a";
const OTHER = "e2e-rbac-other";

test.beforeAll(async () => {
  await ensureNamespaces(TEAM, OTHER);
  await ensureObjects(
    {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "RoleBinding",
      metadata: { name: `${USER_NAME}-edit`, namespace: TEAM },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "edit" },
      subjects: [{ apiGroup: "rbac.authorization.k8s.io", kind: "User", name: USER_NAME }],
    },
    { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "team-settings", namespace: TEAM }, data: { a: "1" } },
    { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "not-yours", namespace: OTHER }, data: { b: "2" } },
  );
});

test("a namespace-bound user sees its namespace, kube's 403 elsewhere, and its own name", async ({ page }) => {
  await signIn(page, `/namespaces/${TEAM}/configmaps`, USER_TOKEN);
  await expect(page.getByTestId("user-name")).toHaveText(USER_NAME);
  await page.getByTestId("user-name").click();
  await expect(page.getByTestId("user-groups")).toContainText("team-a-devs");
  await expect(page.getByTestId("user-groups")).toContainText("system:authenticated");
  await page.keyboard.press("Escape");

  const row = page.locator(`[data-testid=resource-row][data-key="${TEAM}/team-settings"]`);
  await expect(row).toBeVisible();
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-status", "live");
  await expect(page.getByRole("link", { name: "Create" })).toBeVisible();
  await shot(page, "rbac-user-own-namespace");

  await page.goto(`/namespaces/${OTHER}/configmaps`);
  await expect(page.getByTestId("forbidden-message")).toBeVisible();
  await expect(page.getByTestId("error-message")).toContainText(
    `configmaps is forbidden: User "${USER_NAME}" cannot list resource "configmaps" in API group "" in the namespace "${OTHER}"`,
  );
  await expect(page.locator(`[data-key="${OTHER}/not-yours"]`)).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`/namespaces/${OTHER}/configmaps$`));
  await shot(page, "rbac-user-forbidden-list");

  // An object page of another namespace: the message in place, no redirect, no sign-out.
  await page.goto(`/namespaces/${OTHER}/configmaps/not-yours`);
  await expect(page.getByTestId("error-message")).toContainText(`User "${USER_NAME}" cannot`);
  await expect(page.getByTestId("user-name")).toHaveText(USER_NAME);
});

test("a namespace-bound user has no Delete on namespaces it may not delete", async ({ page }) => {
  // `edit` reads its own Namespace (through the RoleBinding inside it) but may not delete it.
  await signIn(page, `/namespaces/${TEAM}?tab=overview`, USER_TOKEN);
  await expect(page.getByTestId("object-title")).toHaveText(`Namespace ${TEAM}`);
  await expect(page.getByTestId("metadata")).toContainText(TEAM);
  await expect(page.getByTestId("delete-object")).toBeDisabled();
  await expect(page.getByTestId("not-allowed")).toHaveAttribute("title", /delete/);
  await shot(page, "rbac-user-namespace-no-delete");

  await page.goto(`/namespaces/${OTHER}?tab=overview`);
  await expect(page.getByTestId("error-message")).toContainText(`User "${USER_NAME}" cannot get resource "namespaces"`);
  await expect(page.getByTestId("delete-object")).toBeDisabled();

  // Inside its namespace the same user may delete a ConfigMap: the button is there.
  await page.goto(`/namespaces/${TEAM}/configmaps/team-settings`);
  await expect(page.getByTestId("object-title")).toHaveText("ConfigMap team-settings");
  await expect(page.getByTestId("delete-object")).toBeEnabled();

  // Listing namespaces is not allowed: the Namespaces page says so with kube's message.
  await page.goto("/namespaces");
  await expect(page.getByTestId("error-message")).toContainText(`namespaces is forbidden: User "${USER_NAME}" cannot list resource "namespaces"`);
  await expect(page.getByTestId("create-link")).toBeDisabled();
});

test("the switcher offers only reachable namespaces and a typed namespace opens as typed", async ({ page }) => {
  await signIn(page, `/namespaces/${OTHER}/configmaps`, USER_TOKEN);
  await expect(page.getByTestId("forbidden-message")).toBeVisible();
  await page.goto(`/namespaces/${TEAM}/configmaps`);
  const switcher = page.getByTestId("namespace-switcher");
  await switcher.hover();
  await switcher.focus();
  // Visited, but its rules review grants nothing there: not offered; `default` neither.
  await expect(switcher.locator("option", { hasText: "namespaces your roles reach" })).toHaveCount(1);
  await expect(switcher.locator(`option[value="${OTHER}"]`)).toHaveCount(0);
  await expect(switcher.locator('option[value="default"]')).toHaveCount(0);
  await expect(switcher.locator(`option[value="${TEAM}"]`)).toHaveCount(1);

  await switcher.selectOption({ label: "Type a namespace…" });
  await page.getByLabel("Namespace name").fill(OTHER);
  await page.getByRole("button", { name: "Go" }).click();
  await expect(page).toHaveURL(new RegExp(`/namespaces/${OTHER}/configmaps$`));
  await expect(page.getByTestId("forbidden-message")).toBeVisible();
});

test("the admin creates and deletes a namespace from the Namespaces page and lists RBAC objects", async ({ page }) => {
  const name = uniqueName("ns");
  await signIn(page, "/namespaces");
  await expect(page.getByTestId("user-name")).toHaveText("admin");
  await expect(page.getByRole("columnheader", { name: /Status/ })).toBeVisible();
  await page.getByTestId("create-by-name").click();
  await page.getByTestId("create-name").fill(name);
  await page.getByTestId("create-name-submit").click();
  // The new namespace's page, then back to the list.
  await expect(page).toHaveURL(new RegExp(`/namespaces/${name}$`));
  await page.goto("/namespaces");
  // Other specs' namespaces fill the screen: filter so the new row is in the windowed table's view.
  await page.getByLabel("Filter by name or any column").fill(name);
  const row = page.locator(`[data-testid=resource-row][data-key="${name}"]`);
  await expect(row).toContainText("Active");
  await shot(page, "namespaces-list");

  await page.getByLabel(`Select ${name}`).check();
  await page.getByTestId("delete-selected").click();
  await page.getByTestId("delete-confirm-text").fill(name);
  await page.getByTestId("confirm-delete").click();
  // Terminating while its content goes, then gone: both seen live, without a reload.
  await expect(row).toHaveCount(0, { timeout: 30_000 });

  await page.goto(`/namespaces/${TEAM}/rolebindings`);
  await expect(page.locator(`[data-testid=resource-row][data-key="${TEAM}/${USER_NAME}-edit"]`)).toBeVisible();
  await page.goto("/clusterroles");
  await expect(page.locator('[data-testid=resource-row][data-key="edit"]')).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Kinds" })).toContainText("Access control");
});
