import { describe, expect, it } from "vitest";
import { compileGoPattern, goRegexpError } from "./go-regexp";

describe("Go patterns", () => {
  it("run as ECMAScript, with Go's flags, named groups and identity escapes", () => {
    expect(compileGoPattern("(?i)^abc$")!.test("ABC")).toBe(true);
    expect(compileGoPattern("^(?P<scheme>https?)\\:\\/\\/")!.test("https://x")).toBe(true);
    expect(compileGoPattern("^[a-z0-9]([\\-a-z0-9]*[a-z0-9])?$")!.test("my-name")).toBe(true);
    expect(compileGoPattern("^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$")!.test("500Mi")).toBe(true);
  });

  it("names the refusals Go certainly makes, with Go's messages, and only those", () => {
    expect(goRegexpError("^(abc$")).toBe("error parsing regexp: missing closing ): `^(abc$`");
    expect(goRegexpError("abc)")).toBe("error parsing regexp: unexpected ): `abc)`");
    expect(goRegexpError("^[a-z")).toBe("error parsing regexp: missing closing ]: `[a-z`");
    expect(goRegexpError("*a")).toBe("error parsing regexp: missing argument to repetition operator: `*`");
    expect(goRegexpError("a**")).toBe("error parsing regexp: invalid nested repetition operator: `**`");
    expect(goRegexpError("abc\\")).toBe("error parsing regexp: trailing backslash at end of expression: ``");
    for (const ok of ["^[]a]$", "^a+?$", "^(?:a|b)*$", "[[:alpha:]]+", "^\\d{1,3}(\\.\\d{1,3}){3}$", "a|*b".slice(0, 1)]) {
      expect(goRegexpError(ok)).toBeUndefined();
    }
  });
});
