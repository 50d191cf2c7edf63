// Object history in the console (issue 14, item 8): the History tab's timeline (who changed what, when), a
// diff between any two revisions, "Restore this version" after a diff (and the 409 when the object changed
// meanwhile), a deleted object found from its kind's list and re-created from its last revision, and a
// namespace's changes of the last hour.
import { expect, type Page } from "@playwright/test";
import { ensureNamespaces, ensureObjects, expectAccessible, kubectl, signIn, test, uniqueName, USER_NAME, USER_TOKEN } from "./support";

const NS = "e2e-history";

const configMap = (name: string, v: string) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: NS }, data: { v } });
const patchV = (name: string, v: string, token?: string) =>
  kubectl([...(token ? [`--token=${token}`] : []), "patch", "configmap", name, "-n", NS, "--type=merge", "-p", JSON.stringify({ data: { v } })]);
const valueOf = async (name: string) => (await kubectl(["get", "configmap", name, "-n", NS, "-o", "jsonpath={.data.v}"])).trim();

// Each test writes with kubectl and waits on live updates: allow a loaded machine more than the default 90 s.
test.describe.configure({ timeout: 180_000 });

test.beforeAll(async () => {
  await ensureNamespaces(NS);
  await ensureObjects({
    apiVersion: "rbac.authorization.k8s.io/v1", kind: "RoleBinding", metadata: { name: "history-editor", namespace: NS },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "edit" },
    subjects: [{ kind: "User", name: USER_NAME, apiGroup: "rbac.authorization.k8s.io" }],
  });
});


const revisions = (page: Page) => page.getByTestId("history-revision");

async function openHistory(page: Page, name: string) {
  await signIn(page, `/namespaces/${NS}/configmaps/${name}`);
  await page.getByTestId("tab-history").click();
  await expect(page).toHaveURL(/\?tab=history/);
}

test("the timeline says who changed what and when, and diffs any two revisions", async ({ page }) => {
  const name = uniqueName("timeline");
  await ensureObjects(configMap(name, "one"));
  await patchV(name, "two", USER_TOKEN);
  await patchV(name, "three");
  await openHistory(page, name);

  await expect(revisions(page)).toHaveCount(3);
  await expect(page.getByTestId("history-user")).toHaveText(["admin", USER_NAME, "admin"]);
  await expect(revisions(page).first()).toContainText("Modified");
  await expect(revisions(page).first()).toContainText("(current)");
  await expect(revisions(page).last()).toContainText("Created");
  // The newest change by default: two → three.
  const diff = page.getByTestId("history-diff");
  await expect(diff.locator('tr[data-op="removed"]')).toHaveText([/v: two/]);
  await expect(diff.locator('tr[data-op="added"]')).toHaveText([/v: three/]);
  // Picking a revision in the timeline shows what it changed: team-a-dev's one → two.
  await revisions(page).nth(1).getByTestId("history-select").click();
  await expect(diff.locator('tr[data-op="removed"]')).toHaveText([/v: one/]);
  await expect(diff.locator('tr[data-op="added"]')).toHaveText([/v: two/]);
  // Any two: from the creation to the newest.
  const rvs = await revisions(page).evaluateAll((els) => els.map((e) => e.getAttribute("data-rv")!));
  await page.getByTestId("diff-from").selectOption(rvs[2]);
  await page.getByTestId("diff-to").selectOption(rvs[0]);
  await expect(diff.locator('tr[data-op="removed"]')).toHaveText([/v: one/]);
  await expect(diff.locator('tr[data-op="added"]')).toHaveText([/v: three/]);
  // A change made elsewhere appears in the timeline (the tab follows the live object).
  await patchV(name, "four");
  await expect(revisions(page)).toHaveCount(4);
  await expectAccessible(page, "history tab");
});

test("restore this version: a diff to confirm, an update that holds only if nothing changed meanwhile", async ({ page }) => {
  const name = uniqueName("restore");
  await ensureObjects(configMap(name, "good"));
  await patchV(name, "bad");
  await openHistory(page, name);
  await expect(revisions(page)).toHaveCount(2);

  // Restore the first version: the dialog shows what the restore changes.
  await revisions(page).nth(1).getByTestId("history-select").click();
  await revisions(page).nth(1).getByTestId("history-restore").click();
  const dialogDiff = page.getByTestId("restore-diff");
  await expect(dialogDiff.locator('tr[data-op="removed"]')).toHaveText([/v: bad/]);
  await expect(dialogDiff.locator('tr[data-op="added"]')).toHaveText([/v: good/]);
  await expectAccessible(page, "restore dialog");
  await page.getByTestId("restore-confirm").click();
  await expect(page.getByTestId("restore-diff")).toHaveCount(0);
  expect(await valueOf(name)).toBe("good");
  await expect(revisions(page)).toHaveCount(3);
  await expect(revisions(page).first()).toContainText("admin");

  // Changed while the diff is open: the restore is refused (409) and nothing is written.
  await revisions(page).nth(1).getByTestId("history-select").click(); // "bad"
  await revisions(page).nth(1).getByTestId("history-restore").click();
  await expect(page.getByTestId("restore-diff").locator('tr[data-op="added"]')).toHaveText([/v: bad/]);
  await patchV(name, "meanwhile");
  await page.getByTestId("restore-confirm").click();
  await expect(page.getByTestId("restore-error")).toContainText("changed since this diff was made");
  await expect(page.getByTestId("restore-error")).toContainText("the object has been modified");
  expect(await valueOf(name)).toBe("meanwhile");
  // Reviewed again against the new state, it goes through.
  await page.getByTestId("restore-review-again").click();
  await expect(page.getByTestId("restore-diff").locator('tr[data-op="removed"]')).toHaveText([/v: meanwhile/]);
  await page.getByTestId("restore-confirm").click();
  await expect(page.getByTestId("restore-diff")).toHaveCount(0);
  expect(await valueOf(name)).toBe("bad");
});

test("a deleted object is found from its kind's list and re-created from its last revision", async ({ page }) => {
  const name = uniqueName("gone");
  await ensureObjects(configMap(name, "first"));
  await patchV(name, "last");
  await kubectl(["delete", "configmap", name, "-n", NS]);
  await signIn(page, `/namespaces/${NS}/configmaps`);
  await page.getByTestId("deleted-link").click();
  await expect(page).toHaveURL(new RegExp(`/history/deleted/configmaps\\?namespace=${NS}`));
  const row = page.getByTestId("deleted-row").filter({ hasText: name });
  await expect(row).toContainText("admin");
  await expectAccessible(page, "deleted objects");
  await row.getByTestId("recreate-open").click();
  const yaml = page.getByTestId("recreate-yaml");
  await expect(yaml).toContainText("v: last");
  await expect(yaml).not.toContainText("uid:");
  await expect(yaml).not.toContainText("resourceVersion:");
  await expect(yaml).not.toContainText("creationTimestamp:");
  await page.getByTestId("recreate-confirm").click();
  await expect(page).toHaveURL(new RegExp(`/namespaces/${NS}/configmaps/${name}$`));
  await expect(page.getByTestId("object-title")).toHaveText(`ConfigMap ${name}`);
  expect(await valueOf(name)).toBe("last");
  // No longer deleted: gone from the list of deleted objects; its history runs on across the deletion.
  await page.goto(`/history/deleted/configmaps?namespace=${NS}`);
  await expect(page.getByRole("heading", { name: /Deleted ConfigMaps/ })).toBeVisible();
  await expect(page.getByTestId("deleted-row").filter({ hasText: name })).toHaveCount(0);
  await page.goto(`/namespaces/${NS}/configmaps/${name}?tab=history`);
  await expect(revisions(page).nth(0)).toContainText("Created");
  await expect(revisions(page).nth(1)).toContainText("Deleted");
});

test("the namespace view replays the last hour of changes", async ({ page }) => {
  const name = uniqueName("replay");
  await ensureObjects(configMap(name, "before"));
  await patchV(name, "after", USER_TOKEN);
  await signIn(page, `/namespaces/${NS}`);
  const changes = page.getByTestId("namespace-changes");
  await expect(changes.getByRole("heading", { name: /Changes in the last hour/ })).toBeVisible();
  const entries = changes.getByTestId("namespace-change").filter({ hasText: name });
  await expect(entries).toHaveCount(2);
  await expect(entries.first()).toContainText("Modified");
  await expect(entries.first()).toContainText(USER_NAME);
  await expect(entries.last()).toContainText("Created");
  await entries.first().getByTestId("change-toggle").click();
  const diff = entries.first().getByTestId("change-diff");
  await expect(diff.locator('tr[data-op="removed"]')).toHaveText([/v: before/]);
  await expect(diff.locator('tr[data-op="added"]')).toHaveText([/v: after/]);
  // A change made now shows up without a reload.
  await patchV(name, "later");
  await expect(entries).toHaveCount(3);
  // The entry links to the object's history.
  const link = entries.first().getByRole("link", { name });
  await expect(link).toHaveAttribute("href", `/namespaces/${NS}/configmaps/${name}?tab=history`);
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/namespaces/${NS}/configmaps/${name}\\?tab=history`), { timeout: 45_000 });
  await expect(revisions(page)).toHaveCount(3);
  await expectAccessible(page, "namespace changes");
});
