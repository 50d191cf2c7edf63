import { describe, expect, it } from "vitest";
import { kindByKind } from "../kinds";
import { compare } from "./compare";
import { merge } from "./merge";
import { pathString } from "./path-element";
import { fieldSetOf } from "./to-field-set";
import { validateConfiguration } from "./validate";

const podSchema = kindByKind("Pod")!.schema;
const pod = (spec: object, metadata: object = { name: "p" }) => ({ apiVersion: "v1", kind: "Pod", metadata, spec });
const paths = (set: { paths(): unknown[] }) => (set.paths() as Parameters<typeof pathString>[0][]).map(pathString);

describe("merge", () => {
  it("merges containers by name, keeps the live ones the configuration does not name, and replaces atomic lists", () => {
    const live = pod({ containers: [{ name: "a", image: "a:1", args: ["x", "y"] }, { name: "b", image: "b:1" }] });
    const config = pod({ containers: [{ name: "a", args: ["z"] }] });
    expect(merge(live, config, podSchema)).toEqual(pod({ containers: [{ name: "a", image: "a:1", args: ["z"] }, { name: "b", image: "b:1" }] }));
  });

  it("orders items as SMD: the configuration's order for the items it names, the others in place", () => {
    const live = pod({ containers: [{ name: "a" }, { name: "b" }, { name: "c" }] });
    const config = pod({ containers: [{ name: "c" }, { name: "a" }, { name: "d" }] });
    const merged = merge(live, config, podSchema) as ReturnType<typeof pod>;
    expect((merged.spec as { containers: { name: string }[] }).containers.map((c) => c.name)).toEqual(["b", "c", "a", "d"]);
  });

  it("unions sets and merges ports keyed by containerPort and protocol (TCP when left out)", () => {
    const live = pod({ containers: [{ name: "a", ports: [{ containerPort: 80, protocol: "TCP", name: "http" }] }] }, { name: "p", finalizers: ["x/a"] });
    const config = pod({ containers: [{ name: "a", ports: [{ containerPort: 80, hostPort: 8080 }, { containerPort: 80, protocol: "UDP" }] }] }, { name: "p", finalizers: ["x/b"] });
    expect(merge(live, config, podSchema)).toEqual(pod(
      { containers: [{ name: "a", ports: [{ containerPort: 80, protocol: "TCP", name: "http", hostPort: 8080 }, { containerPort: 80, protocol: "UDP" }] }] },
      { name: "p", finalizers: ["x/a", "x/b"] },
    ));
  });
});

describe("fieldSetOf and compare", () => {
  it("owns leaves, list items and map entries, not the struct fields holding them", () => {
    const set = fieldSetOf(pod({ containers: [{ name: "a", image: "x", env: [{ name: "E", value: "1" }] }] }, { name: "p", labels: { app: "x" } }), podSchema);
    expect(paths(set)).toEqual([
      ".apiVersion", ".kind", ".metadata.name", ".metadata.labels.app",
      '.spec.containers[name="a"]', '.spec.containers[name="a"].image', '.spec.containers[name="a"].name',
      '.spec.containers[name="a"].env[name="E"]', '.spec.containers[name="a"].env[name="E"].name', '.spec.containers[name="a"].env[name="E"].value',
    ]);
  });

  it("reports added, modified and removed leaves, and granular nodes that appear or go as a whole", () => {
    const c = compare(
      pod({ containers: [{ name: "a", image: "x" }] }, { name: "p" }),
      pod({ containers: [{ name: "a", image: "y" }, { name: "b", image: "z" }] }, { name: "p", labels: { app: "x" } }),
      podSchema,
    );
    expect(paths(c.modified)).toEqual(['.spec.containers[name="a"].image']);
    expect(paths(c.added)).toEqual([".metadata.labels", ".metadata.labels.app", '.spec.containers[name="b"]', '.spec.containers[name="b"].image', '.spec.containers[name="b"].name']);
    expect(paths(c.removed)).toEqual([]);
  });
});

describe("validateConfiguration", () => {
  it("words problems as SMD", () => {
    expect(validateConfiguration(pod({ foo: 1 }), podSchema!)).toEqual([".spec.foo: field not declared in schema"]);
    expect(validateConfiguration(pod({ containers: [{ name: "a" }, { name: "a" }] }), podSchema!)).toEqual(['.spec.containers: duplicate entries for key [name="a"]']);
    expect(validateConfiguration(pod({ containers: [{ image: "a" }] }), podSchema!)).toEqual(['.spec.containers: element 0: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)']);
    expect(validateConfiguration(pod({ containers: [{ name: "a", image: 5 }] }), podSchema!)).toEqual(['.spec.containers[name="a"].image: expected string, got &value.valueUnstructured{Value:5}']);
    expect(validateConfiguration(pod({ containers: [{ name: "a", ports: [{ containerPort: 80 }] }] }), podSchema!)).toEqual([]);
  });
});
