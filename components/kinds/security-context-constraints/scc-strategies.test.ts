import { describe, expect, it } from "vitest";
import { sccFlags, sccStrategies } from "./scc-strategies";

describe("sccStrategies", () => {
  it("reads restricted-style strategies, with the namespace's ranges when none are written", () => {
    const rows = sccStrategies({ metadata: { name: "restricted" }, runAsUser: { type: "MustRunAsRange" }, seLinuxContext: { type: "MustRunAs" }, fsGroup: { type: "MustRunAs" }, supplementalGroups: { type: "RunAsAny" } } as never);
    expect(rows.map((r) => [r.strategy, r.type])).toEqual([["runAsUser", "MustRunAsRange"], ["seLinuxContext", "MustRunAs"], ["fsGroup", "MustRunAs"], ["supplementalGroups", "RunAsAny"]]);
    expect(rows[0].meaning).toMatch(/namespace's range/);
    expect(rows[1].meaning).toMatch(/MCS/);
    expect(rows[3].meaning).toBe("any supplemental groups");
  });

  it("shows written ranges and fixed values", () => {
    const rows = sccStrategies({
      metadata: { name: "x" },
      runAsUser: { type: "MustRunAsRange", uidRangeMin: 1000, uidRangeMax: 2000 },
      seLinuxContext: { type: "MustRunAs", seLinuxOptions: { level: "s0:c1,c2" } },
      fsGroup: { type: "MustRunAs", ranges: [{ min: 5000, max: 5000 }, { min: 6000, max: 6999 }] },
      supplementalGroups: { type: "MayRunAs", ranges: [{ min: 1, max: 10 }] },
    } as never);
    expect(rows.map((r) => r.values)).toEqual(["1000–2000", "level s0:c1,c2", "5000, 6000–6999", "1–10"]);
    expect(rows[0].meaning).toBe("a UID in 1000–2000");
    expect(sccStrategies({ metadata: {}, runAsUser: { type: "MustRunAs", uid: 1001 } } as never)[0]).toMatchObject({ meaning: "must run as UID 1001", values: "uid 1001" });
    expect(sccStrategies({ metadata: {}, runAsUser: { type: "RunAsAny" } } as never)[0].meaning).toBe("any UID, root included");
  });

  it("reads absent host flags as not allowed", () => {
    const flags = Object.fromEntries(sccFlags({ metadata: {}, allowHostNetwork: true } as never).map((f) => [f.label, f.allowed]));
    expect(flags["Host network"]).toBe(true);
    expect(flags["Host PID"]).toBe(false);
    expect(flags["Privileged containers"]).toBe(false);
  });
});
