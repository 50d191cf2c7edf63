// Saving from the YAML editor is a server-side apply as the field manager `cluster-core-console`: the
// managed-fields view (collapsed by default) shows what each manager owns, and a field another manager
// applied with a different value is a conflict explained in place, resolved by taking ownership (force) or
// by leaving the fields to their manager.
import { expect, type Page } from "@playwright/test";
import { parse, stringify } from "yaml";
import { editorText, ensureNamespaces, kubectl, setEditorText, shot, signIn, test, uniqueName } from "./support";

const NAMESPACE = "e2e-apply";
const OTHER = "e2e-other";

test.beforeAll(() => ensureNamespaces(NAMESPACE));

async function createConfigMap(name: string) {
  await kubectl(["create", "--validate=false", "-f", "-"], JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: NAMESPACE }, data: { greeting: "hello" } }));
}

/** Another client applies `data` with its own field manager (through the API, as kubectl --server-side does). */
async function applyAsOther(name: string, data: Record<string, string>) {
  await kubectl(
    ["apply", "--server-side", `--field-manager=${OTHER}`, "--force-conflicts", "-f", "-"],
    JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: NAMESPACE }, data }),
  );
}

async function stored(name: string) {
  return JSON.parse(await kubectl(["get", "-n", NAMESPACE, "configmap", name, "-o", "json", "--show-managed-fields"]));
}

/** Edits the editor's object and saves through the diff. */
async function editAndSave(page: Page, change: (obj: Record<string, any>) => void) {
  const obj = parse(await editorText(page));
  change(obj);
  await setEditorText(page, stringify(obj));
  await page.getByTestId("review-save").click();
  await expect(page.getByTestId("yaml-diff")).toBeVisible();
  await page.getByTestId("confirm-save").click();
}

/** A ConfigMap whose `color` another manager applied, open in the YAML editor. */
async function openOwnedByOther(page: Page, name: string) {
  await createConfigMap(name);
  await applyAsOther(name, { color: "green" });
  await signIn(page, `/namespaces/${NAMESPACE}/configmaps/${name}?tab=yaml`);
  await expect.poll(async () => parse(await editorText(page)).data.color).toBe("green");
}

function managerRow(page: Page, manager: string) {
  return page.locator(`[data-testid=managed-fields-manager][data-manager="${manager}"]`);
}

test("a save applies as cluster-core-console, shown with the fields it owns", async ({ page }) => {
  const name = uniqueName("ssa-save");
  await createConfigMap(name);
  await signIn(page, `/namespaces/${NAMESPACE}/configmaps/${name}?tab=yaml`);
  await expect(page.getByTestId("field-manager-note")).toContainText("cluster-core-console");
  expect(await editorText(page)).not.toContain("managedFields");
  await expect(page.getByTestId("managed-fields")).toHaveJSProperty("open", false);

  await editAndSave(page, (obj) => (obj.data.color = "blue"));
  await expect(page.getByTestId("save-notice")).toContainText("Saved as field manager cluster-core-console");
  expect(await editorText(page)).not.toContain("managedFields");

  const obj = await stored(name);
  expect(obj.data).toEqual({ greeting: "hello", color: "blue" });
  const entry = obj.metadata.managedFields.find((e: { manager: string }) => e.manager === "cluster-core-console");
  expect(entry.operation).toBe("Apply");
  expect(entry.fieldsV1["f:data"]["f:color"]).toEqual({});

  await page.getByTestId("managed-fields-toggle").click();
  const console = managerRow(page, "cluster-core-console");
  await expect(console).toBeVisible();
  await expect(console).toHaveAttribute("data-operation", "Apply");
  await expect(console.getByTestId("managed-fields-paths")).toContainText(".data.color");
  await expect(console.getByTestId("managed-fields-paths")).toContainText(".data.greeting");
  await expect(managerRow(page, "kubectl-create").getByTestId("managed-fields-paths")).toContainText(".data.greeting");
  await shot(page, "yaml-managed-fields");
});

test("a field another manager applied is a conflict explained in place; taking ownership saves the value", async ({ page }) => {
  const name = uniqueName("ssa-force");
  await createConfigMap(name);
  await signIn(page, `/namespaces/${NAMESPACE}/configmaps/${name}?tab=yaml`);
  await editAndSave(page, (obj) => (obj.data.color = "blue"));
  await expect(page.getByTestId("save-notice")).toContainText("Saved as field manager");
  await expect(page.getByTestId("field-manager-note")).toContainText("No edits");

  await applyAsOther(name, { color: "green" });
  // An untouched editor follows the live object.
  await expect.poll(async () => parse(await editorText(page)).data.color).toBe("green");

  await editAndSave(page, (obj) => (obj.data.color = "red"));
  const conflict = page.getByTestId("apply-conflict");
  await expect(conflict).toBeVisible();
  await expect(conflict.locator(`[data-testid=apply-conflict-manager][data-manager="${OTHER}"]`)).toContainText(".data.color");
  await expect(page.getByTestId("apply-conflict-message")).toHaveText(`Apply failed with 1 conflict: conflict with "${OTHER}": .data.color`);
  expect((await stored(name)).data.color).toBe("green");
  await shot(page, "yaml-apply-conflict");

  await page.getByTestId("take-ownership").click();
  await expect(page.getByTestId("save-notice")).toContainText("Saved as field manager cluster-core-console");
  await expect(page.getByTestId("apply-conflict")).toHaveCount(0);
  const obj = await stored(name);
  expect(obj.data.color).toBe("red");
  const owners = obj.metadata.managedFields.filter((e: { fieldsV1?: { "f:data"?: Record<string, unknown> } }) => e.fieldsV1?.["f:data"]?.["f:color"]);
  expect(owners.map((e: { manager: string }) => e.manager)).toEqual(["cluster-core-console"]);

  await page.getByTestId("managed-fields-toggle").click();
  await expect(managerRow(page, "cluster-core-console").getByTestId("managed-fields-paths")).toContainText(".data.color");
  await expect(managerRow(page, OTHER)).toHaveCount(0);
});

test("leaving the conflicting fields saves the rest and keeps the other manager's value", async ({ page }) => {
  const name = uniqueName("ssa-leave");
  await openOwnedByOther(page, name);

  await editAndSave(page, (obj) => {
    obj.data.color = "red";
    obj.data.size = "large";
  });
  await expect(page.getByTestId("apply-conflict")).toContainText(".data.color");
  await page.getByTestId("leave-fields").click();
  await expect(page.getByTestId("save-notice")).toContainText("Saved as field manager cluster-core-console");
  expect(parse(await editorText(page)).data).toEqual({ greeting: "hello", color: "green", size: "large" });

  const obj = await stored(name);
  expect(obj.data).toEqual({ greeting: "hello", color: "green", size: "large" });
  await page.getByTestId("managed-fields-toggle").click();
  await expect(managerRow(page, OTHER).getByTestId("managed-fields-paths")).toContainText(".data.color");
  const mine = managerRow(page, "cluster-core-console").getByTestId("managed-fields-paths");
  await expect(mine).toContainText(".data.size");
  await expect(mine).not.toContainText(".data.color");
});

test("what is typed while taking ownership is saved is kept, as an edit of the saved object", async ({ page }) => {
  const name = uniqueName("ssa-typing");
  await openOwnedByOther(page, name);
  await editAndSave(page, (obj) => (obj.data.color = "red"));
  await expect(page.getByTestId("apply-conflict")).toBeVisible();

  // The forced apply takes a while to answer; meanwhile the user types a comment at the end.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route((url) => url.pathname.endsWith(`/configmaps/${name}`) && url.searchParams.get("force") === "true", async (route) => {
    await held;
    await route.continue();
  });
  await page.getByTestId("take-ownership").click();
  const uri = (await page.getByTestId("yaml-editor").getAttribute("data-model-uri"))!;
  await page.evaluate((u) => {
    const monaco = window.__clusterCoreMonaco!;
    const editor = monaco.editor.getEditors().find((e) => e.getModel()?.uri.toString() === monaco.Uri.parse(u).toString())!;
    const model = editor.getModel()!;
    editor.setPosition(model.getPositionAt(model.getValueLength()));
    editor.focus();
  }, uri);
  await page.keyboard.type("# typed while saving", { delay: 10 });
  release();

  await expect(page.getByTestId("save-notice")).toContainText("Saved as field manager cluster-core-console");
  expect((await stored(name)).data.color).toBe("red");
  expect(await editorText(page)).toContain("# typed while saving");
  await expect(page.getByTestId("field-manager-note")).toContainText("Unsaved edits");
});
