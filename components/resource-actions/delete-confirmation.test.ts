import { describe, expect, it } from "vitest";
import { confirmationMet, typedConfirmation } from "./delete-confirmation";

const objs = (n: number, namespace?: string, prefix = "cm") => Array.from({ length: n }, (_, i) => ({ metadata: { name: `${prefix}-${i}`, namespace } }));

describe("typed delete confirmation", () => {
  it("20 objects or fewer need only the button", () => {
    expect(typedConfirmation("ConfigMap", objs(20, "a"))).toBeUndefined();
    expect(confirmationMet(undefined, "")).toBe(true);
  });

  it("more than 20 objects in one namespace accept the count or the namespace", () => {
    const rule = typedConfirmation("ConfigMap", objs(21, "team-a"));
    expect(rule?.accepts).toEqual(["21", "team-a"]);
    expect(confirmationMet(rule, "21")).toBe(true);
    expect(confirmationMet(rule, " team-a ")).toBe(true);
    expect(confirmationMet(rule, "20")).toBe(false);
    expect(confirmationMet(rule, "")).toBe(false);
  });

  it("across namespaces (or cluster-scoped), only the count", () => {
    expect(typedConfirmation("ConfigMap", [...objs(15, "a"), ...objs(15, "b")])?.accepts).toEqual(["30"]);
    expect(typedConfirmation("PersistentVolume", objs(25))?.accepts).toEqual(["25"]);
  });

  it("a namespace asks for its exact name; several namespaces for their count", () => {
    const rule = typedConfirmation("Namespace", [{ metadata: { name: "team-a" } }]);
    expect(rule?.accepts).toEqual(["team-a"]);
    expect(rule?.prompt).toContain("team-a");
    expect(confirmationMet(rule, "Team-A")).toBe(false);
    expect(typedConfirmation("Namespace", objs(2, undefined, "ns"))?.accepts).toEqual(["2"]);
  });
});
