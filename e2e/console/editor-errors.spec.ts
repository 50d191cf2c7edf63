// No uncaught error in the browser while a person works with an object (issue 14, item 1): the overviews
// (cluster, namespace, object), the YAML tab, an edit, the diff, a save, going back from the diff, a discard
// and a create. Every `pageerror` and console error is collected and must be none: hydration mismatches
// (React #418) and Monaco's "TextModel got disposed" after a diff were both seen here.
import { expect, type Page } from "@playwright/test";
import { parse, stringify } from "yaml";
import { collectErrors, editorText, ensureNamespaces, ensureObjects, setEditorText, signIn, test, uniqueName } from "./support";

const NAMESPACE = "e2e-editor-errors";

test.beforeAll(() => ensureNamespaces(NAMESPACE));
// Monaco weighs megabytes: on a loaded machine its first load takes longer than the default waits.
test.slow();
const editorLoaded = (page: Page) => expect(page.getByTestId("yaml-editor").locator(".monaco-editor")).toBeVisible({ timeout: 60_000 });

// React #418 on the cluster overview (2 of 3 loads on a loaded machine): React hydrates the shell's Suspense
// boundaries (namespace switcher, sidebar) in a later pass than the page, whose effects have by then fetched
// its cluster-wide lists into the shared React Query cache. The switcher hydrated with the namespaces those
// lists name as options, which the server's HTML did not have. A throttled CPU (a loaded machine) makes the
// lists arrive before the shell hydrates on nearly every load; the data hooks now render as the server did
// until hydrated (lib/client/use-hydrated.ts).
test("the cluster overview hydrates without error, even when its lists arrive before the shell hydrates", async ({ page }) => {
  test.setTimeout(240_000);
  const errors = collectErrors(page);
  // An object in a namespace of its own, so the overview's cluster-wide lists name a namespace.
  await ensureObjects({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "overview-hydration", namespace: NAMESPACE }, data: { a: "b" } });
  await signIn(page, "/");
  await expect(page.getByTestId("count-configmaps")).toHaveText(/\d$/, { timeout: 60_000 });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  try {
    for (let i = 0; i < 3; i++) {
      await page.reload();
      await expect(page.getByTestId("count-configmaps")).toHaveText(/\d$/, { timeout: 60_000 });
      // After hydration the switcher does offer what the cached lists know.
      await expect(page.getByTestId("namespace-switcher").locator(`option[value="${NAMESPACE}"]`)).toHaveCount(1);
    }
  } finally {
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  }
  expect(errors).toEqual([]);
});

test("namespace view, object overview, YAML, edit, diff, save, back, discard and create raise no error in the browser", async ({ page }) => {
  const errors = collectErrors(page);
  const name = uniqueName("quiet");
  await ensureObjects({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: NAMESPACE }, data: { greeting: "hello" } });

  // Each page is given time to hydrate and connect its watches (a mismatch is reported on hydration).
  await signIn(page, `/namespaces/${NAMESPACE}`);
  await expect(page.getByRole("main")).toBeVisible();
  await page.waitForTimeout(2_000);
  await page.goto(`/namespaces/${NAMESPACE}/configmaps/${name}`);
  await expect(page.getByText("greeting").first()).toBeVisible({ timeout: 60_000 });
  await page.waitForTimeout(2_000);

  await page.getByTestId("tab-yaml").click();
  await editorLoaded(page);
  const obj = parse(await editorText(page));
  obj.data.color = "blue";
  await setEditorText(page, stringify(obj));
  await page.getByTestId("review-save").click();
  await expect(page.getByTestId("yaml-diff").locator(".monaco-diff-editor")).toBeVisible();
  await page.getByRole("button", { name: "Back to editing" }).click();
  await expect(page.getByTestId("yaml-diff")).toHaveCount(0);
  await page.getByTestId("review-save").click();
  await expect(page.getByTestId("yaml-diff").locator(".monaco-diff-editor")).toBeVisible();
  await page.getByTestId("confirm-save").click();
  await expect(page.getByTestId("save-notice")).toContainText("Saved");
  expect(parse(await editorText(page)).data.color).toBe("blue");

  obj.data.color = "red";
  await setEditorText(page, stringify(obj));
  await page.getByRole("button", { name: "Discard edits" }).click();
  await expect.poll(async () => parse(await editorText(page)).data.color).toBe("blue");

  await page.getByTestId("tab-overview").click();
  await expect(page.getByTestId("yaml-editor")).toHaveCount(0);
  await page.goto(`/create/configmaps?namespace=${NAMESPACE}`);
  await editorLoaded(page);
  await page.goto(`/namespaces/${NAMESPACE}/configmaps`);
  await expect(page.getByRole("main")).toBeVisible();
  // Errors thrown late (a disposed model touched by a pending diff computation) still count.
  await page.waitForTimeout(1_000);
  expect(errors).toEqual([]);
});
