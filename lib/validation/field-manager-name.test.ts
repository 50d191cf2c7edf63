import { describe, expect, it } from "vitest";
import { isPrintable } from "./field-manager-name";

describe("isPrintable", () => {
  it("accepts printable characters and spaces, refuses control characters", () => {
    expect(isPrintable("kubectl client")).toBe(true);
    expect(isPrintable("tab\there")).toBe(false);
  });
});
