import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseArgs } from "./cli";

describe("snapshot command line", () => {
  const env = { INIT_CWD: "/home/me" };
  it("reads the store from DATABASE_URL, else DATA_DIR, else ./data, and FILE relative to where npm ran", () => {
    expect(parseArgs(["save", "b.snap"], env)).toEqual({ command: "save", file: "/home/me/b.snap", databaseUrl: `file:${path.resolve("data")}/cluster-core.db`, force: false });
    expect(parseArgs(["save", "/x/b.snap", "--force"], { ...env, DATA_DIR: "/srv/cc" }).databaseUrl).toBe("file:/srv/cc/cluster-core.db");
    expect(parseArgs(["restore", "b.snap"], { ...env, DATA_DIR: "/srv/cc", DATABASE_URL: "postgresql://u@h/db" }).databaseUrl).toBe("postgresql://u@h/db");
  });

  it("lets --data-dir and --database-url override the environment", () => {
    expect(parseArgs(["restore", "b.snap", "--data-dir", "new"], { ...env, DATABASE_URL: "postgresql://u@h/db" }).databaseUrl).toBe("file:/home/me/new/cluster-core.db");
    expect(parseArgs(["restore", "b.snap", "--database-url=postgresql://u@h/other"], { ...env, DATA_DIR: "/srv/cc" }).databaseUrl).toBe("postgresql://u@h/other");
  });

  it.each([
    [[], /^usage: npm run snapshot -- save FILE/],
    [["save"], /^usage:/],
    [["backup", "x"], /^usage:/],
    [["save", "a", "b"], /^usage:/],
    [["save", "a", "--bogus"], /^unknown option --bogus/],
    [["restore", "a", "--force"], /^--force applies to save only/],
    [["save", "a", "--data-dir"], /^--data-dir needs a value/],
  ])("refuses %j", (argv, message) => {
    expect(() => parseArgs(argv as string[], env)).toThrow(message);
  });
});
