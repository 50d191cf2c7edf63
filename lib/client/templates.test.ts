import { describe, expect, it } from "vitest";
import { kinds } from "../kinds";
import { templateObject, templateYaml } from "./templates";
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
});
