// A user bound only inside a few namespaces (issue 22, item 4) may list neither namespaces nor RoleBindings
// cluster-wide, so All namespaces shows them "(no access)" everywhere. The console asks the server where their
// RoleBindings reach (GET /apis/access.cluster-core.dev/v1/selfnamespaces), offers those namespaces in the
// switcher and on the no-access screens, and opens the first of them after sign-in.
import { expect } from "@playwright/test";
import { ensureNamespaces, ensureObjects, expectAccessible, kubectl, shot, signIn, test } from "./support";

test.describe.configure({ timeout: 180_000 });

// A ServiceAccount of its own, so no other spec's bindings (the token-file user's) change what it reaches.
const HOME = "e2e-disc-home";
const NS_A = "e2e-disc-a";
const NS_B = "e2e-disc-b";
const NOT_MINE = "e2e-disc-other";
const SA = "finder";
const RBAC = "rbac.authorization.k8s.io";

const bind = (namespace: string, role: string) => ({
  apiVersion: `${RBAC}/v1`,
  kind: "RoleBinding",
  metadata: { name: `${SA}-${role}`, namespace },
  roleRef: { apiGroup: RBAC, kind: "ClusterRole", name: role },
  subjects: [{ kind: "ServiceAccount", name: SA, namespace: HOME }],
});

let token = "";

test.beforeAll(async () => {
  await ensureNamespaces(HOME, NS_A, NS_B, NOT_MINE);
  await ensureObjects(
    { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: SA, namespace: HOME } },
    bind(NS_A, "view"),
    bind(NS_B, "edit"),
    { apiVersion: "v1", kind: "Pod", metadata: { name: "disc-web", namespace: NS_B }, spec: { containers: [{ name: "app", image: "nginx" }] } },
    { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "disc-hidden", namespace: NOT_MINE } },
  );
  token = (await kubectl(["create", "token", SA, "-n", HOME, "--duration=2h"])).trim();
});

test("the server names the namespaces a user's RoleBindings reach, to that user only", async ({ request }) => {
  const path = "/apis/access.cluster-core.dev/v1/selfnamespaces";
  const answer = await request.get(path, { headers: { Authorization: `Bearer ${token}` } });
  expect(answer.status()).toBe(200);
  expect(await answer.json()).toMatchObject({ kind: "SelfNamespaces", namespaces: [NS_A, NS_B], user: { username: `system:serviceaccount:${HOME}:${SA}` } });
  expect([401, 403]).toContain((await request.get(path)).status());
  expect((await request.post(path, { headers: { Authorization: `Bearer ${token}` }, data: {} })).status()).toBe(405);
  // It is not a resource kube clients discover.
  const groups = await (await request.get("/apis", { headers: { Authorization: `Bearer ${token}` } })).text();
  expect(groups).not.toContain("access.cluster-core.dev");
});

test("after sign-in the user lands in the first namespace they reach; the switcher offers each of them", async ({ page }) => {
  await signIn(page, "/", token);
  await expect(page).toHaveURL(new RegExp(`/namespaces/${NS_A}$`), { timeout: 60_000 });
  await expect(page.getByTestId("kind-counts")).toBeVisible();
  const switcher = page.getByTestId("namespace-switcher");
  await expect(switcher).toHaveValue(NS_A);
  await expect(switcher.locator(`option[value="${NS_B}"]`)).toHaveCount(1);
  await expect(switcher.locator("option", { hasText: "namespaces your roles reach" })).toHaveCount(1);
  for (const ns of [HOME, NOT_MINE, "default"]) await expect(switcher.locator(`option[value="${ns}"]`)).toHaveCount(0);
  await shot(page, "discovery-landed");

  // All namespaces, chosen on purpose: no second landing; the no-access note offers the namespaces instead.
  await switcher.selectOption({ label: "All namespaces" });
  await expect(page).toHaveURL(/\/$/);
  const offer = page.getByRole("navigation", { name: "Namespaces your roles reach" });
  await expect(page.getByTestId("overview-forbidden")).toBeVisible();
  await expect(offer.getByRole("link")).toHaveText([NS_A, NS_B]);
  await expectAccessible(page, "overview without access, with the namespaces offered");
  await shot(page, "discovery-overview-offer");

  // A kind's list across all namespaces is refused: its no-access screen leads to the kind in each namespace.
  await page.goto("/pods");
  await expect(page.getByTestId("forbidden-message")).toBeVisible();
  await expect(page).toHaveURL(/\/pods$/);
  await offer.getByRole("link", { name: NS_B }).click();
  await expect(page).toHaveURL(new RegExp(`/namespaces/${NS_B}/pods$`));
  await expect(page.locator(`[data-testid=resource-row][data-key="${NS_B}/disc-web"]`)).toBeVisible();
});

test("a kind's list at All namespaces, opened first, lands in that kind in the first namespace reached", async ({ page }) => {
  await signIn(page, "/configmaps", token);
  await expect(page).toHaveURL(new RegExp(`/namespaces/${NS_A}/configmaps$`), { timeout: 60_000 });
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-status", "live", { timeout: 60_000 });
});
