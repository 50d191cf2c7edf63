// The YAML editor's safety net: an object changed by kubectl while open is said so, and saving writes the
// edits onto that new version (save.spec.ts covers the merge and its conflicts); a 422 shows each cause; a dry
// run validates without saving.
import { expect } from "@playwright/test";
import { parse, stringify } from "yaml";
import { editorText, ensureNamespaces, kubectl, setEditorText, shot, signIn, test, uniqueName } from "./support";

const NAMESPACE = "e2e-editor";

test.beforeAll(() => ensureNamespaces(NAMESPACE));

async function createConfigMap(name: string) {
  await kubectl(
    ["create", "--validate=false", "-f", "-"],
    JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: NAMESPACE }, data: { greeting: "hello" } }),
  );
}

test("an object changed while being edited is said so, and the edits are saved onto the new version", async ({ page }) => {
  const name = uniqueName("conflict");
  await createConfigMap(name);
  await signIn(page, `/namespaces/${NAMESPACE}/configmaps/${name}?tab=yaml`);
  const loaded = parse(await editorText(page));
  loaded.data.note = "edited in the console";
  await setEditorText(page, stringify(loaded));

  await kubectl(["label", "-n", NAMESPACE, "configmap", name, "changed-by=kubectl"]);
  await expect(page.getByTestId("changed-on-server")).toBeVisible();

  await page.getByTestId("review-save").click();
  await expect(page.getByTestId("review-summary")).toContainText("changed since you loaded");
  await expect(page.getByTestId("yaml-diff")).toBeVisible();
  await shot(page, "yaml-conflict");

  await page.getByTestId("confirm-save").click();
  await expect(page.getByTestId("save-notice")).toContainText("Saved");
  const stored = JSON.parse(await kubectl(["get", "-n", NAMESPACE, "configmap", name, "-o", "json"]));
  expect(stored.data).toEqual({ greeting: "hello", note: "edited in the console" });
  expect(stored.metadata.labels["changed-by"]).toBe("kubectl");
});

test("dry run validates on the server and a 422 shows each cause at its field", async ({ page }) => {
  const name = uniqueName("invalid");
  await createConfigMap(name);
  await signIn(page, `/namespaces/${NAMESPACE}/configmaps/${name}?tab=yaml`);
  const obj = parse(await editorText(page));

  obj.data.extra = "dry";
  await setEditorText(page, stringify(obj));
  await page.getByTestId("dry-run").click();
  await expect(page.getByTestId("save-notice")).toContainText("Dry run passed");
  const unchanged = JSON.parse(await kubectl(["get", "-n", NAMESPACE, "configmap", name, "-o", "json"]));
  expect(unchanged.data).toEqual({ greeting: "hello" });

  obj.metadata.labels = { "bad label!": "x" };
  await setEditorText(page, stringify(obj));
  await page.getByTestId("dry-run").click();
  await expect(page.getByTestId("cause-list")).toContainText("metadata.labels");
  await expect(page.locator(".monaco-editor .squiggly-error").first()).toBeVisible();
  await shot(page, "yaml-422-causes");
});

test("create from YAML with several documents creates each object", async ({ page }) => {
  const [a, b] = [uniqueName("multi"), uniqueName("multi")];
  await signIn(page, `/create/configmaps?namespace=${NAMESPACE}`);
  await expect(page.getByTestId("yaml-editor").locator(".monaco-editor")).toBeVisible();
  await shot(page, "create-from-template");
  const docs = [a, b].map((n) => stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: n }, data: { x: "1" } })).join("---\n");
  await setEditorText(page, docs);
  await page.getByTestId("create-submit").click();
  await expect(page.getByTestId("create-notice")).toContainText("Created 2 objects");
  const names = (await kubectl(["get", "-n", NAMESPACE, "configmaps", "-o", "name"])).split("\n");
  expect(names).toContain(`configmap/${a}`);
  expect(names).toContain(`configmap/${b}`);
});
