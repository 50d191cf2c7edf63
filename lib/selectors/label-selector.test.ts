import { describe, it, expect } from "vitest";
import { StatusError } from "../status";
import {
  equalityValue, formatLabelSelector, labelSelectorFromObject, matchesLabels, parseLabelSelector,
  MAX_LABEL_REQUIREMENTS, type LabelSelector,
} from "./label-selector";

const QN = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LV = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const SUB = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const OPS = "in, notin, =, ==, !=, gt, lt";

/** Runs fn and returns the 400 message it threw (fails the test on anything else). */
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

describe("parseLabelSelector: accepted text", () => {
  const cases: [string, LabelSelector][] = [
    ["", []],
    ["   \t\n", []],
    ["a", [{ key: "a", operator: "Exists", values: [] }]],
    ["!a", [{ key: "a", operator: "DoesNotExist", values: [] }]],
    ["a=b", [{ key: "a", operator: "Equals", values: ["b"] }]],
    ["a==b", [{ key: "a", operator: "Equals", values: ["b"] }]],
    ["a!=b", [{ key: "a", operator: "NotEquals", values: ["b"] }]],
    ["a=", [{ key: "a", operator: "Equals", values: [""] }]],
    ["a!=", [{ key: "a", operator: "NotEquals", values: [""] }]],
    ["a in (x,y)", [{ key: "a", operator: "In", values: ["x", "y"] }]],
    ["a notin (y,x,y)", [{ key: "a", operator: "NotIn", values: ["x", "y"] }]],
    ["a in ()", [{ key: "a", operator: "In", values: [""] }]],
    ["a in (,)", [{ key: "a", operator: "In", values: [""] }]],
    ["a in (b,,c)", [{ key: "a", operator: "In", values: ["", "b", "c"] }]],
    ["a in (b,)", [{ key: "a", operator: "In", values: ["", "b"] }]],
    ["a in(b)", [{ key: "a", operator: "In", values: ["b"] }]],
    ["a>1", [{ key: "a", operator: "GreaterThan", values: ["1"] }]],
    ["a<007", [{ key: "a", operator: "LessThan", values: ["007"] }]],
    ["  a  =  b  ,  !c  , d in ( x , y )  ", [
      { key: "a", operator: "Equals", values: ["b"] },
      { key: "c", operator: "DoesNotExist", values: [] },
      { key: "d", operator: "In", values: ["x", "y"] },
    ]],
    ["z=1,a=2,m", [
      { key: "a", operator: "Equals", values: ["2"] },
      { key: "m", operator: "Exists", values: [] },
      { key: "z", operator: "Equals", values: ["1"] },
    ]],
    ["example.com/app-name_1.x=My_Value-1.2", [{ key: "example.com/app-name_1.x", operator: "Equals", values: ["My_Value-1.2"] }]],
    // `in` / `notin` are identifiers wherever a key or value is expected.
    ["in", [{ key: "in", operator: "Exists", values: [] }]],
    ["a=in", [{ key: "a", operator: "Equals", values: ["in"] }]],
    ["k in (in,notin)", [{ key: "k", operator: "In", values: ["in", "notin"] }]],
    // A NUL ends the input, as in Go's lexer.
    ["a=b \0 junk", [{ key: "a", operator: "Equals", values: ["b"] }]],
  ];
  it.each(cases)("%j", (text, want) => {
    expect(parseLabelSelector(text)).toEqual(want);
  });
});

describe("parseLabelSelector: errors (400, kube-apiserver wording)", () => {
  const cases: [string, string][] = [
    // top-level structure
    [",a", "found ',', expected: !, identifier, or 'end of string'"],
    ["a,", "found '', expected: identifier after ','"],
    ["a,,b", "found ',', expected: identifier after ','"],
    ["a=b c", "found 'c', expected: ',' or 'end of string'"],
    ["a=b=c", "found '=', expected: ',' or 'end of string'"],
    ["!a=b", "found '=', expected: ',' or 'end of string'"],
    ["a in (b)c", "found 'c', expected: ',' or 'end of string'"],
    ["(", "found '(', expected: !, identifier, or 'end of string'"],
    // inside a requirement
    ["!", "unable to parse requirement: found '', expected: identifier"],
    ["!!a", "unable to parse requirement: found '!', expected: identifier"],
    ["a b", `unable to parse requirement: found 'b', expected: ${OPS}`],
    ["kin (a)", `unable to parse requirement: found '(', expected: ${OPS}`],
    ["a in b", "unable to parse requirement: found 'b' expected: '('"],
    ["a in", "unable to parse requirement: found '' expected: '('"],
    ["a in (b", "unable to parse requirement: found '', expected: ',' or ')'"],
    ["a in (b c)", "unable to parse requirement: found 'c', expected: ',' or ')'"],
    ["a in (b,", "unable to parse requirement: found '', expected: ',', or identifier"],
    ["a in (b,=)", "unable to parse requirement: found '=', expected: ',', or identifier"],
    ["a in (=)", "unable to parse requirement: found '=', expected: ',', ')' or identifier"],
    ["a=(", "unable to parse requirement: found '(', expected: identifier"],
    ["a<=1", "unable to parse requirement: found '=', expected: identifier"],
    ["a!==b", "unable to parse requirement: found '=', expected: identifier"],
    // key syntax
    ["app:x=1", `unable to parse requirement: <nil>: Invalid value: "app:x": name part ${QN}`],
    ["a/b/c", `unable to parse requirement: <nil>: Invalid value: "a/b/c": a qualified name ${QN} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`],
    ["/a", `unable to parse requirement: <nil>: Invalid value: "/a": prefix part must be non-empty`],
    ["a/", `unable to parse requirement: <nil>: Invalid value: "a/": name part must be non-empty; name part ${QN}`],
    ["Example.com/a", `unable to parse requirement: <nil>: Invalid value: "Example.com/a": prefix part ${SUB}`],
    [`${"k".repeat(64)}`, `unable to parse requirement: <nil>: Invalid value: "${"k".repeat(64)}": name part must be no more than 63 characters`],
    ["ké", `unable to parse requirement: <nil>: Invalid value: "ké": name part ${QN}`],
    // value syntax
    ["a=-b", `unable to parse requirement: values[0][a]: Invalid value: "-b": ${LV}`],
    [`a=${"v".repeat(64)}`, `unable to parse requirement: values[0][a]: Invalid value: "${"v".repeat(64)}": must be no more than 63 characters`],
    [`a=${"v".repeat(63)}_`, `unable to parse requirement: values[0][a]: Invalid value: "${"v".repeat(63)}_": must be no more than 63 characters; ${LV}`],
    ["a in (z$,b$)", `unable to parse requirement: [values[0][a]: Invalid value: "b$": ${LV}, values[1][a]: Invalid value: "z$": ${LV}]`],
    ["a=\u00a0", `unable to parse requirement: values[0][a]: Invalid value: "\\u00a0": ${LV}`],
    // Gt / Lt values
    ["a>abc", "unable to parse requirement: values[0]: Invalid value: \"abc\": for 'Gt', 'Lt' operators, the value must be an integer"],
    ["a<", "unable to parse requirement: values[0]: Invalid value: \"\": for 'Gt', 'Lt' operators, the value must be an integer"],
    ["a>99999999999999999999", "unable to parse requirement: values[0]: Invalid value: \"99999999999999999999\": for 'Gt', 'Lt' operators, the value must be an integer"],
    ["a>-1", `unable to parse requirement: values[0][a]: Invalid value: "-1": ${LV}`],
    ["a>a$", `unable to parse requirement: [values[0]: Invalid value: "a$": for 'Gt', 'Lt' operators, the value must be an integer, values[0][a]: Invalid value: "a$": ${LV}]`],
  ];
  it.each(cases)("%j", (text, message) => {
    expect(badRequest(() => parseLabelSelector(text))).toBe(message);
  });
});

describe("parseLabelSelector: hostile input stays bounded", () => {
  it("rejects more than the requirement cap with 400", () => {
    const text = Array.from({ length: MAX_LABEL_REQUIREMENTS + 1 }, (_, i) => `k${i}=v`).join(",");
    expect(badRequest(() => parseLabelSelector(text))).toBe(
      `label selector has too many requirements: must have at most ${MAX_LABEL_REQUIREMENTS}`,
    );
  });
  it("accepts exactly the cap", () => {
    const text = Array.from({ length: MAX_LABEL_REQUIREMENTS }, (_, i) => `k${i}`).join(",");
    expect(parseLabelSelector(text)).toHaveLength(MAX_LABEL_REQUIREMENTS);
  });
  it("rejects text over the length cap", () => {
    expect(badRequest(() => parseLabelSelector("a".repeat(2_000_000)))).toMatch(/^label selector is too long/);
  });
  it("finishes on long degenerate inputs", () => {
    const inputs = [
      "a".repeat(1_000_000),                       // one enormous key
      `k=${"a-".repeat(400_000)}!`,                // value that nearly matches
      `k in (${"a,".repeat(300_000)}`,             // unterminated huge set
      `k in (${"a,".repeat(9_000)}b)`,             // big but valid set
      `${"example.".repeat(100_000)}com/a`,        // long prefix
      "(".repeat(1_000_000),
      " ".repeat(1_000_000),
      "!".repeat(1_000_000),
    ];
    for (const text of inputs) {
      try {
        parseLabelSelector(text);
      } catch (e) {
        expect((e as StatusError).code).toBe(400);
      }
    }
  });
});

describe("matchesLabels", () => {
  const labels = { app: "web", tier: "front", n: "10", empty: "" };
  const cases: [string, Record<string, string> | undefined, boolean][] = [
    ["", labels, true],
    ["", undefined, true],
    ["app", labels, true],
    ["missing", labels, false],
    ["!missing", labels, true],
    ["!app", labels, false],
    ["app=web", labels, true],
    ["app==web", labels, true],
    ["app=db", labels, false],
    ["missing=web", labels, false],
    ["empty=", labels, true],
    ["missing=", labels, false],
    ["app!=db", labels, true],
    ["app!=web", labels, false],
    ["missing!=web", labels, true],
    ["app in (db,web)", labels, true],
    ["app in (db)", labels, false],
    ["missing in (web)", labels, false],
    ["empty in ()", labels, true],
    ["app notin (db)", labels, true],
    ["app notin (web,db)", labels, false],
    ["missing notin (web)", labels, true],
    ["n>9", labels, true],
    ["n>10", labels, false],
    ["n<11", labels, true],
    ["n<10", labels, false],
    ["app>1", labels, false],   // label is not an integer
    ["missing>1", labels, false],
    ["missing<1", labels, false],
    ["app=web,tier=front", labels, true],
    ["app=web,tier=back", labels, false],
    ["app", undefined, false],
    ["!app", undefined, true],
    ["app!=x", undefined, true],
  ];
  it.each(cases)("%j on %j is %s", (text, ls, want) => {
    expect(matchesLabels(parseLabelSelector(text), ls)).toBe(want);
  });

  it("handles int64 bounds in Gt/Lt", () => {
    expect(matchesLabels(parseLabelSelector("n<9223372036854775807"), { n: "9223372036854775806" })).toBe(true);
    expect(matchesLabels(parseLabelSelector("n>0"), { n: "9223372036854775808" })).toBe(false); // overflows int64
  });

  it("uses own properties only", () => {
    expect(matchesLabels(parseLabelSelector("toString"), {})).toBe(false);
    expect(matchesLabels(parseLabelSelector("!constructor"), {})).toBe(true);
  });

  it("matches large value sets", () => {
    const values = Array.from({ length: 50 }, (_, i) => `v${i}`);
    const sel = parseLabelSelector(`k in (${values.join(",")})`);
    expect(matchesLabels(sel, { k: "v42" })).toBe(true);
    expect(matchesLabels(sel, { k: "v50" })).toBe(false);
    const not = parseLabelSelector(`k notin (${values.join(",")})`);
    expect(matchesLabels(not, { k: "v42" })).toBe(false);
    expect(matchesLabels(not, { k: "zz" })).toBe(true);
  });

  it("a null selector matches nothing", () => {
    expect(matchesLabels(null, { a: "b" })).toBe(false);
    expect(matchesLabels(null, undefined)).toBe(false);
  });
});

describe("labelSelectorFromObject", () => {
  it("nil is null; empty matches everything", () => {
    expect(labelSelectorFromObject(null)).toBeNull();
    expect(labelSelectorFromObject(undefined)).toBeNull();
    expect(labelSelectorFromObject({})).toEqual([]);
    expect(labelSelectorFromObject({ matchLabels: {}, matchExpressions: [] })).toEqual([]);
    expect(matchesLabels(labelSelectorFromObject({}), { any: "thing" })).toBe(true);
  });

  it("converts matchLabels and every expression operator, sorted by key", () => {
    const sel = labelSelectorFromObject({
      matchLabels: { z: "1", b: "2" },
      matchExpressions: [
        { key: "in", operator: "In", values: ["x", "y"] },
        { key: "notin", operator: "NotIn", values: ["x"] },
        { key: "ex", operator: "Exists" },
        { key: "dne", operator: "DoesNotExist", values: [] },
      ],
    });
    expect(sel).toEqual([
      { key: "b", operator: "Equals", values: ["2"] },
      { key: "dne", operator: "DoesNotExist", values: [] },
      { key: "ex", operator: "Exists", values: [] },
      { key: "in", operator: "In", values: ["x", "y"] },
      { key: "notin", operator: "NotIn", values: ["x"] },
      { key: "z", operator: "Equals", values: ["1"] },
    ]);
    expect(matchesLabels(sel, { b: "2", ex: "", in: "y", z: "1" })).toBe(true);
    expect(matchesLabels(sel, { b: "2", ex: "", in: "y", z: "1", dne: "" })).toBe(false);
    expect(matchesLabels(sel, { b: "2", ex: "", in: "y", z: "1", notin: "x" })).toBe(false);
  });

  const errorCases: [string, Parameters<typeof labelSelectorFromObject>[0], string][] = [
    ["unknown operator", { matchExpressions: [{ key: "a", operator: "Gt", values: ["1"] }] }, `"Gt" is not a valid label selector operator`],
    ["inherited name as operator", { matchExpressions: [{ key: "a", operator: "toString" }] }, `"toString" is not a valid label selector operator`],
    ["In without values", { matchExpressions: [{ key: "a", operator: "In" }] }, "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty"],
    ["NotIn with []", { matchExpressions: [{ key: "a", operator: "NotIn", values: [] }] }, "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty"],
    ["Exists with values", { matchExpressions: [{ key: "a", operator: "Exists", values: ["x", "<y>"] }] }, `[values: Invalid value: ["x","\\u003cy\\u003e"]: values set must be empty for exists and does not exist, values[1][a]: Invalid value: "<y>": ${LV}]`],
    ["bad key", { matchLabels: { "a b": "c" } }, `key: Invalid value: "a b": name part ${QN}`],
    ["bad value", { matchLabels: { a: "b c" } }, `values[0][a]: Invalid value: "b c": ${LV}`],
  ];
  it.each(errorCases)("%s → 400", (_name, obj, message) => {
    expect(badRequest(() => labelSelectorFromObject(obj))).toBe(message);
  });
});

describe("formatLabelSelector", () => {
  const cases: [string, string][] = [
    ["", ""],
    ["a", "a"],
    ["!a", "!a"],
    ["a==b", "a=b"],
    ["a!=b", "a!=b"],
    ["a=", "a="],
    ["a in (y,x)", "a in (x,y)"],
    ["a notin ()", "a notin ()"],
    ["a in (b,,c)", "a in (,b,c)"],
    ["a>1", "a>1"],
    ["a<1", "a<1"],
    ["z=1, !b , a in (x)", "a in (x),!b,z=1"],
  ];
  it.each(cases)("%j → %j, and parses back", (text, want) => {
    const sel = parseLabelSelector(text);
    expect(formatLabelSelector(sel)).toBe(want);
    expect(parseLabelSelector(formatLabelSelector(sel))).toEqual(sel);
  });

  it("sorts hand-built selectors and their set values; null is empty", () => {
    expect(formatLabelSelector([
      { key: "b", operator: "NotIn", values: ["y", "x"] },
      { key: "a", operator: "Equals", values: ["1"] },
    ])).toBe("a=1,b notin (x,y)");
    expect(formatLabelSelector(null)).toBe("");
  });
});

describe("equalityValue", () => {
  const cases: [string, string, string | undefined][] = [
    ["app=web", "app", "web"],
    ["app==web", "app", "web"],
    ["app in (web)", "app", "web"],
    ["app in (web,web)", "app", "web"],
    ["app=", "app", ""],
    ["app in (web,db)", "app", undefined],
    ["app!=web", "app", undefined],
    ["app notin (web)", "app", undefined],
    ["app", "app", undefined],
    ["!app", "app", undefined],
    ["app>1", "app", undefined],
    ["other=web", "app", undefined],
    ["app,app=web", "app", "web"],
    ["", "app", undefined],
  ];
  it.each(cases)("%j pins %j to %j", (text, key, want) => {
    expect(equalityValue(parseLabelSelector(text), key)).toBe(want);
  });
  it("null selector pins nothing", () => {
    expect(equalityValue(null, "a")).toBeUndefined();
  });
});
