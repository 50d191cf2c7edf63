import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, it, expect } from "vitest";
import { adminTokenPath, ensureAdminToken, generateToken } from "./admin-token";

let dir: string;
beforeEach(() => { dir = mkdtempSync(path.join(tmpdir(), "cc-token-")); });
afterEach(() => { rmSync(dir, { recursive: true, force: true }); });

describe("ensureAdminToken", () => {
  it("returns the configured token and writes nothing", () => {
    expect(ensureAdminToken({ dataDir: dir, configured: "from-env" })).toBe("from-env");
    expect(readdirSync(dir)).toEqual([]);
  });

  it("generates a strong token, stores it with mode 0600 and reuses it", () => {
    const token = ensureAdminToken({ dataDir: dir });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    const file = adminTokenPath(dir);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, "utf8").trim()).toBe(token);
    expect(ensureAdminToken({ dataDir: dir })).toBe(token);
    expect(ensureAdminToken({ dataDir: dir, configured: "" })).toBe(token);
    expect(readdirSync(dir)).toEqual(["admin-token"]); // no temp files left behind
  });

  it("creates a missing data directory", () => {
    const nested = path.join(dir, "a", "b");
    const token = ensureAdminToken({ dataDir: nested });
    expect(readFileSync(path.join(nested, "admin-token"), "utf8").trim()).toBe(token);
  });

  it("reads a hand-written token file and tightens its mode", () => {
    const file = adminTokenPath(dir);
    writeFileSync(file, "  hand-made-token \n");
    chmodSync(file, 0o644);
    expect(ensureAdminToken({ dataDir: dir })).toBe("hand-made-token");
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("replaces an empty token file", () => {
    const file = adminTokenPath(dir);
    writeFileSync(file, "\n");
    const token = ensureAdminToken({ dataDir: dir });
    expect(token).toHaveLength(43);
    expect(readFileSync(file, "utf8").trim()).toBe(token);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("refuses a token file it cannot use, without echoing it", () => {
    writeFileSync(adminTokenPath(dir), "two words-SECRET");
    expect(() => ensureAdminToken({ dataDir: dir })).toThrow(/fix or delete the file/);
    try { ensureAdminToken({ dataDir: dir }); } catch (e) { expect((e as Error).message).not.toContain("SECRET"); }
  });

  it("generates different tokens each time", () => {
    const seen = new Set(Array.from({ length: 50 }, () => generateToken()));
    expect(seen.size).toBe(50);
  });
});
