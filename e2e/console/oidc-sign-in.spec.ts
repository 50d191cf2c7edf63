// "Sign in with <provider>" (issue 24, item 4): a person signs in through a real OpenID provider (the
// `oidc-provider` package that start-server.sh starts beside the server, over HTTPS with a CA of the test's
// own), in Chromium, on the provider's own login and consent pages. The console then calls the API with the
// person's ID token: RBAC bound to their mapped groups decides what they see, the user menu names them as the
// API maps them, the token is refreshed before it expires, and sign-out ends the provider's session too.
import { expect, type Page } from "@playwright/test";
import { ensureNamespaces, expectAccessible, kubectl, shot, test, uniqueName } from "./support";
import { OIDC_ACCOUNTS, OIDC_ID_TOKEN_TTL_SECONDS, OIDC_PROVIDER_NAME } from "./oidc-test-provider";

const ALLOWED = "e2e-oidc-team";
const OTHER = "e2e-oidc-other";

test.describe.configure({ timeout: 180_000 });

test.beforeAll(async () => {
  await ensureNamespaces(ALLOWED, OTHER);
  // The provider's group "team-a" reaches the API as "oidc:team-a" (OIDC_GROUPS_PREFIX): bind that.
  await kubectl(["apply", "-f", "-"], JSON.stringify({
    apiVersion: "v1",
    kind: "List",
    items: [
      { apiVersion: "rbac.authorization.k8s.io/v1", kind: "RoleBinding", metadata: { name: "oidc-team-a-edit", namespace: ALLOWED }, roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "edit" }, subjects: [{ apiGroup: "rbac.authorization.k8s.io", kind: "Group", name: "oidc:team-a" }] },
      { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "team-settings", namespace: ALLOWED }, data: { a: "1" } },
      { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "other-settings", namespace: OTHER }, data: { a: "1" } },
    ],
  }));
});

/** Clicks "Sign in with <provider>" and walks the provider's login (and, the first time, consent) pages. */
async function signInWithProvider(page: Page, login: string, next: string) {
  await page.goto(`/signin?callbackUrl=${encodeURIComponent(next)}`);
  await page.getByRole("button", { name: `Sign in with ${OIDC_PROVIDER_NAME}` }).click();
  await page.waitForURL((url) => url.port !== new URL(page.url()).port || url.pathname.startsWith("/interaction"));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any password");
  await page.locator('button[type="submit"]').click();
  // The consent page (first sign-in of this account with this client).
  const consent = page.locator('button[autofocus], button[type="submit"]').filter({ hasText: /Continue/i });
  if (await consent.isVisible({ timeout: 5_000 }).catch(() => false)) await consent.click();
  await page.waitForURL((url) => url.pathname === next.split("?")[0]);
}

test("a person signs in through the identity provider; RBAC on their mapped groups governs the console", async ({ page }) => {
  await page.goto("/signin");
  await expect(page.getByRole("button", { name: `Sign in with ${OIDC_PROVIDER_NAME}` })).toBeVisible();
  await expectAccessible(page, "sign-in with a provider");

  await signInWithProvider(page, "ada", `/namespaces/${ALLOWED}/configmaps`);
  await expect(page.getByTestId("resource-row").filter({ hasText: "team-settings" })).toBeVisible();

  // The user menu names them as the API maps them (OIDC_USERNAME_CLAIM=email), with their groups.
  await page.getByTestId("user-name").click();
  await expect(page.getByTestId("user-details")).toContainText(OIDC_ACCOUNTS.ada.email);
  await expect(page.getByTestId("user-groups")).toContainText("oidc:team-a");
  await expect(page.getByTestId("user-groups")).toContainText("system:authenticated");
  await shot(page, "oidc-user-menu");
  await page.keyboard.press("Escape");

  // Writes where their group may write, recorded as them.
  const created = uniqueName("by-ada");
  const status = await page.evaluate(
    (body) => fetch(`/api/v1/namespaces/${body.metadata.namespace}/configmaps`, { method: "POST", headers: { "content-type": "application/json", "X-CSRF-Protection": "1" }, body: JSON.stringify(body) }).then((r) => r.status),
    { apiVersion: "v1", kind: "ConfigMap", metadata: { name: created, namespace: ALLOWED }, data: { x: "y" } },
  );
  expect(status).toBe(201);
  const history = JSON.parse(await kubectl(["get", "--raw", `/api/v1/namespaces/${ALLOWED}/configmaps/${created}/history`]));
  expect(history.items[0].user.username).toBe(OIDC_ACCOUNTS.ada.email);

  // Nothing in the other namespace: the API refuses them, and the console says so.
  const forbidden = await page.evaluate((ns) => fetch(`/api/v1/namespaces/${ns}/configmaps`, { headers: { "X-CSRF-Protection": "1" } }).then((r) => r.status), OTHER);
  expect(forbidden).toBe(403);
  await page.goto(`/namespaces/${OTHER}/configmaps`);
  await expect(page.getByTestId("resource-row").filter({ hasText: "other-settings" })).toHaveCount(0);
  const refused = page.getByRole("alert").filter({ hasText: "Your roles do not allow this" });
  await expect(refused).toContainText('User "ada@example.com" cannot list resource "configmaps"');
  // ... and offers where their groups' roles do reach.
  await expect(refused.getByRole("navigation", { name: "Namespaces your roles reach" }).getByRole("link", { name: ALLOWED })).toBeVisible();

  // The ID token lives only in the encrypted session cookie: never in the page or in what the session says.
  const sessionJson = await page.evaluate(() => fetch("/api/auth/session").then((r) => r.text()));
  expect(sessionJson).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
  expect(await page.content()).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
});

test("the session outlives its ID token: refreshed before it expires, the person stays on their page", async ({ page }) => {
  await signInWithProvider(page, "ada", `/namespaces/${ALLOWED}/configmaps`);
  const before = await page.evaluate(() => fetch("/api/auth/session").then((r) => r.json()));
  expect(before.oidc.active).toBe(true);
  expect(before.oidc.refreshInSeconds).toBeLessThanOrEqual(OIDC_ID_TOKEN_TTL_SECONDS);
  // Past the first ID token's expiry (no leeway on exp at the API): the API still answers the session.
  await page.waitForTimeout((OIDC_ID_TOKEN_TTL_SECONDS + 3) * 1000);
  const status = await page.evaluate(() => fetch("/api/v1/namespaces/e2e-oidc-team/configmaps", { headers: { "X-CSRF-Protection": "1" } }).then((r) => r.status));
  expect(status).toBe(200);
  await page.reload();
  await expect(page).toHaveURL(new RegExp(`/namespaces/${ALLOWED}/configmaps$`));
  await expect(page.getByTestId("resource-row").filter({ hasText: "team-settings" })).toBeVisible();
});

test("a session whose refresh the provider refuses returns to sign-in and back to the same page", async ({ page }) => {
  const target = `/namespaces/${ALLOWED}/configmaps?q=team`;
  await signInWithProvider(page, "ada", target);
  const provider = `https://127.0.0.1:${Number(new URL(page.url()).port) + 1}`;
  // The provider revokes the refresh token; the ID token then runs out (no leeway on exp at the API).
  expect((await page.request.get(`${provider}/test/token-endpoint/refuse`)).status()).toBe(204);
  try {
    // The session ends at the next request the API refuses: the person's next click, or one of the page's own
    // background requests (the console's discovery of custom kinds asks every few seconds) if that comes first.
    const signedOut = page.waitForURL(/\/signin\?/, { timeout: 60_000 });
    await page.waitForTimeout((OIDC_ID_TOKEN_TTL_SECONDS + 3) * 1000);
    if (!page.url().includes("/signin?")) await page.getByRole("link", { name: /Secrets/ }).first().click({ timeout: 10_000 }).catch(() => {});
    await signedOut;
    expect(new URL(page.url()).searchParams.get("callbackUrl")).toMatch(/^\/(namespaces\/e2e-oidc-team\/)?(secrets|configmaps\?q=team)/);
    await expect(page.locator("#signin-error")).toContainText("Your session ended");
  } finally {
    await page.request.get(`${provider}/test/token-endpoint/accept`);
  }
  // Signing in again (the provider still knows them: no login page) lands on the page they were on.
  const back = new URL(page.url()).searchParams.get("callbackUrl")!;
  await page.getByRole("button", { name: `Sign in with ${OIDC_PROVIDER_NAME}` }).click();
  await page.waitForURL((url) => url.pathname + url.search === back);
  await expect(page.getByRole("heading", { name: back.includes("secrets") ? /Secrets/ : /ConfigMaps/ })).toBeVisible();
});

test("sign-out ends the console's session and the provider's: signing in again asks for the login again", async ({ page }) => {
  await signInWithProvider(page, "ada", "/");
  await page.getByRole("button", { name: "Sign out" }).first().click();
  // The provider's end-session page asks to confirm, then comes back to the console's sign-in page.
  await page.locator('button[autofocus], button[type="submit"]').filter({ hasText: /Yes/i }).click();
  await page.waitForURL(/\/signin/);
  expect((await page.evaluate(() => fetch("/api/v1/namespaces", { headers: { "X-CSRF-Protection": "1" } }).then((r) => r.status)))).toBe(401);
  await page.getByRole("button", { name: `Sign in with ${OIDC_PROVIDER_NAME}` }).click();
  await expect(page.locator('input[name="login"]')).toBeVisible();
});

test("a provider account whose token the API refuses is told so on the sign-in page, not signed in", async ({ page }) => {
  // "mallory" has no email_verified (OIDC_USERNAME_CLAIM=email requires it): the API refuses the token.
  await page.goto(`/signin?callbackUrl=${encodeURIComponent("/")}`);
  await page.getByRole("button", { name: `Sign in with ${OIDC_PROVIDER_NAME}` }).click();
  await page.locator('input[name="login"]').fill("mallory");
  await page.locator('input[name="password"]').fill("any password");
  await page.locator('button[type="submit"]').click();
  const consent = page.locator('button[type="submit"]').filter({ hasText: /Continue/i });
  if (await consent.isVisible({ timeout: 5_000 }).catch(() => false)) await consent.click();
  await page.waitForURL(/\/signin/);
  await expect(page.getByTestId("signin-provider-error")).toContainText("does not accept its token");
  await page.goto("/");
  await expect(page).toHaveURL(/\/signin/);
});
