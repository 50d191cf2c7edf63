// A Secret's values stay out of the page until the user reveals them (issue 22, item 2): not in the HTML,
// its attributes or tooltips, the YAML editor's models, the React Query cache, history diffs, the namespace
// replay or the palette. A Secret made with `kubectl apply` and `stringData` carries its values a second
// time, in clear, in the last-applied-configuration annotation.
import { expect, type Page } from "@playwright/test";
import { parse, stringify } from "yaml";
import { editorText, ensureNamespaces, kubectl, setEditorText, shot, signIn, test, uniqueName } from "./support";

const NS = "e2e-secret-values";

test.describe.configure({ timeout: 180_000 });
test.beforeAll(() => ensureNamespaces(NS));

/** Everything the page holds that a person or a script could read: HTML, Monaco models, the query cache. */
async function pageHolds(page: Page): Promise<string> {
  const html = await page.content();
  const rest = await page.evaluate(() => {
    const models = window.__clusterCoreMonaco?.editor.getModels().map((m) => m.getValue()) ?? [];
    const cache = window.__clusterCoreQueryClient?.getQueryCache().getAll().map((q) => q.state.data) ?? [];
    return JSON.stringify({ models, cache }, (_k, v) => (v instanceof Map ? [...v.entries()] : v instanceof Set ? [...v] : v));
  });
  return html + rest;
}

async function expectHidden(page: Page, value: string, where: string) {
  const held = await pageHolds(page);
  expect(held.includes(value), `${where}: the value in clear`).toBe(false);
  expect(held.includes(Buffer.from(value).toString("base64")), `${where}: the value in base64`).toBe(false);
}

test("a kubectl-applied Secret's values are nowhere in the page until revealed; revealing edits and saves it whole", async ({ page }) => {
  const name = uniqueName("applied-secret");
  const value = `${name}-s3cret-value`;
  await kubectl(["apply", "-f", "-"], JSON.stringify({ apiVersion: "v1", kind: "Secret", metadata: { name, namespace: NS }, stringData: { token: value } }));
  await kubectl(["label", "-n", NS, "secret", name, "step=two"]);

  // The object page: metadata (the annotation), the data section, the cache behind them.
  await signIn(page, `/namespaces/${NS}/secrets/${name}`);
  await expect(page.getByTestId("metadata")).toContainText("kubectl.kubernetes.io/last-applied-configuration");
  await expect(page.getByTestId("secret-value-token")).toContainText("hidden value");
  await expectHidden(page, value, "object page");

  // The list (its cache and the server-rendered first rows).
  await page.goto(`/namespaces/${NS}/secrets`);
  await expect(page.getByTestId("resource-row").filter({ hasText: name })).toBeVisible();
  await expectHidden(page, value, "list");

  // The palette.
  await page.locator("body").press("Control+k");
  await page.getByRole("combobox", { name: /Search names and labels/ }).fill(name);
  await expect(page.getByRole("listbox", { name: "Results" }).getByRole("option", { name: new RegExp(name) })).toBeVisible();
  await expectHidden(page, value, "palette");
  await page.keyboard.press("Escape");

  // History: the diff between its two revisions.
  await page.goto(`/namespaces/${NS}/secrets/${name}?tab=history`);
  await expect(page.getByTestId("history-revision")).toHaveCount(2);
  await page.getByTestId("history-revision").nth(1).getByTestId("history-select").click();
  await expectHidden(page, value, "history");

  // The namespace's last hour and its replay.
  await page.goto(`/namespaces/${NS}`);
  const changes = page.getByTestId("namespace-changes");
  await expect(changes.getByTestId("namespace-change").filter({ hasText: name }).first()).toBeVisible();
  await changes.getByTestId("replay-toggle").click();
  await page.getByTestId("replay-now").click();
  await expect(page.getByTestId("replay-objects")).toContainText(name);
  await expectHidden(page, value, "replay");

  // The YAML tab shows keys, values hidden, until the user reveals them to edit.
  await page.goto(`/namespaces/${NS}/secrets/${name}?tab=yaml`);
  await expect(page.getByTestId("secret-yaml")).toContainText("token: (hidden)");
  await expectHidden(page, value, "YAML tab");
  await shot(page, "secret-yaml-hidden");

  // Revealed on purpose: now the value is shown, and a save keeps every value as stored.
  await page.getByTestId("reveal-secret-yaml").click();
  await expect(page.getByTestId("object-yaml-editor")).toBeVisible();
  const uri = (await page.getByTestId("yaml-editor").getAttribute("data-model-uri"))!;
  await expect.poll(() => page.evaluate((u) => window.__clusterCoreMonaco!.editor.getModel(window.__clusterCoreMonaco!.Uri.parse(u))?.getValue() ?? "", uri)).toContain(
    Buffer.from(value).toString("base64"),
  );

  const obj = parse(await editorText(page));
  obj.metadata.labels = { ...obj.metadata.labels, edited: "yes" };
  await setEditorText(page, stringify(obj));
  await page.getByTestId("review-save").click();
  await page.getByTestId("confirm-save").click();
  await expect(page.getByTestId("save-notice")).toContainText("Saved as field manager cluster-core-console: 1 field changed");
  const stored = JSON.parse(await kubectl(["get", "-n", NS, "secret", name, "-o", "json"]));
  expect(stored.metadata.labels).toEqual({ step: "two", edited: "yes" });
  expect(Buffer.from(stored.data.token, "base64").toString()).toBe(value);

  await page.goto(`/namespaces/${NS}/secrets/${name}`);
  await page.getByRole("button", { name: "Reveal token" }).click();
  await expect(page.getByTestId("secret-value-token")).toHaveText(value);
});

test("a Secret's history restores its values as stored, never the masked copy", async ({ page }) => {
  const name = uniqueName("restored-secret");
  const value = `${name}-first`;
  await kubectl(["apply", "-f", "-"], JSON.stringify({ apiVersion: "v1", kind: "Secret", metadata: { name, namespace: NS }, stringData: { token: value } }));
  await kubectl(["patch", "-n", NS, "secret", name, "--type=merge", "-p", JSON.stringify({ stringData: { token: "second" } })]);

  await signIn(page, `/namespaces/${NS}/secrets/${name}?tab=history`);
  const revisions = page.getByTestId("history-revision");
  await expect(revisions).toHaveCount(2);
  // The newest change's diff says the value changed (its size and a per-page fingerprint), without showing either value.
  const diff = page.getByTestId("history-diff");
  await expect(diff.locator('tr[data-op="removed"]').filter({ hasText: "token:" })).toHaveText([new RegExp(`token: "\\(hidden: ${value.length} bytes, #[0-9a-f]{8}\\)"`)]);
  await expect(diff.locator('tr[data-op="added"]').filter({ hasText: "token:" })).toHaveText([/token: "\(hidden: 6 bytes, #[0-9a-f]{8}\)"/]);
  await expectHidden(page, value, "history diff");
  await expectHidden(page, "second", "history diff");
  await revisions.nth(1).getByTestId("history-select").click();
  await revisions.nth(1).getByTestId("history-restore").click();
  await expect(page.getByTestId("restore-diff")).toBeVisible();
  await expectHidden(page, value, "restore dialog");
  await page.getByTestId("restore-confirm").click();
  await expect(page.getByTestId("restore-diff")).toHaveCount(0);

  const stored = JSON.parse(await kubectl(["get", "-n", NS, "secret", name, "-o", "json"]));
  expect(Buffer.from(stored.data.token, "base64").toString()).toBe(value);
});
