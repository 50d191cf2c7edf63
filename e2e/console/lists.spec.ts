// Lists that explain themselves and stay safe at scale (issue 14, items 4 and 6): statuses coloured by what
// they say (CrashLoopBackOff is not Running), a cut-off cell's full text by mouse and keyboard, the filter
// matching any column, Warning events set apart, each event linking its object, events newest first; the
// header checkbox selects the rows on screen and "all N matching" is a second action; more than 20 objects,
// or a namespace, must be typed before Delete is enabled.
import { expect, type Locator, type Page } from "@playwright/test";
import { ensureNamespaces, ensureObjects, kubectl, shot, signIn, test, uniqueName } from "./support";

const NS = "e2e-lists";

const pod = (name: string) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name, namespace: NS },
  spec: { containers: [{ name: "app", image: "nginx:1.27" }], nodeName: `node-${name}` },
});

async function setPodStatus(name: string, waiting?: string) {
  const state = waiting ? { waiting: { reason: waiting, message: "back-off restarting failed container" } } : { running: { startedAt: "2026-01-01T00:00:00Z" } };
  const status = {
    phase: "Running",
    conditions: [{ type: "Ready", status: waiting ? "False" : "True" }],
    containerStatuses: [{ name: "app", image: "nginx:1.27", imageID: "", ready: !waiting, restartCount: waiting ? 7 : 0, started: !waiting, state }],
  };
  await kubectl(["patch", "-n", NS, "pod", name, "--subresource=status", "--type=merge", "-p", JSON.stringify({ status })]);
}

const rowOf = (page: Page, key: string) => page.locator(`[data-testid=resource-row][data-key="${key}"]`);
const background = (l: Locator) => l.evaluate((el) => getComputedStyle(el).backgroundColor);

test.beforeAll(() => ensureNamespaces(NS));

test("pod statuses are coloured by what they say, and a cut-off status shows its full text by mouse and keyboard", async ({ page }) => {
  const [running, crashing, misconfigured] = [uniqueName("run"), uniqueName("crash"), uniqueName("cfg")];
  await ensureObjects(pod(running), pod(crashing), pod(misconfigured));
  await setPodStatus(running);
  await setPodStatus(crashing, "CrashLoopBackOff");
  await setPodStatus(misconfigured, "CreateContainerConfigError");
  await page.setViewportSize({ width: 1100, height: 800 });
  await signIn(page, `/namespaces/${NS}/pods`);

  const status = (name: string) => rowOf(page, `${NS}/${name}`).locator("[data-column=Status] [data-testid=status-badge]");
  await expect(status(running)).toHaveText("Running");
  await expect(status(running)).toHaveAttribute("data-tone", "ok");
  // The pod's phase is Running, but its container crash-loops: the list says so, in the error colour.
  await expect(status(crashing)).toHaveText("CrashLoopBackOff");
  await expect(status(crashing)).toHaveAttribute("data-tone", "error");
  expect(await background(status(crashing))).not.toBe(await background(status(running)));
  await shot(page, "list-pod-statuses");

  // Too long for its column: cut with an ellipsis, the full text as title, a tab stop after the name link,
  // and a tooltip when focused.
  const cut = status(misconfigured);
  await expect(cut).toHaveAttribute("data-truncated", "");
  await expect(cut).toHaveAttribute("title", "CreateContainerConfigError");
  await rowOf(page, `${NS}/${misconfigured}`).getByRole("link", { name: misconfigured }).focus();
  await page.keyboard.press("Tab");
  await expect(cut).toBeFocused();
  await expect(page.getByRole("tooltip")).toHaveText("CreateContainerConfigError");
  await expect(cut).toHaveAttribute("aria-describedby", (await page.getByRole("tooltip").getAttribute("id"))!);
  await page.keyboard.press("Tab");
  await expect(page.getByRole("tooltip")).toHaveCount(0);
});

test("the filter matches any column the list shows, not only the name, and stays in the URL", async ({ page }) => {
  const [running, crashing] = [uniqueName("filt-run"), uniqueName("filt-crash")];
  await ensureObjects(pod(running), pod(crashing));
  await setPodStatus(running);
  await setPodStatus(crashing, "CrashLoopBackOff");
  await signIn(page, `/namespaces/${NS}/pods`);
  await expect(rowOf(page, `${NS}/${crashing}`)).toBeVisible();

  const filter = page.getByLabel("Filter by name or any column");
  await filter.fill("crashloop");
  await expect(rowOf(page, `${NS}/${crashing}`)).toBeVisible();
  await expect(rowOf(page, `${NS}/${running}`)).toHaveCount(0);
  await expect(page).toHaveURL(/q=crashloop/);
  await page.reload();
  await expect(page.getByLabel("Filter by name or any column")).toHaveValue("crashloop");
  await expect(rowOf(page, `${NS}/${crashing}`)).toBeVisible();
  await expect(rowOf(page, `${NS}/${running}`)).toHaveCount(0);

  // Node is a wide column: hidden columns are not searched, shown ones are.
  await page.getByLabel("Filter by name or any column").fill(`node-${running}`);
  await expect(page.getByTestId("resource-row")).toHaveCount(0);
  await expect(page).toHaveURL(/q=node-/);
  await page.getByRole("button", { name: "Wide" }).click();
  await expect(rowOf(page, `${NS}/${running}`)).toBeVisible();
  await expect(page.getByTestId("resource-row")).toHaveCount(1);
});

test("events: newest first, Warning set apart, each links the object it is about", async ({ page }) => {
  const ns = uniqueName("e2e-events");
  await ensureNamespaces(ns);
  const target = uniqueName("ev-pod");
  await ensureObjects({ ...pod(target), metadata: { name: target, namespace: ns } });
  const event = (name: string, type: string, reason: string, last: string, extra: Record<string, unknown> = {}) => ({
    apiVersion: "v1",
    kind: "Event",
    metadata: { name, namespace: ns },
    involvedObject: { apiVersion: "v1", kind: "Pod", name: target, namespace: ns },
    type,
    reason,
    message: `${reason} happened`,
    firstTimestamp: "2026-01-01T00:00:00Z",
    lastTimestamp: last,
    count: 1,
    source: { component: "e2e" },
    ...extra,
  });
  const now = Date.now();
  const ago = (minutes: number) => new Date(now - minutes * 60_000).toISOString().replace(/\.\d{3}Z$/, "Z");
  await ensureObjects(
    event("ev-old", "Normal", "Scheduled", ago(50)),
    event("ev-warning", "Warning", "BackOff", ago(5)),
    event("ev-middle", "Normal", "Pulled", ago(20)),
    // The events.k8s.io shape: no lastTimestamp, a series observed most recently.
    event("ev-series", "Normal", "Started", ago(40), {
      lastTimestamp: null,
      firstTimestamp: null,
      eventTime: `${ago(60).slice(0, -1)}.000000Z`,
      series: { count: 3, lastObservedTime: `${ago(1).slice(0, -1)}.000000Z` },
      reportingComponent: "e2e",
      reportingInstance: "e2e-1",
      action: "Start",
    }),
  );
  await signIn(page, `/namespaces/${ns}/events`);
  const rows = page.getByTestId("resource-row");
  await expect(rows).toHaveCount(4);
  await expect(page.getByRole("columnheader", { name: /Last Seen/ })).toHaveAttribute("aria-sort", "ascending");
  expect(await rows.evaluateAll((els) => els.map((el) => el.getAttribute("data-key")))).toEqual([`${ns}/ev-series`, `${ns}/ev-warning`, `${ns}/ev-middle`, `${ns}/ev-old`]);

  const warning = rowOf(page, `${ns}/ev-warning`);
  await expect(warning).toHaveAttribute("data-tone", "warning");
  await expect(rowOf(page, `${ns}/ev-middle`)).not.toHaveAttribute("data-tone", "warning");
  expect(await background(warning)).not.toBe(await background(rowOf(page, `${ns}/ev-middle`)));
  await expect(warning.locator("[data-column=Type] [data-testid=status-badge]")).toHaveAttribute("data-tone", "warning");
  await shot(page, "list-events");

  // Clicking the header flips the order: oldest first.
  await page.getByRole("columnheader", { name: /Last Seen/ }).getByRole("button").click();
  await expect(page.getByRole("columnheader", { name: /Last Seen/ })).toHaveAttribute("aria-sort", "descending");
  await expect(rows.first()).toHaveAttribute("data-key", `${ns}/ev-old`);

  await warning.getByRole("link", { name: `pod/${target}` }).click();
  await expect(page).toHaveURL(new RegExp(`/namespaces/${ns}/pods/${target}$`));
  await expect(page.getByTestId("object-title")).toHaveText(`Pod ${target}`);
});

test("select all takes the rows shown; all N matching is a second action; over 20 must be typed to delete", async ({ page }) => {
  const ns = uniqueName("e2e-bulk");
  await ensureNamespaces(ns);
  const names = Array.from({ length: 40 }, (_, i) => `bulk-${String(i).padStart(2, "0")}`);
  await kubectl(["create", "--validate=false", "-f", "-"], JSON.stringify({ apiVersion: "v1", kind: "List", items: names.map((name) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: ns } })) }));
  await page.setViewportSize({ width: 1440, height: 700 });
  await signIn(page, `/namespaces/${ns}/configmaps`);
  // 41: the namespace's own kube-root-ca.crt is there too, and matches no filter below.
  await expect(page.getByTestId("row-count")).toHaveText("41 total");
  const selectShown = page.getByLabel("Select all rows shown");
  const deleteButton = page.getByTestId("delete-selected");

  // Filtered to ten rows, all on screen: those ten, nothing more to offer.
  await page.getByLabel("Filter by name or any column").fill("bulk-1");
  await expect(page.getByTestId("row-count")).toHaveText("10 of 41");
  await selectShown.check();
  await expect(deleteButton).toHaveText("Delete (10)");
  await expect(page.getByRole("button", { name: /Select all \d+ matching/ })).toHaveCount(0);
  await selectShown.uncheck();
  await expect(deleteButton).toHaveText("Delete");
  await page.getByLabel("Filter by name or any column").fill("bulk-");
  await expect(page.getByTestId("row-count")).toHaveText("40 of 41");

  // More rows match than fit on screen: the rows on screen only, then all 40 on request.
  // On screen: at least half of the row visible below the sticky header.
  const onScreen = await page.getByTestId("resource-table").evaluate((table) => {
    const box = table.getBoundingClientRect();
    const top = box.top + 34;
    return [...table.querySelectorAll("[data-testid=resource-row]")].filter((row) => {
      const r = row.getBoundingClientRect();
      return Math.min(r.bottom, box.bottom) - Math.max(r.top, top) >= r.height / 2;
    }).length;
  });
  await selectShown.check();
  expect(onScreen).toBeLessThan(40);
  await expect(deleteButton).toHaveText(`Delete (${onScreen})`);
  await expect(page.getByRole("status").filter({ hasText: `The ${onScreen} rows shown are selected.` })).toBeVisible();
  await shot(page, "list-select-shown");
  await page.getByRole("button", { name: "Select all 40 matching" }).click();
  await expect(deleteButton).toHaveText("Delete (40)");
  await expect(page.getByText("All 40 matching rows are selected.")).toBeVisible();

  await deleteButton.click();
  const confirm = page.getByTestId("confirm-delete");
  const typed = page.getByLabel(/Type 40 \(the number of objects\) or .* \(their namespace\) to confirm/);
  await expect(confirm).toBeDisabled();
  await typed.fill("39");
  await expect(confirm).toBeDisabled();
  await typed.fill(ns);
  await expect(confirm).toBeEnabled();
  await typed.fill("40");
  await expect(confirm).toBeEnabled();
  await shot(page, "delete-typed-confirmation");
  await confirm.click();
  await expect(page.getByTestId("resource-row")).toHaveCount(0);
  // Only what matched went: the ConfigMap the filter hid is still there.
  expect((await kubectl(["get", "configmaps", "-n", ns, "-o", "name"])).trim()).toBe("configmap/kube-root-ca.crt");
});

test("deleting 20 objects or fewer needs no typing", async ({ page }) => {
  const ns = uniqueName("e2e-few");
  await ensureNamespaces(ns);
  const names = Array.from({ length: 3 }, (_, i) => `few-${i}`);
  for (const name of names) await ensureObjects({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: ns } });
  await signIn(page, `/namespaces/${ns}/configmaps`);
  await page.getByLabel("Select all rows shown").check();
  await page.getByTestId("delete-selected").click();
  await expect(page.getByTestId("delete-confirm-text")).toHaveCount(0);
  await expect(page.getByTestId("confirm-delete")).toBeEnabled();
});

test("a namespace is deleted from its page only once its name is typed", async ({ page }) => {
  const name = uniqueName("doomed");
  await ensureNamespaces(name);
  await signIn(page, `/namespaces/${name}`);
  await page.getByTestId("delete-object").click();
  const confirm = page.getByTestId("confirm-delete");
  const typed = page.getByLabel(`Type the namespace's name, ${name}, to confirm.`);
  await expect(confirm).toBeDisabled();
  await typed.fill(name.toUpperCase());
  await expect(confirm).toBeDisabled();
  await typed.fill(name);
  await expect(confirm).toBeEnabled();
  await confirm.click();
  // Gone, or Terminating while its content goes.
  await expect
    .poll(() => kubectl(["get", "namespace", name, "-o", "jsonpath={.status.phase}"]).catch((e: Error) => (/NotFound|not found/.test(e.message) ? "gone" : e.message)), { timeout: 30_000 })
    .toMatch(/^(gone|Terminating)$/);
});
