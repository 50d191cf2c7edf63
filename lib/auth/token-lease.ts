// What the request path keeps of an authentication: the user a token belongs to and whether that answer still
// stands. The authenticator hands one out (`Authenticator.lease`); the API's authentication filter lets a
// connection reuse it for its next requests with the same Authorization header, so a kept token costs no digest
// or lookup per request, while `valid()` ends exactly when the token cache would stop answering from memory (its
// TTL, the token's expiry, a change to an object it was checked against, an issuer reload, eviction).
import type { UserInfo } from "./user-info";

export interface TokenLease {
  /** Frozen: shared by every request that presents the token. */
  readonly user: UserInfo;
  /** Whether the answer still stands; once false it never becomes true again. */
  valid(): boolean;
}

/** The answer for one request only (not kept, e.g. a verification overtaken by a change): never valid after. */
export function singleUse(user: UserInfo): TokenLease {
  return { user, valid: () => false };
}
