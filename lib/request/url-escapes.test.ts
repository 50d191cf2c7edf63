import { describe, expect, it } from "vitest";
import { decodePath, parseQuery, validEscapes } from "./url-escapes";

describe("escapes as Go's net/url reads them", () => {
  it("refuses only an escape that is not two hex digits", () => {
    expect(["/a/%ff%fe", "/a/%00", "/a/%2F", "/a/b"].every(validEscapes)).toBe(true);
    expect(["/a/%zz", "/a/%f", "/a/%", "/a/%g0"].some(validEscapes)).toBe(false);
  });

  it("decodes bytes, keeping those that are not UTF-8 as surrogate escapes", () => {
    expect(decodePath("/p/%ff%fe")).toBe("/p/\udcff\udcfe");
    expect(decodePath("/p/%C3%A9%e2%82")).toBe("/p/é\udce2\udc82");
    expect(decodePath("/p/a%2Fb%00+")).toBe("/p/a/b\u0000+");
    expect(decodePath("/p/%ed%a0%80")).toBe("/p/\udced\udca0\udc80");
    expect(decodePath("/p/%zz")).toBeUndefined();
  });

  it("parses a query as url.ParseQuery, leaving out the pairs it reports", () => {
    const q = parseQuery("a=%zz&b=1+2&c=%ff&d;e=3&f&=g");
    expect([...q]).toEqual([["b", "1 2"], ["c", "\ufffd"], ["f", ""], ["", "g"]]);
  });
});
