// Authentication (kube's WithAuthentication): a bearer token, or the console's session cookie plus the
// `X-CSRF-Protection` header on writes. It comes before routing: without credentials every path answers 401,
// so nothing reveals what exists.
// A connection remembers the Authorization header it last presented and the answer it got (a TokenLease), and
// reuses that answer for its next requests with the very same header while the lease stands (as long as the
// token cache would answer from memory: its TTL, the token's expiry, a change to the objects it was checked
// against, an issuer reload). Only a connection's own header is compared with what it sent before, so nothing
// is kept beyond what the connection itself presented; another header is verified afresh. A session cookie is
// remembered the same way, its answer standing no longer than the session; X-CSRF-Protection is checked on
// every cookie-authenticated write.
import { singleUse, type TokenLease } from "../../auth/token-lease";
import { errors, StatusError } from "../../status";
import type { Filter, Handler, RequestContext } from "../context";
import type { ApiRequest, ApiResponse, ApiRuntime } from "../types";

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** What a connection presented last (its Authorization header, or its Cookie header) and the answer it got. */
interface ConnectionMemo {
  cookie: boolean;
  header: string;
  lease: TokenLease;
}

export const withAuthentication: Filter = (next, rt) => {
  // Per chain (one per runtime): a connection's memo never outlives the runtime that answered it.
  const memos = new WeakMap<object, ConnectionMemo>();
  return (ctx) => {
    const req = ctx.request;
    const authorization = req.header("authorization");
    // A request with an Authorization header is judged by it alone; without one, by the session cookie.
    const cookie = authorization ? undefined : req.header("cookie");
    const header = authorization || cookie;
    const connection = req.connection;
    if (header && connection) {
      const memo = memos.get(connection);
      if (memo && memo.header === header && memo.cookie === !authorization && memo.lease.valid()) {
        if (memo.cookie) csrfChecked(req);
        return authenticated(ctx, memo.lease, next);
      }
    }
    const found = authorization ? bearerLease(rt, authorization) : cookieLease(rt, req, cookie);
    if (found instanceof Promise) return found.then((lease) => remembered(memos, ctx, !authorization, header, lease, next));
    return remembered(memos, ctx, !authorization, header, found, next);
  };
};

function remembered(
  memos: WeakMap<object, ConnectionMemo>, ctx: RequestContext, cookie: boolean, header: string | undefined, lease: TokenLease, next: Handler,
): ApiResponse | Promise<ApiResponse> {
  const connection = ctx.request.connection;
  if (header && connection && lease.valid()) {
    const memo = memos.get(connection);
    if (memo) { memo.cookie = cookie; memo.header = header; memo.lease = lease; } else memos.set(connection, { cookie, header, lease });
  }
  return authenticated(ctx, lease, next);
}

function authenticated(ctx: RequestContext, lease: TokenLease, next: Handler): ApiResponse | Promise<ApiResponse> {
  const user = lease.user;
  ctx.authenticated = ctx.user = user;
  if (ctx.audit) ctx.audit.user = user;
  return next(ctx);
}

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

/** The answer for a bearer token (at once when the authenticator knows it), else 401. */
function bearerLease(rt: ApiRuntime, header: string): TokenLease | Promise<TokenLease> {
  const token = bearerToken(header);
  if (!token) throw errors.unauthorized();
  const found = rt.authenticateLease ? rt.authenticateLease(token) : rt.authenticate(token).then((user) => user && singleUse(user));
  if (found instanceof Promise) return found.then(orUnauthorized);
  return orUnauthorized(found);
}

function orUnauthorized(lease: TokenLease | undefined): TokenLease {
  if (!lease) throw errors.unauthorized();
  return lease;
}

/**
 * The console's session cookie: its bearer token's answer, standing no longer than the session (a connection
 * that presents the same cookie again is answered from memory until either ends).
 */
async function cookieLease(rt: ApiRuntime, req: ApiRequest, cookie: string | undefined): Promise<TokenLease> {
  if (cookie && rt.sessionBearer) {
    const session = await rt.sessionBearer(cookie);
    const found = session && (rt.authenticateLease ? await rt.authenticateLease(session.bearer) : await rt.authenticate(session.bearer).then((user) => user && singleUse(user)));
    if (found) {
      csrfChecked(req);
      const ends = session.expiresAtMs;
      return ends === undefined ? found : { user: found.user, valid: () => Date.now() < ends && found.valid() };
    }
  }
  throw errors.unauthorized();
}

/** Cross-site pages cannot send custom headers without a CORS preflight, which we never grant. */
function csrfChecked(req: ApiRequest): void {
  if (UNSAFE.has(req.method) && req.header("x-csrf-protection") !== "1") {
    throw new StatusError(403, "Forbidden", "cookie-authenticated writes need the X-CSRF-Protection header", {});
  }
}
