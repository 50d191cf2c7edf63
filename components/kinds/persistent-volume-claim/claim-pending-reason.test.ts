import { describe, expect, it } from "vitest";
import type { KubeObject } from "@/lib/kinds";
import { claimPendingReason, claimPendingReasons } from "./claim-pending-reason";

const claim = (name: string, phase: string | undefined, uid = `${name}-uid`) =>
  ({ kind: "PersistentVolumeClaim", metadata: { name, namespace: "a", uid }, spec: {}, status: phase ? { phase } : undefined }) as KubeObject;
let n = 0;
const event = (claimName: string, reason: string, message: string, lastTimestamp: string, extra: Record<string, unknown> = {}) =>
  ({
    kind: "Event",
    metadata: { name: `${claimName}.${++n}`, namespace: "a" },
    involvedObject: { kind: "PersistentVolumeClaim", namespace: "a", name: claimName, uid: `${claimName}-uid` },
    type: reason === "FailedBinding" ? "Normal" : "Warning",
    reason,
    message,
    lastTimestamp,
    ...extra,
  }) as KubeObject;

const noVolume = "no persistent volumes available for this claim and no storage class is set";
const noClass = 'storageclass.storage.k8s.io "fast-ssd" not found';

describe("claimPendingReason", () => {
  it("says no volume matches when the binder found none and no class is set", () => {
    expect(claimPendingReason(claim("data", "Pending"), [event("data", "FailedBinding", noVolume, "2026-11-28T03:00:00Z")])).toEqual({
      reason: "FailedBinding",
      headline: "No volume matches this claim",
      message: noVolume,
    });
  });

  it("names a storage class that does not exist", () => {
    expect(claimPendingReason(claim("data", "Pending"), [event("data", "ProvisioningFailed", noClass, "2026-11-28T03:00:00Z")])?.headline).toBe('Storage class "fast-ssd" not found');
  });

  it("the newest of the binder's Events wins; other Events and other claims' are ignored", () => {
    const events = [
      event("data", "ProvisioningFailed", noClass, "2026-11-28T03:00:00Z"),
      event("data", "FailedBinding", noVolume, "2026-11-28T03:05:00Z"),
      event("data", "Resizing", "whatever", "2026-11-28T03:09:00Z"),
      event("other", "ProvisioningFailed", noClass, "2026-11-28T03:10:00Z"),
    ];
    expect(claimPendingReason(claim("data", "Pending"), events)?.reason).toBe("FailedBinding");
  });

  it("a Bound claim, or a claim being deleted, has no reason; nor one the binder said nothing about", () => {
    const events = [event("data", "FailedBinding", noVolume, "2026-11-28T03:00:00Z")];
    expect(claimPendingReason(claim("data", "Bound"), events)).toBeUndefined();
    const deleting = claim("data", "Pending");
    deleting.metadata.deletionTimestamp = "2026-11-28T03:01:00Z";
    expect(claimPendingReason(deleting, events)).toBeUndefined();
    expect(claimPendingReason(claim("fresh", "Pending"), events)).toBeUndefined();
  });

  it("Events about an earlier claim of the same name are not this one's", () => {
    expect(claimPendingReason(claim("data", "Pending", "new-uid"), [event("data", "FailedBinding", noVolume, "2026-11-28T03:00:00Z")])).toBeUndefined();
  });

  it("reasons for a whole list, keyed as the list cache keys claims", () => {
    const reasons = claimPendingReasons([claim("data", "Pending"), claim("logs", "Pending"), claim("done", "Bound")], [
      event("data", "FailedBinding", noVolume, "2026-11-28T03:00:00Z"),
      event("logs", "ProvisioningFailed", noClass, "2026-11-28T03:00:00Z"),
      event("done", "FailedBinding", noVolume, "2026-11-28T03:00:00Z"),
    ]);
    expect([...reasons].map(([k, r]) => `${k}: ${r.headline}`)).toEqual(["a/data: No volume matches this claim", 'a/logs: Storage class "fast-ssd" not found']);
  });
});
