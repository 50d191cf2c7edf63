import { describe, expect, it } from "vitest";
import { quotaRow, quotaRows, quotaScopes } from "./quota-usage";

describe("quota bars", () => {
  it("compares quantities across units and suffixes", () => {
    expect(quotaRow("requests.cpu", "1", "500m")).toMatchObject({ percent: 50, level: "ok" });
    expect(quotaRow("requests.memory", "2Gi", "1536Mi")).toMatchObject({ percent: 75, level: "ok" });
    expect(quotaRow("pods", "10", "9")).toMatchObject({ percent: 90, level: "high" });
    expect(quotaRow("limits.cpu", "2", "2000m")).toMatchObject({ percent: 100, level: "full" });
  });

  it("shows a quota lowered below its usage as over, with a full bar", () => {
    expect(quotaRow("pods", "2", "3")).toMatchObject({ percent: 100, level: "over" });
    expect(quotaRow("pods", "0", "1")).toMatchObject({ level: "over" });
    expect(quotaRow("pods", "0", "0")).toMatchObject({ level: "full" });
  });

  it("keeps exact precision where floats would not", () => {
    // 1 of 3 pods is 33.33 %, and a huge hard value does not round the usage away.
    expect(quotaRow("pods", "3", "1").percent).toBe(33.33);
    expect(quotaRow("requests.storage", "8Ei", "1").percent).toBe(0);
    expect(quotaRow("requests.storage", "8Ei", "1").level).toBe("ok");
  });

  it("has no bar until the controller has counted, or when a value is not a quantity", () => {
    expect(quotaRow("pods", "10", undefined)).toEqual({ resource: "pods", hard: "10", used: undefined, level: "unknown" });
    expect(quotaRow("pods", "ten", "1").percent).toBeUndefined();
  });

  it("lists status.hard sorted by name, falling back to spec.hard before the first count", () => {
    const counted = { metadata: { name: "q" }, spec: { hard: { pods: "5" } }, status: { hard: { pods: "4", "requests.cpu": "1" }, used: { pods: "1", "requests.cpu": "250m" } } };
    expect(quotaRows(counted).map((r) => [r.resource, r.hard, r.used, r.percent])).toEqual([
      ["pods", "4", "1", 25],
      ["requests.cpu", "1", "250m", 25],
    ]);
    const fresh = { metadata: { name: "q" }, spec: { hard: { services: "2", pods: "5" } } };
    expect(quotaRows(fresh).map((r) => [r.resource, r.level])).toEqual([
      ["pods", "unknown"],
      ["services", "unknown"],
    ]);
  });

  it("names scopes and scope selector expressions", () => {
    expect(quotaScopes({ metadata: {}, spec: { scopes: ["BestEffort"], scopeSelector: { matchExpressions: [{ scopeName: "PriorityClass", operator: "In", values: ["high"] }] } } })).toEqual([
      "BestEffort",
      "PriorityClass In (high)",
    ]);
  });
});
