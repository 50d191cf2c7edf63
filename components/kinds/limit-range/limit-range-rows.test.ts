import { describe, expect, it } from "vitest";
import { limitRangeRows } from "./limit-range-rows";

describe("limit range rows", () => {
  it("lays out each type's resources with min, max, defaults and ratio, in the item order then by resource", () => {
    const rows = limitRangeRows({
      metadata: { name: "lr" },
      spec: {
        limits: [
          { type: "Container", max: { cpu: "1", memory: "1Gi" }, default: { cpu: "500m" }, defaultRequest: { cpu: "100m" }, maxLimitRequestRatio: { cpu: "5" } },
          { type: "PersistentVolumeClaim", min: { storage: "1Gi" } },
        ],
      },
    });
    expect(rows).toEqual([
      { type: "Container", resource: "cpu", min: undefined, max: "1", defaultRequest: "100m", defaultLimit: "500m", maxLimitRequestRatio: "5" },
      { type: "Container", resource: "memory", min: undefined, max: "1Gi", defaultRequest: undefined, defaultLimit: undefined, maxLimitRequestRatio: undefined },
      { type: "PersistentVolumeClaim", resource: "storage", min: "1Gi", max: undefined, defaultRequest: undefined, defaultLimit: undefined, maxLimitRequestRatio: undefined },
    ]);
  });

  it("is empty for a LimitRange without limits", () => {
    expect(limitRangeRows({ metadata: { name: "lr" }, spec: {} })).toEqual([]);
  });
});
