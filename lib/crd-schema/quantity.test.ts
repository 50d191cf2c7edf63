import { describe, expect, it } from "vitest";
import { celValidationErrors, compileCelValidator } from "./cel-rules";
import { formatQuantity, parseQuantity } from "./quantity";
import type { JSONSchemaProps } from "./types";

describe("quantities", () => {
  it("parse exactly, binary and decimal suffixes and exponents", () => {
    expect(formatQuantity(parseQuantity("1Gi")!)).toBe("1073741824");
    expect(formatQuantity(parseQuantity("1024Mi")!)).toBe("1073741824");
    expect(formatQuantity(parseQuantity("100m")!)).toBe("0.1");
    expect(formatQuantity(parseQuantity("1.5k")!)).toBe("1500");
    expect(formatQuantity(parseQuantity("2e3")!)).toBe("2000");
    expect(formatQuantity(parseQuantity("-0.5")!)).toBe("-0.5");
    expect(formatQuantity(parseQuantity("1n")!)).toBe("0.000000001");
    expect(parseQuantity("1.5Gb")).toBeUndefined();
    expect(parseQuantity("")).toBeUndefined();
  });

  it("kube's CEL quantity library in rules", () => {
    const schema: JSONSchemaProps = {
      type: "object",
      properties: {
        spec: {
          type: "object",
          properties: { request: { type: "string" }, limit: { type: "string" } },
          "x-kubernetes-validations": [
            { rule: "isQuantity(self.request) && isQuantity(self.limit)", message: "not quantities" },
            { rule: "!quantity(self.request).isGreaterThan(quantity(self.limit))", message: "request must not exceed limit" },
            { rule: "quantity(self.limit).compareTo(quantity('64Gi')) <= 0", message: "limit at most 64Gi" },
            { rule: "quantity('1Gi') == quantity('1024Mi') && quantity('1').add(1).asInteger() == 2 && quantity('1.5').isInteger() == false", message: "arithmetic" },
          ],
        },
      },
    };
    const v = compileCelValidator(schema);
    expect(celValidationErrors(v, { spec: { request: "512Mi", limit: "1Gi" } }).errors).toEqual([]);
    expect(celValidationErrors(v, { spec: { request: "200Gi", limit: "128Gi" } }).errors.map((e) => e.detail)).toEqual([
      `Invalid value: "object": request must not exceed limit`,
      `Invalid value: "object": limit at most 64Gi`,
    ]);
    const bad = celValidationErrors(v, { spec: { request: "lots", limit: "1Gi" } }).errors.map((e) => e.detail);
    expect(bad[0]).toBe(`Invalid value: "object": not quantities`);
    expect(bad[1]).toBe(`Invalid value: "object": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$' evaluating rule: request must not exceed limit`);
  });
});
