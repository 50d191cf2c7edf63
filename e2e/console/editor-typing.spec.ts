// The YAML editor never loses input (issue 14, item 1): typed keys land exactly where typed with the cursor
// after them, also while kubectl changes the object underneath; the schema marks unknown fields (maps take
// any key) and a save of a misspelled field is refused with the server's message; a 422 cause is marked on
// the entry it is about, once; each document of a multi-document create is checked as its own kind.
import { expect, type Page } from "@playwright/test";
import { parse, stringify } from "yaml";
import { editorText, ensureNamespaces, ensureObjects, kubectl, setEditorText, shot, signIn, test, uniqueName } from "./support";

const NAMESPACE = "e2e-editor-typing";

test.beforeAll(() => ensureNamespaces(NAMESPACE));
// Monaco weighs megabytes: on a loaded machine its first load takes longer than the default waits.
test.slow();
const editorLoaded = (page: Page) => expect(page.getByTestId("yaml-editor").locator(".monaco-editor")).toBeVisible({ timeout: 60_000 });

interface Marker {
  owner: string;
  message: string;
  startLineNumber: number;
}

/** The markers of the page's YAML editor model (Monaco's, monaco-yaml's "yaml" and the console's "server"). */
/** A new ConfigMap (`greeting: hello`) open in the YAML editor; its name and the object the editor shows. */
async function openConfigMapYaml(page: Page, prefix: string) {
  const name = uniqueName(prefix);
  await ensureObjects({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: NAMESPACE }, data: { greeting: "hello" } });
  await signIn(page, `/namespaces/${NAMESPACE}/configmaps/${name}?tab=yaml`);
  await editorLoaded(page);
  return { name, obj: parse(await editorText(page)) };
}

async function markers(page: Page): Promise<Marker[]> {
  const uri = await page.getByTestId("yaml-editor").getAttribute("data-model-uri");
  return page.evaluate((u) => {
    const monaco = window.__clusterCoreMonaco!;
    return monaco.editor.getModelMarkers({ resource: monaco.Uri.parse(u!) }).map((m) => ({ owner: m.owner, message: m.message, startLineNumber: m.startLineNumber }));
  }, uri);
}

const lineOf = (text: string, needle: string) => text.split("\n").findIndex((l) => l.includes(needle)) + 1;

test("200 keys typed at 20 ms a key land exactly where typed, cursor after them, while kubectl changes the pod", async ({ page }) => {
  const name = uniqueName("typing");
  await ensureObjects({
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: NAMESPACE, labels: { note: "start" } },
    spec: { containers: [{ name: "app", image: "nginx:1.27" }] },
  });
  await signIn(page, `/namespaces/${NAMESPACE}/pods/${name}?tab=yaml`);
  await editorLoaded(page);
  const before = await editorText(page);
  const line = lineOf(before, "note: start");
  expect(line).toBeGreaterThan(0);
  const column = before.split("\n")[line - 1].length + 1;
  const uri = (await page.getByTestId("yaml-editor").getAttribute("data-model-uri"))!;
  await page.evaluate(
    ([u, l, c]) => {
      const monaco = window.__clusterCoreMonaco!;
      const editor = monaco.editor.getEditors().find((e) => e.getModel()?.uri.toString() === monaco.Uri.parse(u as string).toString())!;
      editor.setPosition({ lineNumber: l as number, column: c as number });
      editor.focus();
    },
    [uri, line, column] as const,
  );

  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  const typed = Array.from({ length: 200 }, (_, i) => alphabet[(i * 7) % alphabet.length]).join("");
  const typing = page.keyboard.type(typed, { delay: 20 });
  // The object changes on the server three times while the keys go in.
  for (const [i, args] of [["label", "changed-1=yes"], ["annotate", "changed-2=yes"], ["label", "changed-3=yes"]].entries()) {
    await page.waitForTimeout(i === 0 ? 600 : 900);
    await kubectl([args[0], "-n", NAMESPACE, "pod", name, args[1]]);
  }
  await typing;

  const lines = before.split("\n");
  lines[line - 1] += typed;
  expect(await editorText(page)).toBe(lines.join("\n"));
  const cursor = await page.evaluate((u) => {
    const monaco = window.__clusterCoreMonaco!;
    return monaco.editor.getEditors().find((e) => e.getModel()?.uri.toString() === monaco.Uri.parse(u).toString())!.getPosition();
  }, uri);
  expect(cursor).toEqual({ lineNumber: line, column: column + typed.length });
  // The user's text stayed; the change on the server is offered, not forced.
  await expect(page.getByTestId("changed-on-server")).toBeVisible();
  expect(JSON.parse(await kubectl(["get", "-n", NAMESPACE, "pod", name, "-o", "json"])).metadata.labels["changed-3"]).toBe("yes");
  expect(await editorText(page)).toBe(lines.join("\n"));
  await shot(page, "yaml-typed-while-changed");
});

test("unknown fields are marked, maps take any key, and saving a misspelled field is refused by the server", async ({ page }) => {
  const { name, obj } = await openConfigMapYaml(page, "unknown");
  obj.metadata.labelz = { team: "a" };
  obj.metadata.labels = { "any.key/at-all": "v" };
  obj.data["any key you like"] = "x";
  const text = stringify(obj);
  await setEditorText(page, text);

  await expect.poll(async () => (await markers(page)).filter((m) => m.owner !== "server").map((m) => [m.startLineNumber, m.message])).toEqual([
    [lineOf(text, "labelz:"), "Property labelz is not allowed."],
  ]);
  await shot(page, "yaml-unknown-field");

  await page.getByTestId("review-save").click();
  await page.getByTestId("confirm-save").click();
  await expect(page.getByTestId("save-error")).toContainText('strict decoding error: unknown field "metadata.labelz"');
  await expect(page.getByTestId("save-error")).toHaveAttribute("data-code", "400");
  const stored = JSON.parse(await kubectl(["get", "-n", NAMESPACE, "configmap", name, "-o", "json"]));
  expect(stored.metadata.labelz).toBeUndefined();
  expect(stored.metadata.labels).toBeUndefined();
  expect(stored.data).toEqual({ greeting: "hello" });
});

test("a 422 cause is marked on the entry it is about, and listed once", async ({ page }) => {
  const { name, obj } = await openConfigMapYaml(page, "cause");
  obj.metadata.labels = { good: "yes", bad: "-x-" };
  const text = stringify(obj);
  await setEditorText(page, text);
  await page.getByTestId("dry-run").click();

  const causes = page.getByTestId("cause-list").locator("li");
  await expect(causes).toHaveCount(1);
  await expect(causes).toContainText('metadata.labels: Invalid value: "-x-"');
  // The summary names the object; the cause itself is said once, in the list.
  await expect(page.getByTestId("error-summary")).toHaveText(`ConfigMap "${name}" is invalid`);
  await expect.poll(async () => (await markers(page)).filter((m) => m.owner === "server").map((m) => m.startLineNumber)).toEqual([lineOf(text, "bad: -x-")]);
  await shot(page, "yaml-422-on-its-key");
});

test("each document of a multi-document create is checked against its own kind", async ({ page }) => {
  await signIn(page, `/create/configmaps?namespace=${NAMESPACE}`);
  await editorLoaded(page);
  const text = [
    stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "doc-a" }, data: { x: "1" }, cmTypo: 1 }),
    stringify({ apiVersion: "v1", kind: "Service", metadata: { name: "doc-b" }, spec: { ports: [{ port: 80, bogus: 1 }], selector: { app: "web" } } }),
  ].join("---\n");
  await setEditorText(page, text);
  const expected = [
    [lineOf(text, "cmTypo"), "Property cmTypo is not allowed."],
    [lineOf(text, "bogus"), "Property bogus is not allowed."],
  ];
  // `spec`, `ports` and `selector` are a Service's: the ConfigMap's schema would refuse them.
  await expect.poll(async () => (await markers(page)).map((m) => [m.startLineNumber, m.message]).sort()).toEqual(expected.sort());
  await shot(page, "create-multi-kind-markers");
});
