// A big list shows rows at once (issue 14, item 9): the page's HTML already holds the list's first rows, read
// on the server as the signed-in user, and the browser's list of the whole collection replaces them, live.
// The list request is held back here so the two phases can be seen apart.
import { expect, type Page } from "@playwright/test";
import { collectErrors, ensureNamespaces, kubectl, signIn, test, USER_TOKEN } from "./support";

const NS = "e2e-first-rows";
const COUNT = 150;
const name = (i: number) => `row-${String(i).padStart(3, "0")}`;

test.beforeAll(async () => {
  await ensureNamespaces(NS);
  const items = Array.from({ length: COUNT }, (_, i) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: name(i), namespace: NS }, data: { index: String(i) } }));
  await kubectl(["apply", "-f", "-"], JSON.stringify({ apiVersion: "v1", kind: "List", items }));
  await kubectl(["create", "secret", "generic", "first-rows-secret", "-n", NS, "--from-literal=password=first-rows-s3cret-value"]).catch((e: Error) => {
    if (!/already exists/.test(e.message)) throw e;
  });
  // Applied by kubectl: its last-applied annotation holds the manifest, plain stringData included.
  await kubectl(["apply", "-f", "-"], JSON.stringify({ apiVersion: "v1", kind: "Secret", metadata: { name: "first-rows-applied", namespace: NS }, stringData: { token: "first-rows-applied-value" } }));
});

/** Holds the browser's list request for `plural` in NS (not its watch) until the returned function is called. */
async function holdList(page: Page, plural: string): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  await page.route(
    (url) => url.pathname === `/api/v1/namespaces/${NS}/${plural}` && !url.searchParams.has("watch"),
    async (route) => {
      await released;
      await route.continue();
    },
  );
  return release;
}

test("a big list shows its first rows before the browser has listed anything, then the whole list, live", async ({ page }) => {
  await signIn(page, "/");
  const errors = collectErrors(page);
  const release = await holdList(page, "configmaps");
  await page.goto(`/namespaces/${NS}/configmaps`);

  // kube-root-ca.crt is listed too.
  await expect(page.getByTestId("row-count")).toHaveText(`first 60 of ${COUNT + 1}`);
  await expect(page.locator(`[data-testid=resource-row][data-key="${NS}/${name(0)}"]`)).toBeVisible();
  await expect(page.getByTestId("live-indicator")).not.toHaveAttribute("data-status", "live");

  release();
  await expect(page.getByTestId("row-count")).toHaveText(`${COUNT + 1} total`);
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-status", "live");
  await kubectl(["create", "configmap", "row-new", "-n", NS, "--from-literal=a=b"]).catch(() => undefined);
  await expect(page.getByTestId("row-count")).toHaveText(`${COUNT + 2} total`);
  await kubectl(["delete", "configmap", "row-new", "-n", NS]);
  await expect(page.getByTestId("row-count")).toHaveText(`${COUNT + 1} total`);
  // The server's rows and the browser's first render agree (no hydration mismatch), and nothing else failed.
  expect(errors).toEqual([]);
});

test("the first rows are in the page's HTML, a Secret's value is not, and a filtered or sorted list waits for the whole list", async ({ page }) => {
  await signIn(page, "/");
  // Page HTML is large: assert on what it holds, not by printing it.
  const has = async (path: string, text: string) => (await (await page.request.get(path)).text()).includes(text);
  const list = `/namespaces/${NS}/configmaps`;
  expect(await has(list, `data-key="${NS}/${name(0)}"`)).toBe(true);
  // The page carries one page of objects (60, kube-root-ca.crt first), not the namespace's 151.
  expect(await has(list, name(58))).toBe(true);
  expect(await has(list, name(59))).toBe(false);

  const secrets = `/namespaces/${NS}/secrets`;
  expect(await has(secrets, `data-key="${NS}/first-rows-secret"`)).toBe(true);
  expect(await has(secrets, "first-rows-s3cret-value")).toBe(false);
  expect(await has(secrets, Buffer.from("first-rows-s3cret-value").toString("base64"))).toBe(false);
  expect(await has(secrets, `data-key="${NS}/first-rows-applied"`)).toBe(true);
  expect(await has(secrets, "first-rows-applied-value")).toBe(false);
  expect(await has(secrets, Buffer.from("first-rows-applied-value").toString("base64"))).toBe(false);

  // Sorted by age or filtered, the API's first page is not the list's first rows: none are shown early.
  for (const query of ["?sort=Age&desc=1", `?q=${name(149)}`, "?sort=Name&desc=1"]) {
    expect(await has(list + query, 'data-testid="resource-row"'), query).toBe(false);
  }
  const release = await holdList(page, "configmaps");
  await page.goto(`/namespaces/${NS}/configmaps?q=${name(149)}`);
  await expect(page.getByText("Loading configmaps…")).toBeVisible();
  release();
  await expect(page.getByTestId("row-count")).toHaveText(`1 of ${COUNT + 1}`);
});

test("the first rows are read as the signed-in user: a user who may not list them gets none in the HTML", async ({ page }) => {
  await signIn(page, "/", USER_TOKEN);
  const html = await (await page.request.get(`/namespaces/${NS}/configmaps`)).text();
  expect(html.includes('data-testid="resource-row"')).toBe(false);
  expect(html.includes(name(0))).toBe(false);
  await page.goto(`/namespaces/${NS}/configmaps`);
  await expect(page.getByText(/forbidden/i).first()).toBeVisible();
});
