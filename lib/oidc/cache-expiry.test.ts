import { describe, expect, it } from "vitest";
import { freshUntil } from "./cache-expiry";

describe("freshUntil (JWKS caching headers)", () => {
  const t = 1_000_000;
  it("reads s-maxage, max-age less Age, and Expires against Date", () => {
    expect(freshUntil({ "cache-control": "public, max-age=300" }, t)).toBe(t + 300_000);
    expect(freshUntil({ "cache-control": "max-age=300, s-maxage=60" }, t)).toBe(t + 60_000);
    expect(freshUntil({ "cache-control": "max-age=300", age: "100" }, t)).toBe(t + 200_000);
    expect(freshUntil({ expires: "Thu, 01 Jan 2026 00:10:00 GMT", date: "Thu, 01 Jan 2026 00:00:00 GMT" }, t)).toBe(t + 600_000);
  });
  it("is stale at once without headers or when caching is forbidden", () => {
    expect(freshUntil({}, t)).toBe(t);
    expect(freshUntil({ "cache-control": "no-store, max-age=300" }, t)).toBe(t);
    expect(freshUntil({ "cache-control": "private, max-age=300" }, t)).toBe(t);
  });
});
