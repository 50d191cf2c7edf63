import { describe, expect, it } from "vitest";
import {
  canonicalizeResourceList, compareQuantities, isQuantity, parseQuantity, QUANTITY_NUMERIC_ERROR, QUANTITY_REGEX_ERROR,
  QUANTITY_SUFFIX_ERROR, quantityDecodeError, quantityMilliValue, quantityString, quantityValue, roundUpQuantity,
  type Quantity,
} from "./quantity";

const q = (s: unknown): Quantity => {
  const parsed = parseQuantity(s);
  if (!isQuantity(parsed)) throw new Error(`${String(s)}: ${parsed.error}`);
  return parsed;
};
const canonical = (s: unknown) => quantityString(q(s));

describe("quantity grammar", () => {
  it.each([
    ["0", "0"], ["000", "0"], ["-0", "0"], ["1", "1"], ["+1", "1"], ["1000", "1k"], ["1500", "1500"], ["1.5", "1500m"],
    ["0.1", "100m"], [".5", "500m"], ["1.", "1"], ["100m", "100m"], ["1000m", "1"], ["1500m", "1500m"], ["1u", "1u"],
    ["1000n", "1u"], ["0.0000000001", "1n"], ["5Gi", "5Gi"], ["1.5Gi", "1536Mi"], ["2048Ki", "2Mi"], ["1024", "1024"],
    ["0.5Gi", "512Mi"], ["0.5Ki", "512"], ["1Ki", "1Ki"], ["1.5Ki", "1536"], ["1.1Ki", "1126400m"], ["1e3", "1e3"],
    ["1E3", "1e3"], ["1.5e3", "1500"], ["12e2", "1200"], ["1e-3", "1e-3"], ["100M", "100M"], ["1G", "1G"], ["2E", "2E"],
    ["-1Gi", "-1Gi"], ["-1.5", "-1500m"], ["16Ei", "9223372036854775807"], [" 1Mi ", "1Mi"], [1.5, "1500m"], [2, "2"], [null, "0"],
  ])("%j reads back as %s", (input, expected) => {
    expect(canonical(input)).toBe(expected);
  });

  it("caps binary quantities at 2^63-1", () => {
    expect(canonical("9Ei")).toBe("9223372036854775807");
    expect(quantityValue(q("9Ei"))).toBe(2n ** 63n - 1n);
  });

  it.each([
    ["", QUANTITY_REGEX_ERROR], ["abc", QUANTITY_REGEX_ERROR], ["1x", QUANTITY_REGEX_ERROR], ["1KiB", QUANTITY_REGEX_ERROR],
    ["1e3e", QUANTITY_REGEX_ERROR], ["1K", QUANTITY_SUFFIX_ERROR], ["1e", QUANTITY_SUFFIX_ERROR], ["1mi", QUANTITY_SUFFIX_ERROR],
    ["1Gi3", QUANTITY_SUFFIX_ERROR], [true, QUANTITY_REGEX_ERROR], [{}, QUANTITY_REGEX_ERROR],
  ])("%j is refused: %s", (input, error) => {
    expect(parseQuantity(input)).toEqual({ error });
    expect(quantityDecodeError(input)).toBe(error);
  });

  it("keeps numeric error text for the decoder", () => {
    expect(QUANTITY_NUMERIC_ERROR).toBe("unable to parse numeric part of quantity");
  });

  it("compares numerically across suffixes", () => {
    expect(compareQuantities(q("1Gi"), q("1G"))).toBe(1);
    expect(compareQuantities(q("1000m"), q("1"))).toBe(0);
    expect(compareQuantities(q("-1"), q("1m"))).toBe(-1);
    expect(compareQuantities(q("1e100"), q("8Ei"))).toBe(1);
    expect(compareQuantities(q("0"), q("-0"))).toBe(0);
  });

  it("rounds values and milli values away from zero", () => {
    expect(quantityValue(q("1500m"))).toBe(2n);
    expect(quantityValue(q("-1500m"))).toBe(-2n);
    expect(quantityMilliValue(q("1u"))).toBe(1n);
    expect(quantityString(roundUpQuantity(q("0.1m"), -3))).toBe("1m");
  });

  it("rounds a resource list to milli precision and canonical form", () => {
    const list: Record<string, unknown> = { cpu: "0.1m", memory: "1.5Gi", pods: 10, storage: "bad!" };
    canonicalizeResourceList(list);
    expect(list).toEqual({ cpu: "1m", memory: "1536Mi", pods: "10", storage: "bad!" });
  });
});
