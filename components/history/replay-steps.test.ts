import { describe, expect, it } from "vitest";
import { namespaceAt, replaySteps, type ReplayChange } from "./replay-steps";

const change = (rv: number, type: ReplayChange["type"], resource: string, name: string, v?: string): ReplayChange => ({
  resourceVersion: String(rv),
  time: new Date(1_700_000_000_000 + rv * 1000).toISOString(),
  type,
  resource,
  object: { apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: "ns", resourceVersion: String(rv) }, ...(v ? { data: { v } } : {}) },
});

// As the history API answers: newest first.
const newestFirst = [
  change(15, "DELETED", "configmaps", "old"),
  change(14, "MODIFIED", "configmaps", "web", "two"),
  change(12, "ADDED", "secrets", "web"),
  change(11, "ADDED", "configmaps", "web", "one"),
];

const summary = (at: number) => namespaceAt(replaySteps(newestFirst), at).map((o) => `${o.resource}/${o.name}:${o.state}${o.change ? `@${o.change.resourceVersion}` : ""}${o.changedHere ? "*" : ""}`);

describe("namespace replay", () => {
  it("orders the steps as they happened, by revision", () => {
    expect(replaySteps(newestFirst).map((c) => c.resourceVersion)).toEqual(["11", "12", "14", "15"]);
  });

  it("an hour ago: objects the window creates are not there yet, the others stand as before the window", () => {
    expect(summary(-1)).toEqual(["configmaps/old:older", "configmaps/web:gone", "secrets/web:gone"]);
  });

  it("each step shows every object as its last change left it, and marks the one that changed", () => {
    expect(summary(0)).toEqual(["configmaps/old:older", "configmaps/web:present@11*", "secrets/web:gone"]);
    expect(summary(2)).toEqual(["configmaps/old:older", "configmaps/web:present@14*", "secrets/web:present@12"]);
    expect(summary(3)).toEqual(["configmaps/old:gone@15*", "configmaps/web:present@14", "secrets/web:present@12"]);
  });

  it("keeps the content of each step's revision", () => {
    const web = (at: number) => namespaceAt(replaySteps(newestFirst), at).find((o) => o.key === "configmaps/web")!;
    expect((web(1).change!.object as { data?: { v: string } }).data?.v).toBe("one");
    expect((web(3).change!.object as { data?: { v: string } }).data?.v).toBe("two");
  });

  it("an object deleted and created again in the window is there after its re-creation", () => {
    const steps = replaySteps([change(3, "ADDED", "configmaps", "a"), change(2, "DELETED", "configmaps", "a"), change(1, "MODIFIED", "configmaps", "a")]);
    expect(namespaceAt(steps, -1).map((o) => o.state)).toEqual(["older"]);
    expect(namespaceAt(steps, 1).map((o) => o.state)).toEqual(["gone"]);
    expect(namespaceAt(steps, 2).map((o) => o.state)).toEqual(["present"]);
  });
});
