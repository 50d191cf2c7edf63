// Authentication (kube's WithAuthentication): a bearer token, or the console's session cookie plus the
// `X-CSRF-Protection` header on writes. It comes before routing: without credentials every path answers 401,
// so nothing reveals what exists.
import { errors, StatusError } from "../../status";
import type { UserInfo } from "../../auth/user-info";
import type { Filter } from "../context";
import type { ApiRequest, ApiRuntime } from "../types";

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export const withAuthentication: Filter = (next, rt) => async (ctx) => {
  const user = await authenticate(rt, ctx.request);
  ctx.authenticated = ctx.user = user;
  if (ctx.audit) ctx.audit.user = user;
  return next(ctx);
};

/**
 * The token of `Bearer <token>`: the scheme in any case, whitespace after it and around the whole, the token one
 * line. Only the scheme is matched by a pattern: a ServiceAccount's token is ~1 KB, and a pattern run over it
 * cost a microsecond per request.
 */
export function bearerToken(header: string): string | undefined {
  const h = header.trim();
  if (!/^bearer\s/i.test(h)) return undefined;
  const token = h.slice(7).trimStart();
  if (!token || token.includes("\n") || token.includes("\r") || token.includes("\u2028") || token.includes("\u2029")) return undefined;
  return token;
}

async function authenticate(rt: ApiRuntime, req: ApiRequest): Promise<UserInfo> {
  const header = req.header("authorization");
  if (header) {
    const token = bearerToken(header);
    const user = token ? await rt.authenticate(token) : undefined;
    if (user) return user;
    throw errors.unauthorized();
  }
  const cookie = req.header("cookie");
  if (cookie && rt.sessionBearer) {
    const token = await rt.sessionBearer(cookie);
    const user = token ? await rt.authenticate(token) : undefined;
    if (user) {
      // Cross-site pages cannot send custom headers without a CORS preflight, which we never grant.
      if (UNSAFE.has(req.method) && req.header("x-csrf-protection") !== "1") {
        throw new StatusError(403, "Forbidden", "cookie-authenticated writes need the X-CSRF-Protection header", {});
      }
      return user;
    }
  }
  throw errors.unauthorized();
}
