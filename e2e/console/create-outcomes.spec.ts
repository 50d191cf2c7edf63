// What a person sees after Create (issue 22, item 5): the new object's own page, saying it was created (from
// YAML, and from the name-only dialog); and a refused create (422) says its message once and marks the
// offending line in the editor, for a map entry and for a list item's field alike.
import { expect, type Page } from "@playwright/test";
import { stringify } from "yaml";
import { ensureNamespaces, expectAccessible, kubectl, setEditorText, signIn, test, uniqueName } from "./support";

const NS = "e2e-create-outcomes";
test.describe.configure({ timeout: 180_000 });
test.beforeAll(() => ensureNamespaces(NS));

const editorLoaded = (page: Page) => expect(page.getByTestId("yaml-editor").locator(".monaco-editor")).toBeVisible({ timeout: 60_000 });

/** The server's markers in the editor: line and message. */
function serverMarkers(page: Page): Promise<[number, string][]> {
  return page.evaluate(() =>
    window.__clusterCoreMonaco!.editor.getModelMarkers({ owner: "server" }).map((m) => [m.startLineNumber, m.message] as [number, string]),
  );
}

const lineOf = (text: string, needle: string) => text.split("\n").findIndex((l) => l.includes(needle)) + 1;

/** How often `text` is shown on the page (visible text, the editor left out). */
function timesShown(page: Page, text: string): Promise<number> {
  return page.locator("main").evaluate((main, needle) => {
    const shown = (main as HTMLElement).innerText.replace(/\s+/g, " ");
    return shown.split(needle).length - 1;
  }, text);
}

test("Create from YAML opens the new object's page, which says it was created", async ({ page }) => {
  const name = uniqueName("made");
  await signIn(page, `/create/configmaps?namespace=${NS}`);
  await editorLoaded(page);
  await setEditorText(page, stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data: { greeting: "hello" } }));
  await page.getByTestId("create-submit").click();
  await expect(page).toHaveURL(new RegExp(`/namespaces/${NS}/configmaps/${name}$`), { timeout: 30_000 });
  await expect(page.getByTestId("object-title")).toHaveText(`ConfigMap ${name}`);
  await expect(page.getByRole("status").filter({ hasText: `ConfigMap ${name} created` })).toBeVisible();
  await expectAccessible(page, "an object's page just created");
  // Said once: a reload of the page does not say it again.
  await page.reload();
  await expect(page.getByTestId("object-title")).toHaveText(`ConfigMap ${name}`, { timeout: 60_000 });
  await expect(page.getByText(`ConfigMap ${name} created`)).toHaveCount(0);

  // A generated name: the page of the object the server named.
  await page.goto(`/create/configmaps?namespace=${NS}`);
  await editorLoaded(page);
  await setEditorText(page, stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { generateName: "gen-" }, data: { a: "b" } }));
  await page.getByTestId("create-submit").click();
  await expect(page).toHaveURL(new RegExp(`/namespaces/${NS}/configmaps/gen-[a-z0-9]{5}$`), { timeout: 30_000 });
  const generated = page.url().split("/").pop()!;
  expect(await kubectl(["get", "configmap", generated, "-n", NS, "-o", "name"])).toContain(generated);
});

test("the name dialog opens the new Namespace's page", async ({ page }) => {
  const name = uniqueName("new-ns");
  await signIn(page, "/namespaces");
  await page.getByTestId("create-by-name").click();
  await page.getByTestId("create-name").fill(name);
  await page.getByTestId("create-name-submit").click();
  await expect(page).toHaveURL(new RegExp(`/namespaces/${name}$`), { timeout: 30_000 });
  await expect(page.getByTestId("object-title")).toHaveText(`Namespace ${name}`);
  await expect(page.getByRole("status").filter({ hasText: `Namespace ${name} created` })).toBeVisible();
  await kubectl(["delete", "namespace", name, "--wait=false"]);
});

test("a refused create says each cause once and marks its line in the editor", async ({ page }) => {
  await signIn(page, `/create/services?namespace=${NS}`);
  await editorLoaded(page);
  const text = stringify({
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: uniqueName("bad"), labels: { good: "yes", bad: "-x-" } },
    spec: { selector: { app: "web" }, ports: [{ name: "http", port: 80 }, { name: "admin", port: 70000 }] },
  });
  await setEditorText(page, text);
  await page.getByTestId("create-submit").click();
  // kube's three causes (targetPort defaults to the port, so it is refused too), each listed once.
  const causes = page.getByTestId("cause-list").locator("li");
  await expect(causes).toHaveText([/^metadata\.labels: Invalid value: "-x-"/, /^spec\.ports\[1\]\.port: Invalid value: 70000/, /^spec\.ports\[1\]\.targetPort: Invalid value: 70000/]);
  await expect(page.getByTestId("error-summary")).toHaveText(/^Service "bad-[a-z0-9]+" is invalid$/);
  // Each cause is on the page once: kube's message, which repeats them all, is not shown again beside the list.
  expect(await timesShown(page, 'Invalid value: "-x-"')).toBe(1);
  expect(await timesShown(page, "port: Invalid value: 70000")).toBe(1);
  expect(await timesShown(page, "targetPort: Invalid value: 70000")).toBe(1);
  // Marked where they are: the bad label's entry and the second port's `port` (targetPort, not written, on its item).
  await expect.poll(async () => (await serverMarkers(page)).map(([line]) => line)).toEqual(
    expect.arrayContaining([lineOf(text, "bad: -x-"), lineOf(text, "port: 70000")]),
  );
  expect(await serverMarkers(page)).toHaveLength(3);
});
