// The sign-in endpoints (next-auth v4 under /api/auth) answer a client's mistake with 4xx, never 5xx: next-auth
// itself throws (500) on a few requests no browser of ours sends, so those are refused here before it runs:
//   - GET or HEAD of /api/auth/callback/<provider> for a provider that is not OAuth: only an OAuth provider
//     (the organization's OIDC sign-in) calls back by GET; the token sign-in is a form POST ("Callback for
//     provider type credentials not supported") → 405, Allow: POST;
//   - a POST whose content type says JSON and whose body is not JSON (next-auth parses it unguarded) → 400;
//   - a `callbackUrl` (query, body or next-auth's callback-url cookie) that is not a string naming an http(s)
//     URL (next-auth's config check and redirect callback throw on it) → 400.
// The refusal is a Kubernetes Status, as every other refusal of this server. Messages never quote the body
// (it may hold a token).
import { errors, StatusError } from "../status";

const CALLBACK_URL_COOKIES = ["next-auth.callback-url", "__Secure-next-auth.callback-url"];

/** next-auth's own test (assert.js isValidHttpUrl): a path from the site's root, or an absolute http(s) URL. */
export function isHttpUrl(value: unknown, base: string): boolean {
  if (typeof value !== "string") return false;
  try {
    return /^https?:$/.test(new URL(value, value.startsWith("/") ? base : undefined).protocol);
  } catch {
    return false;
  }
}

function cookieValues(header: string | null, names: readonly string[]): string[] {
  const out: string[] = [];
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || !names.includes(part.slice(0, eq).trim())) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    try {
      value = decodeURIComponent(value);
    } catch {
      // the cookie package next-auth uses keeps a value it cannot decode as it is
    }
    out.push(value);
  }
  return out;
}

const badCallbackUrl = (where: string) => errors.badRequest(`callbackUrl in the ${where} must be a path on this server or an http(s) URL`);

/**
 * Why next-auth must not see `request`, or undefined when it may. `oauthProviders`: the ids of the providers
 * whose callback is a GET (the browser coming back from the identity provider).
 */
export async function signInRefusal(request: Request, oauthProviders: readonly string[] = []): Promise<StatusError | undefined> {
  const url = new URL(request.url);
  const [action, provider] = url.pathname.replace(/^\/api\/auth\/?/, "").split("/");
  const method = request.method.toUpperCase();
  if (action === "callback" && (method === "GET" || method === "HEAD") && !oauthProviders.includes(provider ?? "")) {
    return new StatusError(405, "MethodNotAllowed", "the sign-in callback takes the sign-in form by POST", {});
  }
  if (url.searchParams.has("callbackUrl") && !isHttpUrl(url.searchParams.get("callbackUrl"), url.origin)) return badCallbackUrl("query");
  if (cookieValues(request.headers.get("cookie"), CALLBACK_URL_COOKIES).some((v) => !isHttpUrl(v, url.origin))) return badCallbackUrl("cookie");
  if (method !== "POST" || !request.body) return undefined;
  const type = request.headers.get("content-type") ?? "";
  let body: Record<string, unknown> | undefined;
  if (type.includes("application/json")) {
    try {
      const parsed: unknown = JSON.parse(await request.clone().text());
      body = parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
    } catch {
      return errors.badRequest("the request body is not valid JSON");
    }
  } else if (type.includes("application/x-www-form-urlencoded")) {
    body = Object.fromEntries(new URLSearchParams(await request.clone().text()));
  }
  if (body && "callbackUrl" in body && body.callbackUrl !== undefined && !isHttpUrl(body.callbackUrl, url.origin)) return badCallbackUrl("body");
  return undefined;
}

/** `handler` (next-auth's route handler) behind `signInRefusal`: a refused request gets its Status as JSON. */
export function guardSignIn<C>(handler: (request: Request, context: C) => Promise<Response> | Response, oauthProviders: readonly string[] = []) {
  return async (request: Request, context: C): Promise<Response> => {
    const refusal = await signInRefusal(request, oauthProviders);
    if (!refusal) return handler(request, context);
    const headers: Record<string, string> = { "Content-Type": "application/json", "Cache-Control": "no-store" };
    if (refusal.code === 405) headers.Allow = "POST";
    return new Response(request.method === "HEAD" ? null : JSON.stringify(refusal.toStatus()), { status: refusal.code, headers });
  };
}
