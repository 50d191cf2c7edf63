import { describe, expect, it } from "vitest";
import { diffStats, lineDiff } from "./line-diff";

const show = (rows: ReturnType<typeof lineDiff>) => rows.map((r) => `${r.op}${r.text}`);

describe("lineDiff", () => {
  it("marks changed lines between unchanged ones, with both line numbers", () => {
    const rows = lineDiff("a: 1\nb: 2\nc: 3\n", "a: 1\nb: 20\nc: 3\nd: 4\n");
    expect(show(rows)).toEqual([" a: 1", "-b: 2", "+b: 20", " c: 3", "+d: 4"]);
    expect(rows[3]).toMatchObject({ oldLine: 3, newLine: 3 });
    expect(rows[4]).toMatchObject({ newLine: 4 });
    expect(diffStats(rows)).toEqual({ removed: 1, added: 2 });
  });

  it("keeps the longest common run when lines move", () => {
    expect(show(lineDiff("x\na\nb\nc\n", "a\nb\nc\nx\n"))).toEqual(["-x", " a", " b", " c", "+x"]);
  });

  it("handles empty sides and identical texts", () => {
    expect(show(lineDiff("", "a\n"))).toEqual(["+a"]);
    expect(show(lineDiff("a\n", ""))).toEqual(["-a"]);
    expect(diffStats(lineDiff("a\nb\n", "a\nb\n"))).toEqual({ removed: 0, added: 0 });
  });
});
