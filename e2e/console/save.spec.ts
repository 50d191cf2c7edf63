// Saving from the YAML editor changes exactly the fields the user changed, merged onto the object as stored
// when saving (loaded, edited and stored, three ways): someone else's change made meanwhile is kept, a field
// both changed is shown with both values for the user to choose, the review diff compares with the stored
// version, and "Saved" is said only when the server's answer holds every change the user kept.
import { expect, type Page } from "@playwright/test";
import { parse, stringify } from "yaml";
import { editorText, ensureNamespaces, expectAccessible, kubectl, setEditorText, shot, signIn, test, uniqueName } from "./support";

const NAMESPACE = "e2e-save";

test.beforeAll(() => ensureNamespaces(NAMESPACE));

/** `kubectl apply` (client-side, its last-applied annotation and an Update entry in managedFields), as most objects are made. */
async function kubectlApply(name: string, data: Record<string, string>) {
  await kubectl(["apply", "-f", "-"], JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: NAMESPACE }, data }));
}

/** Someone else changes data keys meanwhile, as `kubectl patch` does. */
async function patchData(name: string, data: Record<string, string>) {
  await kubectl(["patch", "-n", NAMESPACE, "configmap", name, "--type=merge", "-p", JSON.stringify({ data })]);
}

async function stored(name: string) {
  return JSON.parse(await kubectl(["get", "-n", NAMESPACE, "configmap", name, "-o", "json", "--show-managed-fields"]));
}

async function open(page: Page, name: string) {
  await signIn(page, `/namespaces/${NAMESPACE}/configmaps/${name}?tab=yaml`);
  await expect.poll(async () => parse(await editorText(page)).metadata.name).toBe(name);
}

async function edit(page: Page, change: (obj: Record<string, any>) => void) {
  const obj = parse(await editorText(page));
  change(obj);
  await setEditorText(page, stringify(obj));
}

/** The texts of the review diff (Monaco renders only what is on screen: the models are read), once it shows one. */
async function diffSides(page: Page): Promise<{ original: string; modified: string }> {
  await expect(page.getByTestId("yaml-diff")).toBeVisible();
  const read = () =>
    page.evaluate(() => {
      // A choice re-mounts the diff: the one alive is the last with a model.
      const model = window.__clusterCoreMonaco!.editor.getDiffEditors().map((d) => d.getModel()).filter((m) => !!m).at(-1);
      return model ? { original: model.original.getValue(), modified: model.modified.getValue() } : undefined;
    });
  await expect.poll(read).toBeTruthy();
  return (await read())!;
}

test("the first console edit of a field kubectl applied saves, and changes only that field", async ({ page }) => {
  const name = uniqueName("save-plain");
  await kubectlApply(name, { a: "one", b: "two" });
  await open(page, name);
  await edit(page, (obj) => (obj.data.a = "edited"));
  await page.getByTestId("review-save").click();
  await expect(page.getByTestId("merge-conflicts")).toHaveCount(0);
  await page.getByTestId("confirm-save").click();

  await expect(page.getByTestId("save-notice")).toHaveAttribute("data-tone", "ok");
  await expect(page.getByTestId("save-notice")).toContainText("Saved as field manager cluster-core-console: 1 field changed");
  const obj = await stored(name);
  expect(obj.data).toEqual({ a: "edited", b: "two" });
  const entry = obj.metadata.managedFields.find((e: { manager: string }) => e.manager === "cluster-core-console");
  expect(entry.fieldsV1["f:data"]).toEqual({ "f:a": {} });
  expect(parse(await editorText(page)).data).toEqual({ a: "edited", b: "two" });
  await expect(page.getByTestId("field-manager-note")).toContainText("No edits");
});

test("a change someone made meanwhile is kept: the review compares with the stored version and the save writes only the user's field", async ({ page }) => {
  const name = uniqueName("save-merge");
  await kubectlApply(name, { a: "one", b: "two" });
  await open(page, name);
  await edit(page, (obj) => (obj.data.a = "mine"));
  await patchData(name, { b: "from-api" });
  await expect(page.getByTestId("changed-on-server")).toBeVisible();

  await page.getByTestId("review-save").click();
  await expect(page.getByTestId("review-summary")).toContainText("changed since you loaded");
  const { original, modified } = await diffSides(page);
  expect(parse(original).data).toEqual({ a: "one", b: "from-api" });
  expect(parse(modified).data).toEqual({ a: "mine", b: "from-api" });
  await shot(page, "yaml-save-review-latest");
  await page.getByTestId("confirm-save").click();

  await expect(page.getByTestId("save-notice")).toContainText("Saved as field manager cluster-core-console: 1 field changed");
  expect((await stored(name)).data).toEqual({ a: "mine", b: "from-api" });
});

test("an object changed again between review and save is merged again, not overwritten", async ({ page }) => {
  const name = uniqueName("save-race");
  await kubectlApply(name, { a: "one", b: "two" });
  await open(page, name);
  await edit(page, (obj) => (obj.data.a = "mine"));
  await page.getByTestId("review-save").click();
  await expect(page.getByTestId("yaml-diff")).toBeVisible();
  await patchData(name, { b: "while-reviewing" });
  await page.getByTestId("confirm-save").click();

  await expect(page.getByTestId("save-notice")).toContainText("Saved");
  expect((await stored(name)).data).toEqual({ a: "mine", b: "while-reviewing" });
});

test("a field both changed shows both values; keeping the stored one saves the user's other changes and says which was kept", async ({ page }) => {
  const name = uniqueName("save-leave");
  await kubectlApply(name, { a: "one", b: "two" });
  await open(page, name);
  await edit(page, (obj) => {
    obj.data.a = "mine";
    obj.data.c = "new";
  });
  await patchData(name, { a: "theirs" });
  await page.getByTestId("review-save").click();

  const conflict = page.locator('[data-testid=merge-conflict][data-path="data.a"]');
  await expect(conflict.getByTestId("theirs-value")).toHaveText("theirs");
  await expect(conflict.getByTestId("mine-value")).toHaveText("mine");
  await expect(page.getByTestId("confirm-save")).toBeDisabled();
  await shot(page, "yaml-save-conflict");
  // The whole review: conflict choices, toolbar and Monaco's diff (inserted and removed lines readable in both themes).
  await expectAccessible(page, "save conflict");
  await conflict.getByTestId("keep-theirs").check();
  await expect.poll(async () => parse((await diffSides(page)).modified).data).toEqual({ a: "theirs", b: "two", c: "new" });
  await page.getByTestId("confirm-save").click();

  await expect(page.getByTestId("save-notice")).toContainText("1 field changed, nothing else");
  await expect(page.getByTestId("save-notice")).toContainText("Kept the stored value of data.a");
  expect((await stored(name)).data).toEqual({ a: "theirs", b: "two", c: "new" });
});

test("a field both changed can be overwritten with the user's value; the other side's other change stays", async ({ page }) => {
  const name = uniqueName("save-force");
  await kubectlApply(name, { a: "one", b: "two" });
  await open(page, name);
  await edit(page, (obj) => (obj.data.a = "mine"));
  await patchData(name, { a: "theirs", b: "from-api" });
  await page.getByTestId("review-save").click();
  await page.locator('[data-testid=merge-conflict][data-path="data.a"]').getByTestId("keep-mine").check();
  await page.getByTestId("confirm-save").click();

  await expect(page.getByTestId("save-notice")).toContainText("Saved as field manager cluster-core-console: 1 field changed");
  expect((await stored(name)).data).toEqual({ a: "mine", b: "from-api" });
});

test("a change the server did not store is named, and never reported as Saved", async ({ page }) => {
  const name = uniqueName("save-unstored");
  await kubectlApply(name, { a: "one" });
  await open(page, name);
  await edit(page, (obj) => {
    obj.data.a = "mine";
    // The server keeps an object's creation time whatever an update says.
    obj.metadata.creationTimestamp = "2001-01-01T00:00:00Z";
  });
  await page.getByTestId("review-save").click();
  await page.getByTestId("confirm-save").click();

  const notice = page.getByTestId("save-notice");
  await expect(notice).toHaveAttribute("data-tone", "warning");
  await expect(notice).not.toContainText("Saved");
  await expect(notice).toContainText("the server stored 1 of 2");
  await expect(page.getByTestId("unstored-changes")).toContainText("metadata.creationTimestamp: yours 2001-01-01T00:00:00Z");
  expect((await stored(name)).data).toEqual({ a: "mine" });
});
