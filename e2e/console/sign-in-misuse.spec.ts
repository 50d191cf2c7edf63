// Every way a client can misuse the sign-in endpoints (next-auth under /api/auth) is answered 4xx: a 5xx
// always means the server's fault (decision 11). Walks each endpoint with each method and with bad input,
// then checks that the one real sign-in still works.
import { expect, type APIRequestContext } from "@playwright/test";
import { ADMIN_TOKEN, test } from "./support";

const ENDPOINTS = ["callback/token", "callback/oidc", "callback/oidc?code=forged&state=forged", "signin/oidc", "callback/credentials", "callback/nope", "callback", "signin", "signin/token", "signin/nope", "signout", "session", "csrf", "providers", "error", "verify-request", "_log", "nope", "callback/token/extra"];
const METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH"] as const;

async function csrf(request: APIRequestContext): Promise<string> {
  return (await (await request.get("/api/auth/csrf")).json()).csrfToken;
}

test("each sign-in endpoint, with each method and no input, answers below 500", async ({ request }) => {
  const fails: string[] = [];
  for (const path of ENDPOINTS) {
    for (const method of METHODS) {
      const answer = await request.fetch(`/api/auth/${path}`, { method, maxRedirects: 0 });
      if (answer.status() >= 500) fails.push(`${method} /api/auth/${path}: ${answer.status()} ${(await answer.text()).slice(0, 120)}`);
    }
  }
  expect(fails).toEqual([]);
});

test("a GET of the sign-in callback is refused as a method the callback does not take, as a Status", async ({ request }) => {
  const answer = await request.get("/api/auth/callback/token", { maxRedirects: 0 });
  expect(answer.status()).toBe(405);
  expect(answer.headers()["allow"]).toBe("POST");
  expect(await answer.json()).toMatchObject({ kind: "Status", status: "Failure", code: 405, reason: "MethodNotAllowed" });
  expect((await request.get("/api/auth/callback/token?code=abc&state=def", { maxRedirects: 0 })).status()).toBe(405);
});

test("bad bodies, parameters and cookies are refused with 4xx, never quoting the token", async ({ request }) => {
  const token = await csrf(request);
  const secret = "not-a-real-token-but-private";
  const cases: { what: string; path: string; method?: string; headers?: Record<string, string>; data?: string }[] = [
    { what: "JSON that does not parse", path: "callback/token", headers: { "content-type": "application/json" }, data: `{"token":"${secret}"` },
    { what: "empty JSON body", path: "session", headers: { "content-type": "application/json" }, data: " " },
    { what: "JSON sign-out that does not parse", path: "signout", headers: { "content-type": "application/json" }, data: "{" },
    { what: "JSON sign-in that does not parse", path: "signin/token", headers: { "content-type": "application/json" }, data: "[" },
    { what: "JSON log line that does not parse", path: "_log", headers: { "content-type": "application/json" }, data: "nope" },
    { what: "callbackUrl in the body that is no URL", path: "callback/token", headers: { "content-type": "application/x-www-form-urlencoded" }, data: `token=${secret}&csrfToken=${token}&callbackUrl=%25zz` },
    { what: "callbackUrl in the body that is not a string", path: "signout", headers: { "content-type": "application/json" }, data: `{"csrfToken":"${token}","callbackUrl":{"a":1}}` },
    { what: "callbackUrl in the query that is no URL", path: "signin?callbackUrl=%25zz", method: "GET" },
    { what: "callbackUrl in the query with another scheme", path: "session?callbackUrl=javascript%3Aalert(1)", method: "GET" },
    { what: "callback-url cookie that is no URL", path: "session", method: "GET", headers: { cookie: "__Secure-next-auth.callback-url=%25zz; next-auth.callback-url=%25zz" } },
  ];
  const fails: string[] = [];
  for (const c of cases) {
    // Bytes, sent as they are (a string with a JSON content type would be serialised as a JSON string).
    const data = c.data === undefined ? undefined : Buffer.from(c.data);
    const answer = await request.fetch(`/api/auth/${c.path}`, { method: c.method ?? "POST", headers: c.headers, data, maxRedirects: 0 });
    const body = await answer.text();
    if (answer.status() < 400 || answer.status() >= 500) fails.push(`${c.what}: ${answer.status()} ${body.slice(0, 120)}`);
    if (body.includes(secret)) fails.push(`${c.what}: the answer quotes the token`);
  }
  expect(fails).toEqual([]);
});

test("the real sign-in still works: the form's POST with a good token sets the session", async ({ request }) => {
  const token = await csrf(request);
  const answer = await request.post("/api/auth/callback/token", {
    form: { token: ADMIN_TOKEN, csrfToken: token, callbackUrl: "/namespaces/default/pods", json: "true" },
    maxRedirects: 0,
  });
  expect(answer.status()).toBeLessThan(400);
  const session = await (await request.get("/api/auth/session")).json();
  expect(session.user?.name).toBeTruthy();
  expect(JSON.stringify(session)).not.toContain(ADMIN_TOKEN);
});
