import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it, expect } from "vitest";
import { createTokenAuthenticator, parseBearer } from "./bearer";

describe("parseBearer", () => {
  it("extracts the token", () => {
    expect(parseBearer("Bearer abc.def-ghi")).toBe("abc.def-ghi");
    expect(parseBearer("bearer abc")).toBe("abc");
    expect(parseBearer("BEARER   abc  ")).toBe("abc");
    expect(parseBearer("  Bearer\tabc")).toBe("abc");
    expect(parseBearer("Bearer abc==")).toBe("abc==");
  });

  it.each([undefined, null, "", "Bearer", "Bearer ", "Basic YWxhZGRpbjpvcGVuc2VzYW1l", "Bearerabc", "Bearer a b", "Token abc"])(
    "rejects %j",
    (value) => { expect(parseBearer(value as string | null | undefined)).toBeUndefined(); },
  );
});

describe("createTokenAuthenticator", () => {
  const auth = createTokenAuthenticator([
    { token: "admin-token-1", user: "admin", groups: ["system:masters", "system:authenticated"] },
    { token: "viewer", user: "viewer", groups: ["system:authenticated"] },
  ]);

  it("accepts known tokens", () => {
    expect(auth("admin-token-1")).toEqual({ user: "admin", groups: ["system:masters", "system:authenticated"] });
    expect(auth("viewer")).toEqual({ user: "viewer", groups: ["system:authenticated"] });
  });

  it("rejects unknown, prefixed, extended and empty tokens", () => {
    for (const t of ["", "admin-token-", "admin-token-12", "ADMIN-TOKEN-1", "viewer ", "x"]) expect(auth(t)).toBeUndefined();
  });

  it("returns copies the caller cannot use to alter the table", () => {
    const first = auth("viewer")!;
    first.groups.push("system:masters");
    expect(auth("viewer")!.groups).toEqual(["system:authenticated"]);
  });

  it("copies its input", () => {
    const groups = ["g"];
    const a = createTokenAuthenticator([{ token: "t", user: "u", groups }]);
    groups.push("evil");
    expect(a("t")).toEqual({ user: "u", groups: ["g"] });
  });

  it("validates the table without revealing tokens", () => {
    expect(() => createTokenAuthenticator([{ token: "", user: "u", groups: [] }])).toThrow(/empty token/);
    expect(() => createTokenAuthenticator([{ token: "t", user: "", groups: [] }])).toThrow(/empty user/);
    let message = "";
    try {
      createTokenAuthenticator([{ token: "dup-SECRET", user: "a", groups: [] }, { token: "dup-SECRET", user: "b", groups: [] }]);
    } catch (e) { message = (e as Error).message; }
    expect(message).toMatch(/"a" and "b" have the same token/);
    expect(message).not.toContain("SECRET");
  });

  it("works with an empty table", () => {
    expect(createTokenAuthenticator([])("anything")).toBeUndefined();
  });
});

describe("lib/auth sources", () => {
  it("never write to the console", () => {
    const dir = path.dirname(fileURLToPath(import.meta.url));
    for (const f of readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))) {
      expect(readFileSync(path.join(dir, f), "utf8"), f).not.toMatch(/\bconsole\s*\.|process\.(stdout|stderr)/);
    }
  });
});
