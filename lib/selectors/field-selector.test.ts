import { describe, it, expect } from "vitest";
import { StatusError } from "../status";
import {
  checkFieldSelector, escapeFieldValue, formatFieldSelector, matchesFields, parseFieldSelector, pinnedValue,
  MAX_FIELD_REQUIREMENTS, type FieldRequirement,
} from "./field-selector";

function badRequest(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(StatusError);
    const err = e as StatusError;
    expect(err.code).toBe(400);
    expect(err.reason).toBe("BadRequest");
    return err.message;
  }
  throw new Error("expected a 400 BadRequest");
}

const eq = (field: string, value: string): FieldRequirement => ({ field, operator: "=", value });
const ne = (field: string, value: string): FieldRequirement => ({ field, operator: "!=", value });

describe("parseFieldSelector: accepted text", () => {
  const cases: [string, FieldRequirement[]][] = [
    ["", []],
    [",", []],
    ["metadata.name=foo", [eq("metadata.name", "foo")]],
    ["metadata.name==foo", [eq("metadata.name", "foo")]],
    ["metadata.name!=foo", [ne("metadata.name", "foo")]],
    ["spec.nodeName=", [eq("spec.nodeName", "")]],
    ["a=1,,b!=2", [eq("a", "1"), ne("b", "2")]],
    // sorted by raw term text, as Kubernetes does
    ["z=1,a=2", [eq("a", "2"), eq("z", "1")]],
    // escapes
    ["a=x\\,y", [eq("a", "x,y")]],
    ["a=x\\=y", [eq("a", "x=y")]],
    ["a=x\\\\y", [eq("a", "x\\y")]],
    ["a=x\\\\,b=y", [eq("a", "x\\"), eq("b", "y")]],
    ["a!=\\,\\=\\\\", [ne("a", ",=\\")]],
    // no trimming: whitespace belongs to the field and value
    [" a = b ", [eq(" a ", " b ")]],
    // the first operator wins; an empty field is syntactically fine (the field check rejects it)
    ["a!=!b", [ne("a", "!b")]],
    ["=x", [eq("", "x")]],
    ["a=é", [eq("a", "é")]],
  ];
  it.each(cases)("%j", (text, want) => {
    expect(parseFieldSelector(text)).toEqual(want);
  });
});

describe("parseFieldSelector: errors", () => {
  const cases: [string, string][] = [
    ["foo", "invalid selector: 'foo'; can't understand 'foo'"],
    ["a=1,foo", "invalid selector: 'a=1,foo'; can't understand 'foo'"],
    ["a!b", "invalid selector: 'a!b'; can't understand 'a!b'"],
    ["b,a", "invalid selector: 'b,a'; can't understand 'a'"], // first bad term in sorted order
    ["a\\,b", "invalid selector: 'a\\,b'; can't understand 'a\\,b'"],
    ["a=b=c", "invalid field selector: unescaped character in value: 61"],
    ["a===b", "invalid field selector: unescaped character in value: 61"],
    ["a=x\\y", "invalid field selector: invalid escape sequence: \\y"],
    ["a=x\\", "invalid field selector: invalid escape sequence: \\"],
  ];
  it.each(cases)("%j", (text, message) => {
    expect(badRequest(() => parseFieldSelector(text))).toBe(message);
  });
});

describe("parseFieldSelector: hostile input stays bounded", () => {
  it("rejects more than the term cap", () => {
    const text = Array.from({ length: MAX_FIELD_REQUIREMENTS + 1 }, (_, i) => `f${i}=v`).join(",");
    expect(badRequest(() => parseFieldSelector(text))).toBe(
      `field selector has too many requirements: must have at most ${MAX_FIELD_REQUIREMENTS}`,
    );
  });
  it("accepts exactly the cap", () => {
    const text = Array.from({ length: MAX_FIELD_REQUIREMENTS }, (_, i) => `f${i}=v`).join(",");
    expect(parseFieldSelector(text)).toHaveLength(MAX_FIELD_REQUIREMENTS);
  });
  it("rejects text over the length cap", () => {
    expect(badRequest(() => parseFieldSelector("a".repeat(2_000_000)))).toMatch(/^field selector is too long/);
  });
  it("finishes on long degenerate inputs", () => {
    const inputs = [
      `a=${"\\,".repeat(400_000)}`,
      `a=${"x".repeat(1_000_000)}`,
      "!".repeat(1_000_000),
      "\\".repeat(1_000_000),
      `${"a".repeat(999_998)}=`,
    ];
    for (const text of inputs) {
      try {
        parseFieldSelector(text);
      } catch (e) {
        expect((e as StatusError).code).toBe(400);
      }
    }
  });
});

describe("matchesFields", () => {
  const fields: Record<string, string> = { "metadata.name": "web-1", "metadata.namespace": "prod", "status.phase": "Running" };
  const valueOf = (f: string) => fields[f] ?? "";
  const cases: [string, boolean][] = [
    ["", true],
    ["metadata.name=web-1", true],
    ["metadata.name==web-1", true],
    ["metadata.name=web-2", false],
    ["metadata.name!=web-2", true],
    ["metadata.name!=web-1", false],
    ["spec.nodeName=", true],   // absent compares as ""
    ["spec.nodeName!=", false],
    ["spec.nodeName=n1", false],
    ["metadata.namespace=prod,status.phase=Running", true],
    ["metadata.namespace=prod,status.phase!=Running", false],
  ];
  it.each(cases)("%j is %s", (text, want) => {
    expect(matchesFields(parseFieldSelector(text), valueOf)).toBe(want);
  });
  it("matches escaped values literally", () => {
    expect(matchesFields(parseFieldSelector("a=x\\,y"), (f) => (f === "a" ? "x,y" : ""))).toBe(true);
  });
});

describe("checkFieldSelector", () => {
  const pod = new Set(["spec.nodeName", "status.phase"]);
  it("always allows metadata.name and metadata.namespace", () => {
    expect(() => checkFieldSelector(parseFieldSelector("metadata.name=a,metadata.namespace=b"), new Set(), "known-only")).not.toThrow();
  });
  it("allows the kind's listed fields", () => {
    expect(() => checkFieldSelector(parseFieldSelector("spec.nodeName=n,status.phase!=Failed"), pod, "label-not-supported")).not.toThrow();
  });
  const cases: [string, ReadonlySet<string>, "label-not-supported" | "known-only", string][] = [
    ["spec.foo=x", pod, "label-not-supported", "field label not supported: spec.foo"],
    ["spec.nodeName=x", new Set(), "known-only", `"spec.nodeName" is not a known field selector: only "metadata.name", "metadata.namespace"`],
    ["=x", new Set(), "known-only", `"" is not a known field selector: only "metadata.name", "metadata.namespace"`],
    [" metadata.name=x", new Set(), "label-not-supported", "field label not supported:  metadata.name"],
    ["b.x=1,a.y=2", new Set(), "label-not-supported", "field label not supported: a.y"], // first in sorted order
    ["metadata.name=a,x\"y=1", new Set(), "known-only", `"x\\"y" is not a known field selector: only "metadata.name", "metadata.namespace"`],
  ];
  it.each(cases)("%j (%s) → 400", (text, supported, style, message) => {
    expect(badRequest(() => checkFieldSelector(parseFieldSelector(text), supported, style))).toBe(message);
  });
});

describe("pinnedValue", () => {
  const cases: [string, string, string | undefined][] = [
    ["metadata.name=a", "metadata.name", "a"],
    ["metadata.name==a", "metadata.name", "a"],
    ["metadata.name=", "metadata.name", ""],
    ["metadata.name!=a", "metadata.name", undefined],
    ["metadata.namespace=ns,metadata.name=a", "metadata.namespace", "ns"],
    ["metadata.namespace=ns", "metadata.name", undefined],
    ["", "metadata.name", undefined],
  ];
  it.each(cases)("%j pins %j to %j", (text, field, want) => {
    expect(pinnedValue(parseFieldSelector(text), field)).toBe(want);
  });
});

describe("formatting", () => {
  it("escapes values and round-trips", () => {
    expect(escapeFieldValue("a,b=c\\d")).toBe("a\\,b\\=c\\\\d");
    const reqs = [eq("a", "x,y=z\\"), ne("b", "")];
    expect(formatFieldSelector(reqs)).toBe("a=x\\,y\\=z\\\\,b!=");
    expect(parseFieldSelector(formatFieldSelector(reqs))).toEqual(reqs);
  });
});
