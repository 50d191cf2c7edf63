import { describe, expect, it } from "vitest";
import { goQuote } from "../status";
import { goFloat, goValue, kubeField } from "./field-errors";

describe("kube 1.32's rendering of field errors", () => {
  it("bad values as Go prints them", () => {
    expect(goValue("a\"b")).toBe('"a\\"b"');
    expect(goValue(null)).toBe('"null"');
    expect(goValue(3)).toBe("3");
    expect(goValue(true)).toBe("true");
    expect(goValue({ b: 1, a: ["x"] })).toBe('map[string]interface {}{"a":[]interface {}{"x"}, "b":1}');
    expect(goQuote("tab\there")).toBe('"tab\\there"');
  });

  it("floats as Go's %v: exponent form from 1e+06 and below 1e-04", () => {
    expect(goFloat(0.5)).toBe("0.5");
    expect(goFloat(123456.5)).toBe("123456.5");
    expect(goFloat(1000000)).toBe("1e+06");
    expect(goFloat(2000000.5)).toBe("2.0000005e+06");
    expect(goFloat(0.00001)).toBe("1e-05");
    expect(goFloat(0.0001)).toBe("0.0001");
  });

  it("each error type's words", () => {
    expect(kubeField.tooLong("a", 5).detail).toBe("Too long: may not be more than 5 bytes");
    expect(kubeField.tooLong("a", 1).detail).toBe("Too long: may not be more than 1 byte");
    expect(kubeField.tooMany("a", 4, 3).detail).toBe("Too many: 4: must have at most 3 items");
    expect(kubeField.notSupported("a", "x", ["b", "c"]).detail).toBe('Unsupported value: "x": supported values: "b", "c"');
    expect(kubeField.typeInvalid("a", "string", "m")).toEqual({ type: "FieldValueTypeInvalid", field: "a", detail: 'Invalid value: "string": m' });
    expect(kubeField.required("a").detail).toBe("Required value");
    expect(kubeField.forbidden("a", "no").detail).toBe("Forbidden: no");
    expect(kubeField.duplicate("a", "x").detail).toBe('Duplicate value: "x"');
  });
});
