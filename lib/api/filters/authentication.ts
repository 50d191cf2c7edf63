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

async function authenticate(rt: ApiRuntime, req: ApiRequest): Promise<UserInfo> {
  const header = req.header("authorization");
  if (header) {
    const m = /^Bearer\s+(.+)$/i.exec(header.trim());
    const user = m ? await rt.authenticate(m[1].trim()) : undefined;
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
