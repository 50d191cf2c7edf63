import { describe, expect, it } from "vitest";
import { mcsLabelForBlock, parseBlock, uidBlockAnnotation, uidBlockIndex } from "./namespace-ranges";

describe("namespace ranges", () => {
  it("gives each UID block the MCS level OpenShift pairs with it", () => {
    expect(mcsLabelForBlock(0)).toBe("s0:c1,c0");
    expect(mcsLabelForBlock(1)).toBe("s0:c3,c2");
    expect(mcsLabelForBlock(66)).toBe("s0:c26,c5");
    expect(mcsLabelForBlock(68)).toBe("s0:c26,c15");
  });

  it("reads and writes uid-range annotations", () => {
    expect(uidBlockAnnotation(68)).toBe("1000680000/10000");
    expect(parseBlock("1000680000/10000")).toEqual({ start: 1000680000, end: 1000689999 });
    expect(parseBlock("5-9")).toEqual({ start: 5, end: 9 });
    expect(uidBlockIndex("1000680000/10000")).toBe(68);
    expect(uidBlockIndex("1000680000/5")).toBeUndefined();
    expect(() => parseBlock("x/y")).toThrow('block not in the format "<start>/<size>"');
  });
});
