import { describe, expect, it } from "vitest";
import { aggregateMessage, goErrorfNoArgs, goQuote, goQuoteList } from "./go-format";

describe("go-format", () => {
  it("quotes like Go's %q", () => {
    expect(goQuote('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(goQuote("tab\tnl\n\x00")).toBe('"tab\\tnl\\n\\x00"');
    expect(goQuote("héllo 世界")).toBe('"héllo 世界"');
    expect(goQuote("\u200b")).toBe('"\\u200b"');
    expect(goQuoteList(["a", "b"])).toBe('["a" "b"]');
    expect(goQuoteList([])).toBe("[]");
  });

  it("renders aggregate errors as kube does", () => {
    expect(aggregateMessage(["x"])).toBe("x");
    expect(aggregateMessage(["x", "y", "x"])).toBe("[x, y]");
    expect(aggregateMessage(["x", "x"])).toBe("x");
  });

  it("mangles % the way fmt.Errorf without arguments does", () => {
    expect(goErrorfNoArgs("plain")).toBe("plain");
    expect(goErrorfNoArgs("100%% sure")).toBe("100% sure");
    expect(goErrorfNoArgs('User "a%sb"')).toBe('User "a%!s(MISSING)b"');
    expect(goErrorfNoArgs("/x%20y")).toBe("/x%!y(MISSING)");
    expect(goErrorfNoArgs("end%")).toBe("end%!(NOVERB)");
  });
});
