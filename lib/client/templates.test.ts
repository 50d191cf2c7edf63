import { describe, expect, it } from "vitest";
import { kindByPlural, kinds, type AnyKind } from "../kinds";
import { createsByNameOnly, objectNamed, templateObject, templateYaml } from "./templates";
import { parseYamlObject } from "./yaml-text";

describe("templates", () => {
  it("gives every kind a template that round-trips through YAML, namespaced where the kind is", () => {
    for (const kind of kinds) {
      const obj = parseYamlObject(templateYaml(kind, "team-a"));
      expect(obj.kind).toBe(kind.kind);
      expect(obj.metadata.name).toBeTruthy();
      expect(obj.metadata.namespace).toBe(kind.namespaced ? "team-a" : undefined);
    }
  });

  it("never mutates the kind's own template", () => {
    const kind = kinds.find((k) => k.namespaced)!;
    templateObject(kind, "x");
    expect(kind.template.metadata.namespace).toBeUndefined();
  });

  it("offers the name-only dialog for a kind whose template is just a name, not for one with content", () => {
    const base = kindByPlural("configmaps")!;
    const namespaceLike: AnyKind = { ...base, kind: "Namespace", plural: "namespaces", namespaced: false, template: { apiVersion: "v1", kind: "Namespace", metadata: { name: "example", labels: { team: "a" } }, spec: {} } };
    expect(createsByNameOnly(namespaceLike)).toBe(true);
    expect(createsByNameOnly(kindByPlural("pods")!)).toBe(false);
    expect(objectNamed(namespaceLike, "team-b")).toEqual({ apiVersion: "v1", kind: "Namespace", metadata: { name: "team-b" }, spec: {} });
  });
});
