import { expect } from "@playwright/test";
import { ADMIN_TOKEN, shot, signIn, test } from "./support";

test.describe("sign-in", () => {
  test("an unauthenticated page redirects to sign-in and comes back after it", async ({ page }) => {
    await page.goto("/pods?q=web");
    await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fpods%3Fq%3Dweb/);
    await shot(page, "sign-in");
    await page.getByLabel("Bearer token").fill("not-the-token");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.locator("#signin-error")).toContainText("did not accept");
    await page.getByLabel("Bearer token").fill(ADMIN_TOKEN);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL(/\/pods\?q=web$/);
    await expect(page.getByRole("heading", { name: /Pods/ })).toBeVisible();
  });

  test("the session is an httpOnly cookie, the browser never sees the token, and sign-out ends it", async ({ page, context }) => {
    await signIn(page, "/configmaps");
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name.endsWith("next-auth.session-token"));
    expect(session?.httpOnly).toBe(true);
    expect(session?.value).not.toContain(ADMIN_TOKEN);
    const sessionJson = await page.evaluate(() => fetch("/api/auth/session").then((r) => r.text()));
    expect(sessionJson).not.toContain(ADMIN_TOKEN);
    expect(await page.content()).not.toContain(ADMIN_TOKEN);

    // The API accepts the session for reads, and for writes only with the anti-CSRF header.
    const read = await page.evaluate(() => fetch("/api/v1/configmaps", { headers: { "X-CSRF-Protection": "1" } }).then((r) => r.status));
    expect(read).toBe(200);
    const forged = await page.evaluate(() =>
      fetch("/api/v1/namespaces/default/configmaps", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ metadata: { name: "csrf" }, data: {} }) }).then((r) => r.status),
    );
    expect(forged).toBe(403);

    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/signin/);
    await page.goto("/configmaps");
    await expect(page).toHaveURL(/\/signin/);
    const after = await page.evaluate(() => fetch("/api/v1/configmaps").then((r) => r.status));
    expect(after).toBe(401);
  });

  test("bad sign-in input is refused with a 4xx, never a server error", async ({ page, request }) => {
    const { csrfToken } = await (await request.get("/api/auth/csrf")).json();
    for (const token of ["", "not-a-token", "x".repeat(100_000), "two\nlines", "eyJhbGciOiJSUzI1NiJ9.garbage.sig"]) {
      const answer = await request.post("/api/auth/callback/token", {
        form: { token, csrfToken, json: "true" },
        headers: { "X-Auth-Return-Redirect": "1" },
        maxRedirects: 0,
      });
      expect(answer.status(), `token of length ${token.length}`).toBeGreaterThanOrEqual(400);
      expect(answer.status(), `token of length ${token.length}`).toBeLessThan(500);
    }
    await page.goto("/signin");
    await expect(page.getByTestId("token-help")).toContainText("data/admin-token");
    await expect(page.getByTestId("token-help")).toContainText("kubectl create token <serviceaccount> -n <namespace>");
  });
});
