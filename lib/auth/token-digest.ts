// The per-process keyed digest of a bearer token: HMAC-SHA256 under a random key made at start, so what is
// kept or compared in memory is never the token and cannot be matched against guesses without the key. One
// digest per request serves both the static-token lookup (bearer.ts) and the token cache (token-cache.ts).
// Computed as RFC 2104 spells it with two one-shot hashes (a Hmac object per request cost more than the
// hashing): the key's bytes are kept below 0x80 so its inner pad is ASCII and joins the token as a string
// (hashed as UTF-8, as Hmac.update hashes a string).
import { hash, randomBytes } from "node:crypto";

/** SHA-256's block size: the HMAC key is exactly one block (448 random bits). */
const BLOCK = 64;

export type TokenDigest = (token: string) => Buffer;

/** `key` (tests): 64 bytes below 0x80; default a random one. */
export function tokenDigest(key: Buffer = Buffer.from(randomBytes(BLOCK).map((b) => b & 0x7f))): TokenDigest {
  if (key.length !== BLOCK || key.some((b) => b >= 0x80)) throw new Error("token digest key: 64 bytes below 0x80");
  const innerPad = Buffer.from(key.map((b) => b ^ 0x36)).toString("latin1");
  const outerPad = Buffer.from(key.map((b) => b ^ 0x5c));
  return (token) => {
    const inner = hash("sha256", innerPad + token, "buffer") as unknown as Buffer;
    return hash("sha256", Buffer.concat([outerPad, inner], BLOCK + 32), "buffer") as unknown as Buffer;
  };
}
