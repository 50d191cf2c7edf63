import { createHmac, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { tokenDigest } from "./token-digest";

describe("tokenDigest", () => {
  it("is HMAC-SHA256 of the token under the process's key", () => {
    const key = Buffer.from(randomBytes(64).map((b) => b & 0x7f));
    const digest = tokenDigest(key);
    for (const token of ["x".repeat(43), `${"e".repeat(300)}.${"p".repeat(600)}.sig`, "naïve-ü 🙂", ""]) {
      expect(digest(token).equals(createHmac("sha256", key).update(token).digest())).toBe(true);
    }
  });

  it("differs between processes (random keys) and refuses a key it cannot use", () => {
    expect(tokenDigest()("t").equals(tokenDigest()("t"))).toBe(false);
    expect(() => tokenDigest(Buffer.alloc(64, 0x80))).toThrow();
    expect(() => tokenDigest(Buffer.alloc(32))).toThrow();
  });
});
