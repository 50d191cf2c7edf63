import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadTokenFile, parseTokenFile, withAuthenticatedGroup } from "./token-file";

const messageOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error("expected an error");
};

describe("parseTokenFile", () => {
  it("reads users, uids and quoted group lists, skipping blank lines", () => {
    const text = [
      "tok-alice,alice,uid-1",
      "",
      'tok-bob,bob,uid-2,"devs,ops"',
      "tok-carol,carol,,system:masters,ignored-extra,more",
      '"tok,with""quote",dave,uid-4,"team ""a"""',
      "",
    ].join("\r\n");
    expect(parseTokenFile(text, "/etc/tokens.csv")).toEqual([
      { token: "tok-alice", line: 1, user: { username: "alice", uid: "uid-1", groups: ["system:authenticated"] } },
      { token: "tok-bob", line: 3, user: { username: "bob", uid: "uid-2", groups: ["devs", "ops", "system:authenticated"] } },
      { token: "tok-carol", line: 4, user: { username: "carol", groups: ["system:masters", "system:authenticated"] } },
      { token: 'tok,with"quote', line: 5, user: { username: "dave", uid: "uid-4", groups: ['team "a"', "system:authenticated"] } },
    ]);
  });

  it("keeps whitespace as part of fields and accepts a last line without newline", () => {
    const [entry] = parseTokenFile(" tok , user name ,u", "f");
    expect(entry.token).toBe(" tok ");
    expect(entry.user.username).toBe(" user name ");
  });

  it("does not add system:authenticated twice", () => {
    const [entry] = parseTokenFile('t,u,1,"system:authenticated,x"\n', "f");
    expect(entry.user.groups).toEqual(["system:authenticated", "x"]);
  });

  it("splits the group column on every comma as kube does", () => {
    expect(parseTokenFile("t,u,1,\n", "f")[0].user.groups).toEqual(["", "system:authenticated"]);
  });

  it("counts lines of a quoted field that spans lines", () => {
    const entries = parseTokenFile('t1,u1,1,"a\nb"\nt2,u2,2\n', "f");
    expect(entries.map((e) => [e.user.username, e.line])).toEqual([["u1", 1], ["u2", 3]]);
    expect(entries[0].user.groups).toEqual(["a\nb", "system:authenticated"]);
  });

  it("names the file and line of a short record, never the token", () => {
    const msg = messageOf(() => parseTokenFile("good-token,u,1\n\nSECRET-token,user2\n", "/etc/k/tokens.csv"));
    expect(msg).toBe("token file '/etc/k/tokens.csv' must have at least 3 columns (token, user name, user uid), found 2 on line 3");
    expect(msg).not.toContain("SECRET");
  });

  it("reports CSV syntax errors with Go's wording, line and column, never the token", () => {
    const bare = messageOf(() => parseTokenFile('ok,u,1\nSECRET"x,u,1\n', "t.csv"));
    expect(bare).toBe("token file 't.csv': parse error on line 2, column 7: bare \" in non-quoted-field");
    const extraneous = messageOf(() => parseTokenFile('"SECRET"x,u,1\n', "t.csv"));
    expect(extraneous).toBe("token file 't.csv': parse error on line 1, column 8: extraneous or missing \" in quoted-field");
    const unterminated = messageOf(() => parseTokenFile('a,b,c\n"SECRET,u,1\nnext\n', "t.csv"));
    expect(unterminated).toMatch(/^token file 't\.csv': record on line 2; parse error on line 3, column \d+: extraneous or missing " in quoted-field$/);
    for (const m of [bare, extraneous, unterminated]) expect(m).not.toContain("SECRET");
  });

  it("refuses an empty user name", () => {
    expect(messageOf(() => parseTokenFile("SECRET,,1\n", "f"))).toBe("token file 'f' has an empty user name on line 1");
  });

  it("skips empty tokens and lets a repeated token replace the earlier record, with warnings", () => {
    const warnings: string[] = [];
    const entries = parseTokenFile(",nobody,0\nSECRET-dup,first,1\nother,o,2\nSECRET-dup,second,3\n", "f", { onWarning: (w) => warnings.push(w) });
    expect(entries.map((e) => e.user.username)).toEqual(["o", "second"]);
    expect(warnings).toEqual([
      "empty token has been found in token file 'f', record number '1' (line 1)",
      "duplicate token has been found in token file 'f', record number '4' (line 4)",
    ]);
    expect(warnings.join()).not.toContain("SECRET");
  });

  it("accepts an empty file", () => {
    expect(parseTokenFile("", "f")).toEqual([]);
    expect(parseTokenFile("\n\n", "f")).toEqual([]);
  });
});

describe("loadTokenFile", () => {
  it("reads the file and names it in errors", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cc-tokenfile-"));
    try {
      const file = path.join(dir, "tokens.csv");
      writeFileSync(file, "t,u,1\n");
      expect(loadTokenFile(file)[0].user.username).toBe("u");
      writeFileSync(file, "t,u\n");
      expect(() => loadTokenFile(file)).toThrow(`token file '${file}' must have at least 3 columns`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("withAuthenticatedGroup", () => {
  it("follows kube's rules for anonymous and unauthenticated users", () => {
    expect(withAuthenticatedGroup({ username: "system:anonymous", groups: [] }).groups).toEqual([]);
    expect(withAuthenticatedGroup({ username: "x", groups: ["system:unauthenticated"] }).groups).toEqual(["system:unauthenticated"]);
    expect(withAuthenticatedGroup({ username: "x", groups: ["g"] }).groups).toEqual(["g", "system:authenticated"]);
  });
});
