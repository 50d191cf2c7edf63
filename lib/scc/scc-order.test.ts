import { describe, expect, it } from "vitest";
import { DEFAULT_SCCS } from "../bootstrap/security-context-constraints";
import { securityContextConstraints } from "../kinds/security-context-constraints";
import type { JsonObject } from "../validation/zero-values";
import { pointValue, sortSCCs } from "./scc-order";

/** The SCCs as stored: the kind's defaults applied. */
const stored = () => DEFAULT_SCCS.map((s) => {
  const copy = structuredClone(s);
  securityContextConstraints.applyDefaults!(copy as never);
  return copy as unknown as JsonObject;
});
const names = (list: JsonObject[]) => list.map((s) => (s.metadata as { name: string }).name);

describe("SCC order", () => {
  it("tries the default SCCs in OpenShift's order whatever order they are listed in", () => {
    const expected = ["anyuid", "restricted-v2", "restricted", "nonroot-v2", "nonroot", "hostmount-anyuid", "hostnetwork-v2", "hostnetwork", "hostaccess", "privileged"];
    expect(names(sortSCCs(stored()))).toEqual(expected);
    expect(names(sortSCCs(stored().reverse()))).toEqual(expected);
  });

  it("scores restrictions so that each weaker one outweighs the stronger ones", () => {
    const byName = new Map(stored().map((s) => [(s.metadata as { name: string }).name, s]));
    // nonTrivial volumes 100000 + MustRunAs SELinux 10000 + MustRunAsRange 20000 + caps (5000 + 10 - 3000)
    expect(pointValue(byName.get("restricted-v2")!)).toBe(132_010);
    expect(pointValue(byName.get("restricted")!)).toBe(134_800);
    expect(pointValue(byName.get("privileged")!)).toBe(3_089_000);
  });

  it("puts a higher priority first, and breaks full ties by name", () => {
    const base = { runAsUser: { type: "RunAsAny" }, seLinuxContext: { type: "RunAsAny" }, volumes: ["*"], allowPrivilegedContainer: true };
    const sccs = [
      { ...base, metadata: { name: "b" } },
      { ...base, metadata: { name: "a" } },
      { runAsUser: { type: "MustRunAs" }, seLinuxContext: { type: "MustRunAs" }, metadata: { name: "strict" } },
      { ...base, metadata: { name: "loose-but-high" }, priority: 5 },
    ];
    expect(names(sortSCCs(sccs))).toEqual(["loose-but-high", "strict", "a", "b"]);
  });
});
