import { describe, expect, it } from "vitest";
import { TokenCache } from "./token-cache";
import { tokenDigest } from "./token-digest";

const ok = (value: string, more: { expiresAtMs?: number; dependsOn?: string[] } = {}) => async () => ({ value, keep: true, ...more });

describe("TokenCache", () => {
  it("keys entries by an HMAC of the token, never the token itself", async () => {
    const cache = new TokenCache<string>();
    const token = "eyJhbGciOiJFUzI1NiJ9.secret-part.signature";
    await cache.get(token, ok("ann"));
    const keys = [...(cache as unknown as { entries: Map<string, unknown> }).entries.keys()];
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toContain("secret-part");
    expect(keys[0]).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Another process (another random key) files the same token elsewhere.
    const other = new TokenCache<string>();
    await other.get(token, ok("ann"));
    expect([...(other as unknown as { entries: Map<string, unknown> }).entries.keys()][0]).not.toBe(keys[0]);
  });

  it("verifies once per TTL, never keeps a failure, and lets concurrent misses share one verification", async () => {
    let clock = 1_000_000;
    const cache = new TokenCache<string>(() => clock, 10_000);
    let calls = 0;
    const verify = async () => { calls++; await new Promise((r) => setTimeout(r, 5)); return { value: `v${calls}`, keep: calls !== 1 }; };
    // The first verification fails (not kept): both waiters get its answer, the next call verifies again.
    expect(await Promise.all([cache.get("t", verify), cache.get("t", verify)])).toEqual(["v1", "v1"]);
    expect(calls).toBe(1);
    expect(await cache.get("t", verify)).toBe("v2");
    expect(await cache.get("t", verify)).toBe("v2");
    expect(calls).toBe(2);
    clock += 10_001;
    expect(await cache.get("t", verify)).toBe("v3");
  });

  it("ends an entry at the token's expiry and drops what depends on a forgotten object, in flight too", async () => {
    let clock = 1_000_000;
    const cache = new TokenCache<string>(() => clock, 10_000);
    await cache.get("short", ok("a", { expiresAtMs: clock + 2_000 }));
    await cache.get("sa", ok("b", { dependsOn: ["serviceaccounts/ns/x"] }));
    clock += 2_000;
    expect(await cache.get("short", ok("a2"))).toBe("a2");
    cache.forget("serviceaccounts/ns/y");
    expect(await cache.get("sa", ok("b2"))).toBe("b");
    cache.forget("serviceaccounts/ns/x");
    expect(await cache.get("sa", ok("b3"))).toBe("b3");
    // A verification that was running when its object changed answers its caller but is not kept.
    let release!: () => void;
    const slow = cache.get("late", () => new Promise((r) => { release = () => r({ value: "stale", keep: true, dependsOn: ["pods/ns/p"] }); }));
    cache.forget("pods/ns/p");
    release();
    expect(await slow).toBe("stale");
    expect(await cache.get("late", ok("fresh"))).toBe("fresh");
    // Other objects changing meanwhile (pods come and go all the time) do not keep an answer from being kept.
    let finish!: () => void;
    const busy = cache.get("busy", () => new Promise((r) => { finish = () => r({ value: "kept", keep: true, dependsOn: ["pods/ns/mine"] }); }));
    for (let i = 0; i < 50; i++) cache.forget(`pods/ns/other-${i}`);
    finish();
    expect(await busy).toBe("kept");
    expect(await cache.get("busy", ok("again"))).toBe("kept");
  });

  it("answers a kept token synchronously (peekDigested) only while get would answer it from memory", async () => {
    let clock = 1_000_000;
    const digest = tokenDigest();
    const cache = new TokenCache<string>(() => clock, 10_000, 100, digest);
    expect(cache.peekDigested(digest("t"))).toBeUndefined();
    await cache.get("t", ok("ann", { dependsOn: ["serviceaccounts/ns/ann"] }));
    expect(cache.peekDigested(digest("t"))).toBe("ann");
    expect(cache.peekDigested(digest("u"))).toBeUndefined();
    cache.forget("serviceaccounts/ns/ann");
    expect(cache.peekDigested(digest("t"))).toBeUndefined();
    await cache.get("t", ok("ann"));
    clock += 10_000;
    expect(cache.peekDigested(digest("t"))).toBeUndefined();
    // A failure is never kept, so never peeked.
    await cache.get("bad", async () => ({ value: "refused", keep: false }));
    expect(cache.peekDigested(digest("bad"))).toBeUndefined();
  });

  it("holds at most its maximum, dropping expired then oldest entries", async () => {
    const cache = new TokenCache<string>(Date.now, 10_000, 10);
    for (let i = 0; i < 25; i++) await cache.get(`t${i}`, ok(String(i)));
    expect(cache.size).toBeLessThanOrEqual(10);
    expect(await cache.get("t24", ok("new"))).toBe("24");
  });
});
