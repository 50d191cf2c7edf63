// Bearer-token authentication: header parsing and a constant-time token lookup.
// Never prints anything; error messages never contain a token.
import { hash, timingSafeEqual } from "node:crypto";
import type { TokenDigest } from "./token-digest";

export interface TokenEntry {
  token: string;
  user: string;
  groups: string[];
}

export interface AuthenticatedUser {
  user: string;
  groups: string[];
}

export interface TokenAuthenticator {
  (token: string): AuthenticatedUser | undefined;
  /** The same lookup for a token already digested (with the digest the authenticator was built with). */
  byDigest(digest: Buffer): AuthenticatedUser | undefined;
}

// "Bearer <token>": scheme case-insensitive, one token of non-whitespace characters, nothing after it.
const BEARER_HEADER = /^bearer[ \t]+(\S+)[ \t]*$/i;

/** Extracts the token from an Authorization header value; undefined for anything that is not a usable bearer token. */
export function parseBearer(headerValue: string | null | undefined): string | undefined {
  if (typeof headerValue !== "string") return undefined;
  const match = BEARER_HEADER.exec(headerValue.trim());
  return match ? match[1] : undefined;
}

// One-shot hashing: a Hash object per request cost the request path more than the hashing itself.
function digest(token: string): Buffer {
  return hash("sha256", token, "buffer") as unknown as Buffer;
}

/**
 * Builds an authenticator over a fixed token list. Tokens are compared as SHA-256 digests with
 * crypto.timingSafeEqual, against every entry (no early exit), so neither the position of a match
 * nor a token's length is observable through timing.
 * Throws on an empty token or user and on duplicate tokens (messages name users, never tokens).
 */
export function createTokenAuthenticator(tokens: readonly TokenEntry[], digestOf: TokenDigest = digest): TokenAuthenticator {
  const entries = tokens.map((entry, index) => {
    if (typeof entry.token !== "string" || entry.token === "") throw new Error(`token entry ${index} has an empty token`);
    if (typeof entry.user !== "string" || entry.user === "") throw new Error(`token entry ${index} has an empty user name`);
    return { hash: digestOf(entry.token), user: entry.user, groups: [...entry.groups] };
  });
  for (let i = 0; i < entries.length; i++) {
    for (let j = i + 1; j < entries.length; j++) {
      if (entries[i].hash.equals(entries[j].hash)) {
        throw new Error(`users ${JSON.stringify(entries[i].user)} and ${JSON.stringify(entries[j].user)} have the same token`);
      }
    }
  }

  const byDigest = (candidate: Buffer) => {
    let found: (typeof entries)[number] | undefined;
    for (const entry of entries) {
      if (timingSafeEqual(candidate, entry.hash) && found === undefined) found = entry;
    }
    return found ? { user: found.user, groups: [...found.groups] } : undefined;
  };
  const lookup = ((token: string) => {
    if (typeof token !== "string" || token === "") return undefined;
    return byDigest(digestOf(token));
  }) as TokenAuthenticator;
  lookup.byDigest = byDigest;
  return lookup;
}
