// The console shows what is wrong first (issue 22 item 3): the newest-changes feed leaves out heartbeats (a
// Lease renewed, nothing else changed); pods are counted by kubectl's STATUS, problems first, on the overview
// and a namespace's page, each count a link to the pods in that state; the overview's Events show the whole
// reason and object at desktop and phone widths; an object's Warning Events and troubled conditions sit at the
// top of its page; a Pending claim says why (from the binder's Events), on its page and in its list row.
// There is no kubelet: the spec writes pod status through the status subresource as a kubelet would.
import { expect as baseExpect, type Locator, type Page } from "@playwright/test";
import { ensureNamespaces, expectAccessible, kubectl, shot, signIn, test, uniqueName } from "./support";

// The machine running these specs is shared: a page's first list can take longer than the default 15 s.
const expect = baseExpect.configure({ timeout: 45_000 });
test.describe.configure({ timeout: 240_000 });

const NS = "e2e-problems";
const prefix = uniqueName("pf");
const names = {
  crashA: `${prefix}-crash-a`,
  crashB: `${prefix}-crash-b`,
  oom: `${prefix}-oom`,
  pending: `${prefix}-pending`,
  okA: `${prefix}-ok-a`,
  okB: `${prefix}-ok-b`,
  config: `${prefix}-config`,
  lease: `${prefix}-lock`,
  noFit: `${prefix}-no-fit`,
  noClass: `${prefix}-no-class`,
};
/** Longer than the ~6 characters the overview's Events used to keep. */
const LONG_REASON = "FailedCreatePodSandBox";

const create = (obj: object) => kubectl(["create", "--validate=false", "-f", "-"], JSON.stringify(obj));
const setStatus = (name: string, status: object) => kubectl(["patch", "-n", NS, "pod", name, "--subresource=status", "--type=merge", "-p", JSON.stringify({ status })]);
const t0 = new Date(Date.now() - 10 * 60_000).toISOString().replace(/\.\d{3}Z$/, "Z");
const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString().replace(/\.\d{3}Z$/, "Z");

const pod = (name: string) => ({ apiVersion: "v1", kind: "Pod", metadata: { name, namespace: NS }, spec: { nodeName: "node-1", containers: [{ name: "app", image: "registry.example/app:1" }] } });
const container = (state: object, ready: boolean, restartCount = 0) => ({ name: "app", image: "registry.example/app:1", imageID: "", ready, restartCount, state });
const runningReady = { phase: "Running", startTime: t0, conditions: [{ type: "Ready", status: "True", lastTransitionTime: t0 }], containerStatuses: [container({ running: { startedAt: t0 } }, true)] };
const crashLooping = {
  phase: "Running",
  startTime: t0,
  conditions: [
    { type: "PodScheduled", status: "True", lastTransitionTime: t0 },
    { type: "Ready", status: "False", reason: "ContainersNotReady", message: "containers with unready status: [app]", lastTransitionTime: t0 },
  ],
  containerStatuses: [container({ waiting: { reason: "CrashLoopBackOff", message: "back-off 5m0s restarting failed container=app" } }, false, 7)],
};
const oomKilled = { phase: "Running", startTime: t0, containerStatuses: [container({ terminated: { exitCode: 137, reason: "OOMKilled", startedAt: t0, finishedAt: t0 } }, false, 2)] };

const event = (name: string, type: string, reason: string, involved: { kind: string; name: string; apiVersion?: string }, minutes: number) => ({
  apiVersion: "v1",
  kind: "Event",
  metadata: { name, namespace: NS },
  involvedObject: { apiVersion: "v1", namespace: NS, ...involved },
  type,
  reason,
  message: `${reason}: written by the spec`,
  firstTimestamp: ago(30),
  lastTimestamp: ago(minutes),
  count: 1,
  source: { component: "e2e" },
});

test.beforeAll(async () => {
  await ensureNamespaces(NS);
  for (const name of Object.values(names).filter((n) => /-(crash|oom|pending|ok)/.test(n))) await create(pod(name));
  await setStatus(names.crashA, crashLooping);
  await setStatus(names.crashB, crashLooping);
  await setStatus(names.oom, oomKilled);
  await setStatus(names.okA, runningReady);
  await setStatus(names.okB, runningReady);
  await create({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: names.config, namespace: NS }, data: { a: "1" } });
  await create({ apiVersion: "v1", kind: "List", items: [
    event(`${names.crashA}.backoff`, "Warning", "BackOff", { kind: "Pod", name: names.crashA }, 1),
    event(`${names.crashA}.pulled`, "Normal", "Pulled", { kind: "Pod", name: names.crashA }, 2),
    event(`${names.crashB}.sandbox`, "Warning", LONG_REASON, { kind: "Pod", name: names.crashB }, 0),
  ] });
  // Claims the binder cannot bind: no volume fits one (no class), the other names a class that does not exist.
  await create({ apiVersion: "v1", kind: "List", items: [
    { apiVersion: "v1", kind: "PersistentVolumeClaim", metadata: { name: names.noFit, namespace: NS }, spec: { accessModes: ["ReadWriteOnce"], storageClassName: "", resources: { requests: { storage: "7Ti" } } } },
    { apiVersion: "v1", kind: "PersistentVolumeClaim", metadata: { name: names.noClass, namespace: NS }, spec: { accessModes: ["ReadWriteOnce"], storageClassName: "fast-ssd", resources: { requests: { storage: "1Gi" } } } },
  ] });
});

async function live(page: Page): Promise<void> {
  await expect(page.getByTestId("live-indicator").first()).toHaveAttribute("data-status", "live");
}

/** The element shows its whole text: nothing cut by an ellipsis or hidden overflow. */
async function expectWhole(locator: Locator, text: string | RegExp): Promise<void> {
  await expect(locator).toBeVisible();
  await expect(locator).toHaveText(text);
  const clipped = await locator.evaluate((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
  expect(clipped, "the text is cut short").toBe(false);
}

test("the newest changes leave out heartbeats: a Lease renewed is not listed, a Lease that changes holder is", async ({ page }) => {
  await signIn(page, "/");
  await live(page);
  const feed = page.getByTestId("recent-changes");
  const microTime = (d: Date) => d.toISOString().replace(/Z$/, "000Z");
  await create({ apiVersion: "coordination.k8s.io/v1", kind: "Lease", metadata: { name: names.lease, namespace: NS }, spec: { holderIdentity: "one", leaseDurationSeconds: 10, renewTime: microTime(new Date()) } });
  const entries = feed.locator(`[data-testid=change][data-name="${names.lease}"]`);
  await expect(entries).toHaveCount(1);
  // A renewal (only renewTime moves), then a new holder.
  await kubectl(["patch", "lease", names.lease, "-n", NS, "--type=merge", "-p", JSON.stringify({ spec: { renewTime: microTime(new Date(Date.now() + 1000)) } })]);
  await kubectl(["patch", "lease", names.lease, "-n", NS, "--type=merge", "-p", JSON.stringify({ spec: { holderIdentity: "two", renewTime: microTime(new Date(Date.now() + 2000)) } })]);
  await expect(entries.first()).toContainText("MODIFIED");
  // A ConfigMap changed after both: once it is listed, every change before it has been folded too.
  await kubectl(["patch", "configmap", names.config, "-n", NS, "--type=merge", "-p", JSON.stringify({ data: { a: "2" } })]);
  await expect(feed.locator(`[data-testid=change][data-name="${names.config}"]`).first()).toContainText("MODIFIED");
  await expect(entries).toHaveCount(2);
  await expect(entries.nth(1)).toContainText("ADDED");
  // The controllers' Lease renews every few seconds; after 6 s on the page none of its renewals is listed.
  await page.waitForTimeout(6_000);
  await expect(feed.locator('[data-testid=change][data-name="cluster-core-controllers"]')).toHaveCount(0);
  await expect(feed.locator('[data-testid=change][data-name^="apiserver-"]')).toHaveCount(0);
  await shot(page, "problems-feed");
});

test("pods are counted by state, problems first, on the overview and the namespace page; a count opens those pods", async ({ page }) => {
  await signIn(page, `/namespaces/${NS}`);
  const states = page.getByTestId("pod-states");
  await expect(states).toHaveText("Pods 6: 2 CrashLoopBackOff, 1 OOMKilled, 1 Pending, 2 Running");
  // Above the counts per kind: the first thing the page says.
  expect((await states.boundingBox())!.y).toBeLessThan((await page.getByTestId("kind-counts").boundingBox())!.y);
  await expect(states.getByTestId("pod-state").first()).toHaveAttribute("data-tone", "error");
  await expectAccessible(page, "namespace page with pod states");
  await shot(page, "problems-namespace-pod-states");
  await states.getByRole("link", { name: "2 CrashLoopBackOff" }).click();
  await expect(page).toHaveURL(new RegExp(`/namespaces/${NS}/pods\\?q=CrashLoopBackOff$`));
  await expect(page.getByTestId("row-count")).toHaveText("2 of 6");

  await page.goto("/");
  const overall = page.getByTestId("pod-states");
  await expect(overall.getByTestId("pod-state").first()).toHaveAttribute("data-state", "CrashLoopBackOff");
  await expect(overall.getByTestId("pod-state").last()).toHaveAttribute("data-state", "Running");
  await expect(overall).toContainText("1 OOMKilled");
});

test("the overview's Events show the whole reason and object, at desktop and phone widths", async ({ page }) => {
  await signIn(page, "/");
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    const row = page.getByTestId("namespace-events").locator(`[data-testid=event][data-name="${names.crashB}.sandbox"]`);
    await expectWhole(row.getByTestId("event-reason"), LONG_REASON);
    await expectWhole(row.getByTestId("event-object"), `pod/${names.crashB}`);
    await expect(row).toContainText(`${LONG_REASON}: written by the spec`);
    await shot(page, `problems-overview-events-${width}`);
  }
  await expectAccessible(page, "overview events, phone");
  await page.setViewportSize({ width: 1440, height: 900 });
  await expectAccessible(page, "overview events");
});

test("an object's Warning events and troubled conditions sit at the top of its page, all events still below", async ({ page }) => {
  await signIn(page, `/namespaces/${NS}/pods/${names.crashA}`);
  const problems = page.getByTestId("object-problems");
  await expect(problems.getByTestId("problem-event")).toHaveCount(1);
  await expect(problems.getByTestId("problem-event")).toContainText("BackOff");
  await expect(problems).not.toContainText("Pulled");
  await expect(problems.locator('[data-testid=problem-condition][data-type="Ready"]')).toContainText("ContainersNotReady");
  await expect(problems.locator('[data-testid=problem-condition][data-type="PodScheduled"]')).toHaveCount(0);
  // Above the pod's own sections, the metadata and the spec.
  const top = async (l: Locator) => (await l.boundingBox())!.y;
  const problemsTop = await top(problems);
  expect(problemsTop).toBeLessThan(await top(page.getByTestId("metadata").first()));
  expect(problemsTop).toBeLessThan(await top(page.getByTestId("content")));
  expect(problemsTop).toBeLessThan(await top(page.getByTestId("pod-summary")));
  await expect(page.getByTestId("object-events")).toContainText("Pulled");
  await expect(page.getByTestId("object-events")).toContainText("BackOff");
  await expectAccessible(page, "pod page with problems");
  await shot(page, "problems-pod-page");

  // A healthy object has no such section.
  await page.goto(`/namespaces/${NS}/pods/${names.okA}`);
  await expect(page.getByTestId("metadata").first()).toBeVisible();
  await expect(page.getByTestId("object-problems")).toHaveCount(0);
});

test("a Pending claim says why, on its page and in its list row", async ({ page }) => {
  await signIn(page, `/namespaces/${NS}/persistentvolumeclaims/${names.noFit}`);
  await expect(page.getByTestId("claim-pending-reason")).toContainText("No volume matches this claim");
  await expect(page.getByTestId("claim-pending-reason")).toContainText("no persistent volumes available for this claim and no storage class is set");
  // Near the top: above the metadata and the spec.
  const reasonTop = (await page.getByTestId("claim-pending-reason").boundingBox())!.y;
  expect(reasonTop).toBeLessThan((await page.getByTestId("metadata").first().boundingBox())!.y);
  expect(reasonTop).toBeLessThan((await page.getByTestId("content").boundingBox())!.y);
  await expectAccessible(page, "pending claim, no volume");
  await shot(page, "problems-claim-no-volume");

  await page.goto(`/namespaces/${NS}/persistentvolumeclaims/${names.noClass}`);
  await expect(page.getByTestId("claim-pending-reason")).toContainText('Storage class "fast-ssd" not found');
  // The binder's Warning is also among the page's problems at the top.
  await expect(page.getByTestId("object-problems")).toContainText("ProvisioningFailed");

  await page.goto(`/namespaces/${NS}/persistentvolumeclaims`);
  await live(page);
  const reason = (name: string) => page.locator(`[data-testid=resource-row][data-key="${NS}/${name}"] [data-column=Reason]`);
  await expectWhole(reason(names.noFit), "No volume matches this claim");
  await expectWhole(reason(names.noClass), 'Storage class "fast-ssd" not found');
  await expect(reason(names.noFit)).toHaveAttribute("title", /no persistent volumes available for this claim/);
  await expectAccessible(page, "claims list with reasons");
  await shot(page, "problems-claims-list");
});
