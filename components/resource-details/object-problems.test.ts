import { describe, expect, it } from "vitest";
import type { KubeObject } from "@/lib/kinds";
import { isTroubleCondition, troubleConditions, warningEvents } from "./object-problems";

describe("isTroubleCondition", () => {
  it("a good condition that is not True is trouble", () => {
    expect(isTroubleCondition({ type: "Ready", status: "False", reason: "ContainersNotReady" })).toBe(true);
    expect(isTroubleCondition({ type: "PodScheduled", status: "Unknown" })).toBe(true);
    expect(isTroubleCondition({ type: "Ready", status: "True" })).toBe(false);
  });

  it("a CRD's names in conflict, or not established, are trouble; terminating is its own banner", () => {
    expect(isTroubleCondition({ type: "NamesAccepted", status: "False", reason: "KindConflict" })).toBe(true);
    expect(isTroubleCondition({ type: "Established", status: "False", reason: "NotAccepted" })).toBe(true);
    expect(isTroubleCondition({ type: "Established", status: "True", reason: "InitialNamesAccepted" })).toBe(false);
    expect(isTroubleCondition({ type: "Terminating", status: "True", reason: "InstanceDeletionInProgress" })).toBe(false);
    expect(isTroubleCondition({ type: "Terminating", status: "True", reason: "InstanceDeletionFailed" })).toBe(true);
  });

  it("another condition is trouble when True and its type or reason names a failure", () => {
    expect(isTroubleCondition({ type: "NamespaceDeletionContentFailure", status: "True", reason: "ContentDeletionFailed" })).toBe(true);
    expect(isTroubleCondition({ type: "DiskPressure", status: "True" })).toBe(true);
    expect(isTroubleCondition({ type: "NamespaceContentRemaining", status: "True", reason: "SomeResourcesRemain" })).toBe(false);
    expect(isTroubleCondition({ type: "NamespaceDeletionDiscoveryFailure", status: "False", reason: "ResourcesDiscovered" })).toBe(false);
    expect(isTroubleCondition({ type: "Resizing", status: "True" })).toBe(false);
  });
});

describe("troubleConditions and warningEvents", () => {
  it("keeps only the conditions that report trouble", () => {
    const pod = { metadata: { name: "p" }, status: { conditions: [{ type: "PodScheduled", status: "True" }, { type: "Ready", status: "False", reason: "ContainersNotReady" }] } } as KubeObject;
    expect(troubleConditions(pod).map((c) => c.type)).toEqual(["Ready"]);
    expect(troubleConditions({ metadata: { name: "c" } } as KubeObject)).toEqual([]);
  });

  it("keeps Warning events, newest first", () => {
    const e = (name: string, type: string, lastTimestamp: string) => ({ metadata: { name }, type, lastTimestamp }) as KubeObject;
    expect(warningEvents([e("a", "Warning", "2026-11-28T03:00:00Z"), e("b", "Normal", "2026-11-28T03:05:00Z"), e("c", "Warning", "2026-11-28T03:02:00Z")]).map((x) => x.metadata.name)).toEqual(["c", "a"]);
  });
});
