// axe on every view of the console, each in the light and the dark theme, failing on any WCAG 2.1 A/AA
// violation (support.ts `expectAccessible`): sign-in, overview, a list, an object page and its YAML, the
// palette, the phone menu, a namespace's live view, the create page, the delete dialogs (plain, typed count,
// typed namespace name), Events with a Warning, PV, PVC, SCC and quota pages, the History tab; keyboard
// shortcuts; screenshots of each view as artifacts. No test may raise an uncaught error in the page.
import { expect, type Page } from "@playwright/test";
import { ensureNamespaces, ensureObjects, expectAccessible, kubectl, setTheme, shot, signIn, test, uniqueName } from "./support";

const NAMESPACE = "e2e-a11y";
/** Over 20 ConfigMaps, so deleting them all asks for the count (or the namespace) to be typed. */
const BULK_NAMESPACE = "e2e-a11y-bulk";
const BULK = 21;
/** A quota with one resource at its limit, one nearly full and one far from it (fixed names: beforeAll may run again). */
const QUOTA_NAMESPACE = "e2e-a11y-quota";

// Each view is analysed twice (light, dark): slow on a busy machine.
test.describe.configure({ timeout: 180_000 });

const secret = uniqueName("a11y");
const names = {
  secret,
  pod: `${secret}-pod`,
  history: `${secret}-history`,
  volume: `${secret}-pv`,
  claim: `${secret}-data`,
  scc: `${secret}-scc`,
  owner: `${secret}-owner`,
  gone: `${secret}-gone`,
};

/** Enough lines that a diff, a YAML or a list of them scrolls in its box. */
const LONG = 40;
const manyKeys = (prefix: string) => Object.fromEntries(Array.from({ length: LONG }, (_, i) => [`${prefix}${String(i).padStart(2, "0")}`, `value ${i}`]));

/** A screenshot of the view in each theme, as artifacts (`<name>-light.png`, `<name>-dark.png`). */
async function shots(page: Page, name: string): Promise<void> {
  for (const theme of ["light", "dark"] as const) {
    await setTheme(page, theme);
    await shot(page, `${name}-${theme}`);
  }
  await setTheme(page, "light");
}

test.beforeAll(async () => {
  await ensureNamespaces(NAMESPACE, BULK_NAMESPACE, QUOTA_NAMESPACE);
  await ensureObjects(
    { apiVersion: "v1", kind: "Secret", metadata: { name: names.secret, namespace: NAMESPACE, labels: { app: "web" } }, type: "Opaque", data: { password: Buffer.from("s3cret").toString("base64") } },
    {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: names.pod, namespace: NAMESPACE, labels: { app: "web" } },
      spec: { containers: [{ name: "app", image: "nginx", env: [{ name: "P", valueFrom: { secretKeyRef: { name: names.secret, key: "password" } } }] }] },
    },
    // Events about the pod, a Warning among them (set apart in colour).
    ...[
      ["Warning", "BackOff", 2],
      ["Normal", "Scheduled", 10],
    ].map(([type, reason, minutes]) => ({
      apiVersion: "v1",
      kind: "Event",
      metadata: { name: `${names.pod}.${String(reason).toLowerCase()}`, namespace: NAMESPACE },
      involvedObject: { apiVersion: "v1", kind: "Pod", name: names.pod, namespace: NAMESPACE },
      type,
      reason,
      message: `${reason} happened`,
      firstTimestamp: new Date(Date.now() - 60 * 60_000).toISOString().replace(/\.\d{3}Z$/, "Z"),
      lastTimestamp: new Date(Date.now() - Number(minutes) * 60_000).toISOString().replace(/\.\d{3}Z$/, "Z"),
      count: 1,
      source: { component: "e2e" },
    })),
    // A claim the binder binds to a volume: both pages show the binding.
    {
      apiVersion: "v1",
      kind: "PersistentVolume",
      metadata: { name: names.volume },
      spec: { capacity: { storage: "1Gi" }, accessModes: ["ReadWriteOnce"], storageClassName: "a11y", persistentVolumeReclaimPolicy: "Retain", hostPath: { path: "/tmp/a11y" } },
    },
    { apiVersion: "v1", kind: "PersistentVolumeClaim", metadata: { name: names.claim, namespace: NAMESPACE }, spec: { storageClassName: "a11y", accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } } },
    {
      apiVersion: "security.openshift.io/v1",
      kind: "SecurityContextConstraints",
      metadata: { name: names.scc },
      priority: 5,
      allowHostNetwork: true,
      allowedCapabilities: ["NET_BIND_SERVICE"],
      requiredDropCapabilities: ["KILL"],
      runAsUser: { type: "MustRunAsRange", uidRangeMin: 1000, uidRangeMax: 2000 },
      seLinuxContext: { type: "MustRunAs" },
      fsGroup: { type: "MustRunAs", ranges: [{ min: 5000, max: 5999 }] },
      supplementalGroups: { type: "RunAsAny" },
      volumes: ["configMap", "secret"],
      users: [`system:serviceaccount:${NAMESPACE}:default`],
    },
    { apiVersion: "v1", kind: "ConfigMap", metadata: { name: names.history, namespace: NAMESPACE }, data: { v: "one" } },
    { apiVersion: "v1", kind: "ConfigMap", metadata: { name: names.owner, namespace: NAMESPACE } },
    { apiVersion: "v1", kind: "ConfigMap", metadata: { name: names.gone, namespace: NAMESPACE }, data: manyKeys("k") },
    { apiVersion: "v1", kind: "List", items: Array.from({ length: BULK }, (_, i) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: `bulk-${String(i).padStart(2, "0")}`, namespace: BULK_NAMESPACE } })) },
  );
  // The pod before its quota: one pod of one allowed, 900m of 1 CPU requested, one ConfigMap of ten. Applied,
  // not created: once the quota is there, creating the pod again is refused before it is found to exist.
  await kubectl(
    ["apply", "--server-side", "--validate=false", "-f", "-"],
    JSON.stringify({
      apiVersion: "v1",
      kind: "List",
      items: [
        { apiVersion: "v1", kind: "Pod", metadata: { name: "quota-pod", namespace: QUOTA_NAMESPACE }, spec: { containers: [{ name: "app", image: "nginx", resources: { requests: { cpu: "900m" } } }] } },
        { apiVersion: "v1", kind: "ResourceQuota", metadata: { name: "limits", namespace: QUOTA_NAMESPACE }, spec: { hard: { pods: "1", "requests.cpu": "1", configmaps: "10" } } },
      ],
    }),
  );
  // Two revisions more for the History tab, the newest a long diff.
  for (const data of [{ v: "two" }, { v: "three", ...manyKeys("k") }]) {
    await kubectl(["patch", "configmap", names.history, "-n", NAMESPACE, "--type=merge", "-p", JSON.stringify({ data })]);
  }
  // A deleted object with a long YAML to re-create.
  await kubectl(["delete", "configmap", names.gone, "-n", NAMESPACE, "--ignore-not-found"]);
  // An owner with more dependents than the delete dialog's plan shows at once.
  const uid = (await kubectl(["get", "configmap", names.owner, "-n", NAMESPACE, "-o", "jsonpath={.metadata.uid}"])).trim();
  await ensureObjects({
    apiVersion: "v1",
    kind: "List",
    items: Array.from({ length: LONG / 2 }, (_, i) => ({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: `${names.owner}-dep-${String(i).padStart(2, "0")}`, namespace: NAMESPACE, ownerReferences: [{ apiVersion: "v1", kind: "ConfigMap", name: names.owner, uid }] },
    })),
  });
});

test("the sign-in page, in the theme the OS asks for before first paint", async ({ page }) => {
  for (const theme of ["dark", "light"] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await page.goto("/signin");
    // The no-flash script follows the OS when nothing is stored.
    await expect(page.locator("html")).toHaveClass(theme === "dark" ? /\bdark\b/ : /^(?!.*\bdark\b)/);
  }
  await expectAccessible(page, "sign-in");
  await shots(page, "signin");
});

test("overview, a list, an object page and its YAML", async ({ page }) => {
  await signIn(page, "/");
  await expect(page.getByTestId("kind-counts")).toBeVisible();
  await expectAccessible(page, "overview");
  await shots(page, "overview");

  await page.goto(`/namespaces/${NAMESPACE}/secrets`);
  await expect(page.getByTestId("resource-row").first()).toBeVisible();
  await expectAccessible(page, "list");
  await shots(page, "list-secrets");

  await page.goto(`/namespaces/${NAMESPACE}/secrets/${names.secret}`);
  await expect(page.getByTestId("secret-value-password")).not.toContainText("s3cret");
  await page.getByRole("button", { name: "Reveal password" }).click();
  await expect(page.getByTestId("secret-value-password")).toHaveText("s3cret");
  await expect(page.getByTestId("related-pods")).toContainText(names.pod);
  await expectAccessible(page, "object");
  await shots(page, "object-secret");

  // A Secret's YAML: values hidden until revealed to edit.
  await page.goto(`/namespaces/${NAMESPACE}/secrets/${names.secret}?tab=yaml`);
  await expect(page.getByTestId("secret-yaml")).toBeVisible();
  await expectAccessible(page, "secret yaml, values hidden");
  await page.getByTestId("reveal-secret-yaml").click();
  await expect(page.getByTestId("yaml-editor").locator(".monaco-editor")).toBeVisible();
  await expectAccessible(page, "yaml");
  await shots(page, "yaml-editor");

  // A pod's managed fields, more than their box shows.
  await page.goto(`/namespaces/${NAMESPACE}/pods/${names.pod}?tab=yaml`);
  await expect(page.getByTestId("yaml-editor").locator(".monaco-editor")).toBeVisible();
  await page.getByTestId("managed-fields-toggle").click();
  await expect(page.getByTestId("managed-fields-manager").first()).toBeVisible();
  await expectAccessible(page, "yaml with managed fields");
  await shots(page, "yaml-managed-fields");
});

test("the palette open, and the phone menu", async ({ page }) => {
  await signIn(page, `/namespaces/${NAMESPACE}/pods`);
  // Live, so the page is hydrated and hears the shortcut (the first rows come in the server's HTML).
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-status", "live");
  await page.locator("body").press("Control+k");
  await page.getByTestId("palette-input").fill("a11y");
  await expect(page.getByRole("listbox", { name: "Results" }).getByRole("option", { name: new RegExp(names.secret) }).first()).toBeVisible();
  await expectAccessible(page, "palette");
  await shots(page, "palette");
  await page.keyboard.press("Escape");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("button", { name: "Menu" }).click();
  await expect(page.getByRole("navigation", { name: "Kinds" })).toBeVisible();
  await expectAccessible(page, "phone menu");
  await shots(page, "phone-menu");
});

test("a namespace's live view with its changes of the last hour", async ({ page }) => {
  await signIn(page, `/namespaces/${NAMESPACE}`);
  await expect(page.getByTestId("kind-counts")).toBeVisible();
  await expect(page.getByTestId("live-indicator").first()).toHaveAttribute("data-status", "live");
  const changes = page.getByTestId("namespace-changes");
  await expect(changes.getByTestId("namespace-change").filter({ hasText: names.history }).first()).toBeVisible();
  await changes.getByTestId("namespace-change").filter({ hasText: names.history }).first().getByTestId("change-toggle").click();
  await expect(changes.getByTestId("change-diff").first()).toBeVisible();
  await expectAccessible(page, "namespace view");
  await shots(page, "namespace-view");
});

test("the create page", async ({ page }) => {
  await signIn(page, `/create/configmaps?namespace=${NAMESPACE}`);
  await expect(page.getByTestId("yaml-editor").locator(".monaco-editor")).toBeVisible();
  await expectAccessible(page, "create");
  await shots(page, "create");
});

test("the delete dialogs: a few objects, over 20 (type the count), a namespace (type its name)", async ({ page }) => {
  await signIn(page, `/namespaces/${BULK_NAMESPACE}/configmaps`);
  await page.getByLabel("Filter by name or any column").fill("bulk-");
  await expect(page.getByTestId("row-count")).toHaveText(`${BULK} of ${BULK + 1}`);
  await page.getByLabel(`Select ${BULK_NAMESPACE}/bulk-00`).check();
  await page.getByLabel(`Select ${BULK_NAMESPACE}/bulk-01`).check();
  await page.getByTestId("delete-selected").click();
  await expect(page.getByTestId("delete-list")).toContainText("bulk-01");
  await expect(page.getByTestId("dependents-plan")).toHaveAttribute("data-state", "ready");
  await expectAccessible(page, "delete dialog");
  await shots(page, "delete-dialog-few");
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);

  await page.getByLabel("Select all rows shown").check();
  const all = page.getByRole("button", { name: `Select all ${BULK} matching` });
  if (await all.isVisible()) await all.click();
  await expect(page.getByTestId("delete-selected")).toHaveText(`Delete (${BULK})`);
  await page.getByTestId("delete-selected").click();
  const typed = page.getByLabel(new RegExp(`Type ${BULK} \\(the number of objects\\) or ${BULK_NAMESPACE} \\(their namespace\\) to confirm`));
  await expect(page.getByTestId("confirm-delete")).toBeDisabled();
  await expectAccessible(page, "delete dialog, count to type");
  // A wrong answer is marked invalid; still no violation.
  await typed.fill(String(BULK - 1));
  await expect(typed).toHaveAttribute("aria-invalid", "true");
  await expectAccessible(page, "delete dialog, wrong count typed");
  await shots(page, "delete-dialog-typed");
  await page.getByRole("button", { name: "Cancel" }).click();

  // From an owner's page: the dependents that go with it, more than fit.
  await page.goto(`/namespaces/${NAMESPACE}/configmaps/${names.owner}`);
  await page.getByTestId("delete-object").click();
  await expect(page.getByTestId("dependents-plan")).toHaveAttribute("data-state", "ready");
  await expect(page.getByTestId("plan-deleted-item")).toHaveCount(LONG / 2);
  await expectAccessible(page, "delete dialog with dependents");
  await shots(page, "delete-dialog-dependents");
  await page.getByRole("button", { name: "Cancel" }).click();

  await page.goto(`/namespaces/${BULK_NAMESPACE}`);
  await page.getByTestId("delete-object").click();
  await expect(page.getByLabel(`Type the namespace's name, ${BULK_NAMESPACE}, to confirm.`)).toBeVisible();
  await expect(page.getByTestId("namespace-contents")).toHaveAttribute("data-state", "ready");
  await expectAccessible(page, "namespace delete dialog");
  await shots(page, "delete-dialog-namespace");
});

test("events, a Warning among them", async ({ page }) => {
  await signIn(page, `/namespaces/${NAMESPACE}/events`);
  await expect(page.locator(`[data-testid=resource-row][data-key="${NAMESPACE}/${names.pod}.backoff"]`)).toHaveAttribute("data-tone", "warning");
  await expectAccessible(page, "events");
  await shots(page, "events");
});

test("volume, claim, SCC and quota pages", async ({ page }) => {
  await signIn(page, `/persistentvolumes/${names.volume}`);
  await expect(page.getByTestId("bound-claim")).toContainText(names.claim);
  await expectAccessible(page, "persistent volume");
  await shots(page, "persistent-volume");

  await page.goto(`/namespaces/${NAMESPACE}/persistentvolumeclaims/${names.claim}`);
  await expect(page.getByTestId("bound-volume")).toContainText(names.volume);
  await expectAccessible(page, "persistent volume claim");
  await shots(page, "persistent-volume-claim");

  await page.goto(`/securitycontextconstraints/${names.scc}`);
  await expect(page.locator("[data-testid=scc-strategy][data-strategy=runAsUser]")).toContainText("MustRunAsRange");
  await expectAccessible(page, "SCC");
  await shots(page, "scc");

  await page.goto(`/namespaces/${QUOTA_NAMESPACE}/resourcequotas/limits`);
  const row = (resource: string) => page.locator(`[data-testid=quota-row][data-resource="${resource}"]`);
  await expect(row("pods").getByTestId("quota-level")).toHaveText("at the limit");
  await expect(row("requests.cpu").getByTestId("quota-level")).toHaveText("nearly full");
  await expect(row("configmaps").getByTestId("quota-numbers")).toHaveText("1 / 10");
  await expectAccessible(page, "quota");
  await shots(page, "quota");
});

test("an object's History tab with a long diff, its restore dialog, a deleted object to re-create", async ({ page }) => {
  await signIn(page, `/namespaces/${NAMESPACE}/configmaps/${names.history}?tab=history`);
  await expect(page.getByTestId("history-revision")).toHaveCount(3);
  await expect(page.getByTestId("history-diff-stats")).toHaveText(`1 line removed, ${LONG + 1} added`);
  await expectAccessible(page, "history");
  await shots(page, "history");
  await page.getByTestId("history-revision").nth(1).getByTestId("history-select").click();
  await page.getByTestId("history-revision").nth(1).getByTestId("history-restore").click();
  await expect(page.getByTestId("restore-diff").locator('tr[data-op="added"]')).toHaveText([/v: two/]);
  await expectAccessible(page, "restore dialog");
  await shots(page, "history-restore");
  await page.getByRole("button", { name: "Cancel" }).click();

  await page.goto(`/history/deleted/configmaps?namespace=${NAMESPACE}`);
  await page.getByTestId("deleted-row").filter({ hasText: names.gone }).getByTestId("recreate-open").click();
  await expect(page.getByTestId("recreate-yaml")).toContainText(`k${LONG - 1}: value ${LONG - 1}`);
  await expectAccessible(page, "re-create dialog");
  await shots(page, "history-recreate");
});

test("keyboard: / focuses the filter, g then a key jumps to a kind, ? shows the shortcuts", async ({ page }) => {
  await signIn(page, `/namespaces/${NAMESPACE}/secrets`);
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-status", "live");
  await page.locator("body").press("/");
  await expect(page.getByLabel("Filter by name")).toBeFocused();
  await page.keyboard.type("zzz-nothing");
  await expect(page.getByText("No secrets match the filter")).toBeVisible();
  await page.keyboard.press("Escape");
  // Leave the filter as a user would (its text is kept); the shortcuts only work outside a field.
  await page.locator("body").click({ position: { x: 5, y: 300 } });
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await expect(page.getByLabel("Filter by name")).not.toBeFocused();
  await page.keyboard.press("g");
  await page.keyboard.press("p");
  await expect(page).toHaveURL(new RegExp(`/namespaces/${NAMESPACE}/pods$`));
  await page.keyboard.press("?");
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
  await expectAccessible(page, "keyboard shortcuts");
  await shot(page, "shortcuts");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
});

test("delete several rows at once with a confirmation that names them", async ({ page }) => {
  const names = [uniqueName("bulk"), uniqueName("bulk")];
  for (const name of names) {
    await kubectl(["create", "--validate=false", "-f", "-"], JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: NAMESPACE } }));
  }
  await signIn(page, `/namespaces/${NAMESPACE}/configmaps`);
  // Only these rows: the namespace holds more ConfigMaps than the window of rows on screen.
  await page.getByLabel("Filter by name or any column").fill("bulk-");
  for (const name of names) await page.getByLabel(`Select ${NAMESPACE}/${name}`).check();
  await page.getByTestId("delete-selected").click();
  for (const name of names) await expect(page.getByTestId("delete-list")).toContainText(name);
  await page.getByLabel("Dependents").selectOption("Foreground");
  await page.getByLabel("Grace period (seconds)").fill("0");
  await shot(page, "delete-dialog");
  await page.getByTestId("confirm-delete").click();
  for (const name of names) await expect(page.locator(`[data-key="${NAMESPACE}/${name}"]`)).toHaveCount(0);
});
