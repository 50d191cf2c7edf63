// The console side of the object lifecycle: a Terminating badge naming what an object waits for (finalizers,
// grace seconds left), live; an object's dependents as links on its page; and the delete dialog's propagation
// policy, sent as DeleteOptions, with the dependents that go (or stay) spelled out, and the kinds a user may
// not list named instead of claiming there are none.
import { expect, type Page, type Request } from "@playwright/test";
import { ensureNamespaces, ensureObjects, expectAccessible, kubectl, shot, signIn, test, uniqueName, USER_NAME, USER_TOKEN } from "./support";

const NS = "e2e-deletion";

const configMap = (name: string, extra: Record<string, unknown> = {}) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: NS, ...extra }, data: { k: "v" } });
const secret = (name: string, extra: Record<string, unknown> = {}) => ({ apiVersion: "v1", kind: "Secret", metadata: { name, namespace: NS, ...extra }, type: "Opaque" });

async function uidOf(resource: string, name: string): Promise<string> {
  return (await kubectl(["get", resource, name, "-n", NS, "-o", "jsonpath={.metadata.uid}"])).trim();
}

const ownedBy = (name: string, uid: string, blockOwnerDeletion = false) => ({
  ownerReferences: [{ apiVersion: "v1", kind: "ConfigMap", name, uid, ...(blockOwnerDeletion ? { blockOwnerDeletion: true } : {}) }],
});

/** An owner ConfigMap with a tree under it: child (blocking) → grandchild, a Secret, and one shared with another owner. */
async function ownerTree(prefix: string) {
  const owner = uniqueName(prefix);
  const other = `${owner}-other`;
  await ensureObjects(configMap(owner), configMap(other));
  const ownerUid = await uidOf("configmap", owner);
  const otherUid = await uidOf("configmap", other);
  const child = `${owner}-child`;
  await ensureObjects(configMap(child, ownedBy(owner, ownerUid, true)));
  const childUid = await uidOf("configmap", child);
  const names = { owner, other, child, grandchild: `${owner}-grandchild`, secret: `${owner}-secret`, shared: `${owner}-shared` };
  await ensureObjects(
    configMap(names.grandchild, ownedBy(child, childUid)),
    secret(names.secret, ownedBy(owner, ownerUid)),
    configMap(names.shared, {
      ownerReferences: [
        { apiVersion: "v1", kind: "ConfigMap", name: owner, uid: ownerUid },
        { apiVersion: "v1", kind: "ConfigMap", name: other, uid: otherUid },
      ],
    }),
  );
  return { ...names, ownerUid };
}

const isDelete = (name: string) => (r: Request) => r.method() === "DELETE" && new URL(r.url()).pathname.endsWith(`/${name}`);


async function openDeleteFromPage(page: Page) {
  await page.getByTestId("delete-object").click();
  await expect(page.getByTestId("dependents-plan")).toHaveAttribute("data-state", "ready");
}

test.beforeAll(async () => {
  await ensureNamespaces(NS);
});

test("Terminating names the finalizers that hold a ConfigMap, live, and it goes when the last is removed", async ({ page }) => {
  const name = uniqueName("held");
  await ensureObjects(configMap(name, { finalizers: ["example.com/first", "example.com/second"] }));
  await signIn(page, `/namespaces/${NS}/configmaps/${name}`);
  await expect(page.getByTestId("object-title")).toHaveText(`ConfigMap ${name}`);
  await expect(page.getByTestId("terminating-badge")).toHaveCount(0);

  await kubectl(["delete", "configmap", name, "-n", NS, "--wait=false"]);
  const badge = page.getByTestId("terminating-badge");
  await expect(badge).toHaveText("Terminating · finalizers example.com/first, example.com/second");
  await expect(page.getByTestId("termination-detail")).toContainText("waiting for the finalizers example.com/first, example.com/second to be removed");

  await page.goto(`/namespaces/${NS}/configmaps`);
  const row = page.locator(`[data-testid=resource-row][data-key="${NS}/${name}"]`);
  await expect(row.getByTestId("terminating-badge")).toHaveText("Terminating · finalizers example.com/first, example.com/second");
  await shot(page, "deletion-terminating-finalizers");
  await expectAccessible(page, "list with a Terminating row");

  await kubectl(["patch", "configmap", name, "-n", NS, "--type=json", "-p", JSON.stringify([{ op: "remove", path: "/metadata/finalizers/0" }])]);
  await expect(row.getByTestId("terminating-badge")).toHaveText("Terminating · finalizer example.com/second");
  await kubectl(["patch", "configmap", name, "-n", NS, "--type=merge", "-p", JSON.stringify({ metadata: { finalizers: null } })]);
  await expect(row).toHaveCount(0);
});

test("a scheduled pod deleted from the console shows its grace seconds ticking down", async ({ page }) => {
  const name = uniqueName("graceful");
  await ensureObjects({
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: NS },
    spec: { nodeName: "node-1", terminationGracePeriodSeconds: 30, containers: [{ name: "app", image: "nginx" }] },
  });
  await signIn(page, `/namespaces/${NS}/pods/${name}`);
  await expect(page.getByTestId("object-title")).toHaveText(`Pod ${name}`);
  await openDeleteFromPage(page);
  await expect(page.getByLabel("Grace period (seconds)")).toHaveAttribute("placeholder", "object's own (30)");
  await expect(page.getByRole("combobox", { name: "Dependents" })).toHaveValue("Background");
  const request = page.waitForRequest(isDelete(name));
  await page.getByTestId("confirm-delete").click();
  const body = (await request).postDataJSON();
  expect(body).toMatchObject({ kind: "DeleteOptions", propagationPolicy: "Background" });
  expect(body.gracePeriodSeconds).toBeUndefined();

  // The page stays (the pod is still there, Terminating) and counts down to its deletionTimestamp.
  const badge = page.getByTestId("terminating-badge");
  await expect(badge).toHaveText(/^Terminating · \d+s left$/);
  const first = Number(await badge.getAttribute("data-seconds-left"));
  expect(first).toBeGreaterThan(0);
  expect(first).toBeLessThanOrEqual(30);
  await expect.poll(async () => Number(await badge.getAttribute("data-seconds-left"))).toBeLessThan(first);
  await expect(page.getByTestId("termination-detail")).toContainText(/goes at .* \(\d+ seconds left\)/);
  await expect(page).toHaveURL(new RegExp(`/namespaces/${NS}/pods/${name}$`));
  await shot(page, "deletion-grace-seconds");

  await page.goto(`/namespaces/${NS}/pods`);
  await expect(page.locator(`[data-testid=resource-row][data-key="${NS}/${name}"]`).getByTestId("terminating-badge")).toHaveText(/^Terminating · \d+s left$/);
  await kubectl(["delete", "pod", name, "-n", NS, "--grace-period=0", "--force"]);
  await expect(page.locator(`[data-testid=resource-row][data-key="${NS}/${name}"]`)).toHaveCount(0);
});

test("an owner's page links its dependents, live, and each dependent links its owner", async ({ page }) => {
  const t = await ownerTree("owner");
  await signIn(page, `/namespaces/${NS}/configmaps/${t.owner}`);
  const panel = page.getByTestId("dependents");
  for (const [kind, name] of [["ConfigMap", t.child], ["ConfigMap", t.shared], ["Secret", t.secret]]) {
    await expect(panel.getByRole("link", { name: `${kind} ${NS}/${name}`, exact: true })).toBeVisible();
  }
  await expect(panel.getByTestId("dependent")).toHaveCount(3);
  await expect(panel.locator(`[data-key="ConfigMap/${NS}/${t.child}"]`)).toContainText("blocks owner deletion");
  // The grandchild depends on the child, not on the owner.
  await expect(panel).not.toContainText(t.grandchild);

  // Live: a new dependent appears without a reload.
  const late = `${t.owner}-late`;
  await ensureObjects(configMap(late, ownedBy(t.owner, t.ownerUid)));
  // The scan watches every kind in the background, taking turns for the few connections HTTP/1.1 leaves.
  await expect(panel.getByRole("link", { name: `ConfigMap ${NS}/${late}`, exact: true })).toBeVisible({ timeout: 30_000 });
  await shot(page, "deletion-dependents-panel");
  await expectAccessible(page, "object page with dependents");

  await panel.getByRole("link", { name: `ConfigMap ${NS}/${t.child}`, exact: true }).click();
  await expect(page.getByTestId("object-title")).toHaveText(`ConfigMap ${t.child}`);
  await expect(page.getByTestId("owners").getByRole("link", { name: `ConfigMap ${t.owner}` })).toBeVisible();
  await expect(page.getByTestId("dependents").getByRole("link", { name: `ConfigMap ${NS}/${t.grandchild}`, exact: true })).toBeVisible();
});

test("the delete dialog spells out which dependents go (Background, Foreground) or stay (Orphan) and sends the policy", async ({ page }) => {
  const t = await ownerTree("plan");
  await signIn(page, `/namespaces/${NS}/configmaps/${t.owner}`);
  await expect(page.getByTestId("dependents").getByTestId("dependent")).toHaveCount(3);
  await openDeleteFromPage(page);
  const plan = page.getByTestId("dependents-plan");

  // Background (the default): the tree that goes, and the dependent another owner keeps.
  await expect(plan).toHaveAttribute("data-policy", "Background");
  await expect(page.getByTestId("dependents-summary")).toHaveText("3 dependents are deleted with it.");
  const deleted = page.getByTestId("plan-deleted");
  await expect(deleted.getByTestId("plan-deleted-item")).toHaveCount(3);
  await expect(deleted.locator(`[data-key="ConfigMap/${NS}/${t.child}"]`)).toContainText(`ConfigMap ${NS}/${t.grandchild}`);
  await expect(deleted).toContainText(`Secret ${NS}/${t.secret}`);
  await expect(deleted).not.toContainText(t.shared);
  await expect(page.getByTestId("plan-kept")).toContainText(`ConfigMap ${NS}/${t.shared} · kept by ConfigMap ${t.other}`);

  // Foreground: the same objects, first; the blocking one is marked.
  await page.getByRole("combobox", { name: "Dependents" }).selectOption("Foreground");
  await expect(plan).toHaveAttribute("data-policy", "Foreground");
  await expect(page.getByTestId("dependents-plan")).toContainText("stays Terminating until those that block its deletion are gone");
  await expect(deleted.locator(`[data-key="ConfigMap/${NS}/${t.child}"]`).first()).toContainText("blocks deletion of its owner");
  await expect(deleted.getByTestId("plan-deleted-item")).toHaveCount(3);

  // Orphan: the direct dependents stay and lose their reference; the grandchild is not concerned.
  await page.getByRole("combobox", { name: "Dependents" }).selectOption("Orphan");
  await expect(page.getByTestId("dependents-summary")).toHaveText("3 dependents stay and lose their owner reference.");
  const orphaned = page.getByTestId("plan-orphaned");
  await expect(orphaned.getByTestId("plan-orphaned-item")).toHaveCount(3);
  await expect(orphaned).toContainText(`ConfigMap ${NS}/${t.child} · loses its reference to ConfigMap ${t.owner}`);
  await expect(orphaned).not.toContainText(t.grandchild);
  await expect(page.getByTestId("plan-deleted")).toHaveCount(0);
  await shot(page, "deletion-dialog-orphan");
  await expectAccessible(page, "delete dialog");

  await page.getByRole("combobox", { name: "Dependents" }).selectOption("Foreground");
  await shot(page, "deletion-dialog-foreground");
  const request = page.waitForRequest(isDelete(t.owner));
  await page.getByTestId("confirm-delete").click();
  expect((await request).postDataJSON()).toMatchObject({ kind: "DeleteOptions", propagationPolicy: "Foreground" });

  // The garbage collector does what the dialog said: the tree goes, the shared dependent stays with its other owner.
  const exists = async (resource: string, name: string) => (await kubectl(["get", resource, name, "-n", NS, "--ignore-not-found", "-o", "name"])).trim() !== "";
  await expect.poll(async () => [await exists("configmap", t.owner), await exists("configmap", t.child), await exists("configmap", t.grandchild), await exists("secret", t.secret)], { timeout: 30_000 }).toEqual([false, false, false, false]);
  const shared = JSON.parse(await kubectl(["get", "configmap", t.shared, "-n", NS, "-o", "json"]));
  expect(shared.metadata.ownerReferences.map((r: { name: string }) => r.name)).toEqual([t.other]);
  // Once the owner is gone, the page it was deleted from goes back to the list.
  await expect(page).toHaveURL(new RegExp(`/namespaces/${NS}/configmaps$`));
});

test("a user who may not list some kinds is told the dependents there are not shown", async ({ page }) => {
  const t = await ownerTree("limited");
  await ensureObjects(
    {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "Role",
      metadata: { name: "configmaps-only", namespace: NS },
      rules: [{ apiGroups: [""], resources: ["configmaps"], verbs: ["get", "list", "watch", "delete"] }],
    },
    {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "RoleBinding",
      metadata: { name: `${USER_NAME}-configmaps-only`, namespace: NS },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "configmaps-only" },
      subjects: [{ apiGroup: "rbac.authorization.k8s.io", kind: "User", name: USER_NAME }],
    },
  );
  await signIn(page, `/namespaces/${NS}/configmaps`, USER_TOKEN);
  await page.getByLabel(`Select ${NS}/${t.owner}`, { exact: true }).check();
  await page.getByTestId("delete-selected").click();
  await expect(page.getByTestId("dependents-plan")).toHaveAttribute("data-state", "ready");
  const deleted = page.getByTestId("plan-deleted");
  await expect(deleted).toContainText(`ConfigMap ${NS}/${t.child}`);
  await expect(deleted).toContainText(`ConfigMap ${NS}/${t.grandchild}`);
  await expect(deleted).not.toContainText(t.secret);
  const note = page.getByTestId("dependents-plan").getByTestId("dependents-unlisted");
  await expect(note).toContainText("There may be dependents not shown.");
  await expect(note).toContainText(/Your roles do not allow listing .*Secrets.* \(403\)/);
  await shot(page, "deletion-dialog-forbidden-kinds");
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("dependents-plan")).toHaveCount(0);
});
