// The shell around every page: the namespace switcher (live, typed, create, delete through the namespace's
// page), what a limited user is shown, the sign-in help (a ServiceAccount token minted with kubectl signs
// in), breadcrumbs, pinned favourites per user, copy buttons and YAML download.
import { readFileSync } from "node:fs";
import { expect, type Page } from "@playwright/test";
import { ensureNamespaces, ensureObjects, kubectl, shot, signIn, test, uniqueName, USER_NAME, USER_TOKEN } from "./support";

// The machine running these may be busy: allow for slow first loads.
test.describe.configure({ timeout: 180_000 });

const NAMESPACE = "e2e-shell";
const TEAM = "e2e-shell-team";
const POD = "shell-web-1";

test.beforeAll(async () => {
  await ensureNamespaces(NAMESPACE, TEAM);
  await ensureObjects(
    { apiVersion: "v1", kind: "Pod", metadata: { name: POD, namespace: NAMESPACE, labels: { app: "web" } }, spec: { containers: [{ name: "app", image: "nginx" }] } },
    { apiVersion: "v1", kind: "Secret", metadata: { name: "shell-db", namespace: NAMESPACE }, type: "Opaque", data: { password: Buffer.from("hunter2").toString("base64") } },
    {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "RoleBinding",
      metadata: { name: `${USER_NAME}-view`, namespace: TEAM },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "view" },
      subjects: [{ apiGroup: "rbac.authorization.k8s.io", kind: "User", name: USER_NAME }],
    },
    { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: "robot", namespace: TEAM } },
    {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "RoleBinding",
      metadata: { name: "robot-view", namespace: TEAM },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "view" },
      subjects: [{ kind: "ServiceAccount", name: "robot", namespace: TEAM }],
    },
  );
});

const switcher = (page: Page) => page.getByTestId("namespace-switcher");
/** The list is live: the page has hydrated, so the switcher reacts to a choice. */
const live = (page: Page) => expect(page.getByTestId("live-indicator").first()).toHaveAttribute("data-status", "live");

test("a typed namespace opens exactly as typed; a name kube refuses is explained", async ({ page }) => {
  await signIn(page, `/namespaces/${NAMESPACE}/configmaps`);
  await live(page);
  await switcher(page).selectOption({ label: "Type a namespace…" });
  await page.getByLabel("Namespace name").fill("Not_A_Name");
  await page.getByRole("button", { name: "Go" }).click();
  await expect(page.locator("#ns-typed-error")).toContainText("Lower-case letters");
  await page.getByLabel("Namespace name").fill("other");
  await page.getByRole("button", { name: "Go" }).click();
  await expect(page).toHaveURL(/\/namespaces\/other\/configmaps$/);
  expect(page.url()).not.toContain("%EF%BF%BD");
});

test("the switcher follows namespaces as they are created and deleted, and creates and deletes them", async ({ page }) => {
  await signIn(page, `/namespaces/${NAMESPACE}/pods`);
  await live(page);
  await expect(switcher(page).locator(`option[value="${NAMESPACE}"]`)).toHaveCount(1);
  const byKubectl = uniqueName("sw");
  await kubectl(["create", "namespace", byKubectl]);
  await expect(switcher(page).locator(`option[value="${byKubectl}"]`)).toHaveCount(1);
  await kubectl(["delete", "namespace", byKubectl, "--wait=false"]);
  await expect(switcher(page).locator(`option[value="${byKubectl}"]`)).toHaveCount(0, { timeout: 30_000 });

  // Create from the switcher: a name dialog; the new namespace is offered at once.
  const created = uniqueName("sw-new");
  await switcher(page).selectOption({ label: "New namespace…" });
  await page.getByTestId("create-name").fill(created);
  await page.getByTestId("create-name-submit").click();
  // It opens the new namespace's page, the switcher on it.
  await expect(page).toHaveURL(new RegExp(`/namespaces/${created}$`));
  await expect(switcher(page).locator(`option[value="${created}"]`)).toHaveCount(1);
  await page.goto(`/namespaces/${NAMESPACE}/pods`);
  await live(page);

  // Delete from the switcher: it leads to the namespace's own page, whose delete dialog names it.
  await switcher(page).selectOption(created);
  await expect(page).toHaveURL(new RegExp(`/namespaces/${created}/pods$`));
  await live(page);
  await switcher(page).selectOption({ label: `Delete namespace ${created}…` });
  await expect(page).toHaveURL(new RegExp(`/namespaces/${created}\\?tab=overview&delete=1$`));
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(created);
  await shot(page, "switcher-delete-namespace");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await kubectl(["delete", "namespace", created, "--wait=false"]);
});

test("a user bound to view in one namespace: kinds they cannot list are marked, not hidden; no create namespace", async ({ page }) => {
  await signIn(page, `/namespaces/${TEAM}/pods`, USER_TOKEN);
  const nav = page.getByRole("navigation", { name: "Kinds" });
  await expect(nav.getByTestId("nav-pods")).toHaveAttribute("data-listable", "true");
  // ClusterRole view reads no Secrets, and nothing cluster-scoped.
  await expect(nav.getByTestId("nav-secrets")).toHaveAttribute("data-listable", "false");
  await expect(nav.getByTestId("nav-secrets")).toContainText("(no access)");
  await expect(nav.getByTestId("nav-secrets")).toHaveAttribute("title", /Your roles do not allow "list" on secrets in namespace/);
  await expect(nav.getByTestId("nav-persistentvolumes")).toHaveAttribute("data-listable", "false");
  await expect(switcher(page).locator("option", { hasText: "New namespace… (not allowed)" })).toBeDisabled();
  await shot(page, "shell-limited-user");
});

test("the sign-in page says where tokens come from, and a ServiceAccount token minted by kubectl signs in", async ({ page }) => {
  await page.goto("/signin");
  const help = page.getByTestId("token-help");
  await expect(help).toContainText("$DATA_DIR/admin-token");
  await expect(help).toContainText("./data/admin-token");
  await expect(help).toContainText("kubectl create token <serviceaccount> -n <namespace>");
  const token = (await kubectl(["create", "token", "robot", "-n", TEAM])).trim();
  await signIn(page, `/namespaces/${TEAM}/configmaps`, token);
  await expect(page.getByTestId("user-name")).toHaveText(`system:serviceaccount:${TEAM}:robot`);
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-status", "live");
});

test("breadcrumbs name namespace, kind and object", async ({ page }) => {
  await signIn(page, `/namespaces/${NAMESPACE}/pods/${POD}`);
  const crumbs = page.getByRole("navigation", { name: "Breadcrumb" });
  await expect(crumbs.getByRole("link", { name: `Namespace ${NAMESPACE}` })).toHaveAttribute("href", `/namespaces/${NAMESPACE}`);
  await expect(crumbs.getByRole("link", { name: "Pods" })).toHaveAttribute("href", `/namespaces/${NAMESPACE}/pods`);
  await expect(crumbs.locator('[aria-current="page"]')).toHaveText(POD);
  await crumbs.getByRole("link", { name: "Pods" }).click();
  await expect(page).toHaveURL(new RegExp(`/namespaces/${NAMESPACE}/pods$`));
  await expect(crumbs.locator('[aria-current="page"]')).toHaveText("Pods");
  await page.goto("/persistentvolumes");
  await expect(crumbs).toContainText("Cluster");
});

test("pinned favourites: an object and a list, in the sidebar, kept per user", async ({ page }) => {
  await signIn(page, `/namespaces/${NAMESPACE}/pods/${POD}`);
  await live(page);
  const pinned = page.getByTestId("sidebar-pinned");
  await expect(pinned).toHaveCount(0);
  const pin = page.getByTestId("pin-button");
  await pin.click();
  await expect(pin).toHaveAttribute("aria-pressed", "true");
  await expect(pinned.getByRole("link", { name: new RegExp(POD) })).toBeVisible();
  await page.goto(`/namespaces/${NAMESPACE}/secrets`);
  await live(page);
  await page.getByTestId("pin-button").click();
  await expect(pinned.getByRole("link")).toHaveCount(2);
  await page.reload();
  await expect(pinned.getByRole("link")).toHaveCount(2);
  await shot(page, "pinned");
  await pinned.getByRole("link", { name: new RegExp(POD) }).click();
  await expect(page).toHaveURL(new RegExp(`/namespaces/${NAMESPACE}/pods/${POD}$`));
  await page.getByTestId("pin-button").click();
  await expect(pinned.getByRole("link")).toHaveCount(1);

  // Another person in the same browser (signed out, localStorage kept) has their own (none).
  await page.context().clearCookies();
  await signIn(page, `/namespaces/${TEAM}/pods`, USER_TOKEN);
  await expect(page.getByRole("navigation", { name: "Kinds" })).toBeVisible();
  await expect(page.getByTestId("sidebar-pinned")).toHaveCount(0);
});

test("copy buttons announce Copied; YAML downloads as <name>.yaml without managedFields", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signIn(page, `/namespaces/${NAMESPACE}/pods/${POD}`);
  await live(page);
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

  await page.getByTestId("copy-name").click();
  expect(await clipboard()).toBe(POD);
  await expect(page.getByRole("status").filter({ hasText: "Copied" })).toHaveCount(1);

  await page.getByTestId("copy-yaml").click();
  await expect.poll(clipboard).toMatch(/^apiVersion: v1\nkind: Pod\n/);
  const yaml = await clipboard();
  expect(yaml).toContain(`name: ${POD}`);
  expect(yaml).not.toContain("managedFields");

  const download = page.waitForEvent("download");
  await page.getByTestId("download-yaml").click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`${POD}.yaml`);
  const text = readFileSync((await file.path())!, "utf8");
  expect(text).toContain(`name: ${POD}`);
  expect(text).toContain("image: nginx");
  expect(text).not.toContain("managedFields");

  // A secret's value copies decoded (read from the server on the click: the page holds it masked), without
  // being revealed on screen.
  await page.goto(`/namespaces/${NAMESPACE}/secrets/shell-db`);
  await live(page);
  await page.getByRole("button", { name: "Copy password" }).click();
  await expect.poll(clipboard).toBe("hunter2");
  await expect(page.getByTestId("secret-value-password")).not.toContainText("hunter2");
});
