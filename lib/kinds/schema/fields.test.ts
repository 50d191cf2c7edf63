import { describe, expect, it } from "vitest";
import { kinds } from "../index";
import { findDuplicateJsonKeys, findDuplicateKeys, findDuplicateYamlKeys } from "./duplicate-keys";
import { findUnknownFields, stripUnknownFields } from "./fields";
import { podSchema } from "./pod";
import { parseAllDocuments } from "yaml";

const pod = {
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name: "p", bar: 1, labels: { "a.b/c": "d" } },
  spec: {
    containers: [
      { name: "a", image: "x", foo: true, ports: [{ containerPort: 80, nope: 1 }] },
      { name: "b", image: "y", resources: { limits: { cpu: "1" } } },
    ],
    volumes: [{ name: "v", emptyDir: { medium: "Memory", bogus: "x" } }],
    notAField: [],
  },
  extra: {},
};

describe("findUnknownFields", () => {
  it("reports kube-style paths in document order", () => {
    expect(findUnknownFields(pod, podSchema)).toEqual([
      "metadata.bar",
      "spec.containers[0].foo",
      "spec.containers[0].ports[0].nope",
      "spec.volumes[0].emptyDir.bogus",
      "spec.notAField",
      "extra",
    ]);
  });

  it("finds nothing in every kind's template", () => {
    for (const kind of kinds) expect(findUnknownFields(kind.template, kind.schema!), kind.kind).toEqual([]);
  });

  it("does not descend into values of the wrong type, and map keys are free", () => {
    expect(findUnknownFields({ metadata: "oops", spec: { containers: { x: 1 } } }, podSchema)).toEqual([]);
    expect(findUnknownFields({ metadata: { annotations: { anything: "goes", "x/y": "z" } } }, podSchema)).toEqual([]);
  });

  it("strips unknown fields without touching the input", () => {
    const input = structuredClone(pod);
    const stripped = stripUnknownFields(input, podSchema);
    expect(input).toEqual(pod);
    expect(findUnknownFields(stripped, podSchema)).toEqual([]);
    expect(stripped).toEqual({
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "p", labels: { "a.b/c": "d" } },
      spec: {
        containers: [
          { name: "a", image: "x", ports: [{ containerPort: 80 }] },
          { name: "b", image: "y", resources: { limits: { cpu: "1" } } },
        ],
        volumes: [{ name: "v", emptyDir: { medium: "Memory" } }],
      },
    });
  });

  it("keeps a __proto__ map key as data, never as a prototype", () => {
    const body = JSON.parse('{"metadata":{"labels":{"__proto__":{"polluted":true}}},"__proto__":{"x":1}}');
    const stripped = stripUnknownFields(body, podSchema) as { metadata: { labels: object } };
    expect(Object.getPrototypeOf(stripped.metadata.labels)).toBe(Object.prototype);
    expect(Object.keys(stripped.metadata.labels)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("findDuplicateKeys (JSON)", () => {
  it("reports each repeated key with its path", () => {
    const text = '{"metadata":{"name":"a","name":"b"},"spec":{"containers":[{"name":"x"},{"name":"y","image":"i","name":"z"}]},"metadata":{}}';
    expect(findDuplicateKeys(text)).toEqual(["metadata.name", "spec.containers[1].name", "metadata"]);
  });

  it("compares keys after unescaping, and ignores strings that are values", () => {
    expect(findDuplicateJsonKeys('{"name":"a","na\\u006de":"b"}')).toEqual(["name"]);
    expect(findDuplicateJsonKeys('{"a":"{\\"a\\":1,\\"a\\":2}","b":["a","a"]}')).toEqual([]);
    expect(findDuplicateJsonKeys('[{"k":1},{"k":2,"k":3}]')).toEqual(["[1].k"]);
  });

  it("tolerates malformed input", () => {
    expect(findDuplicateJsonKeys('{"a":1,"a":')).toEqual(["a"]);
    expect(findDuplicateJsonKeys("")).toEqual([]);
    expect(findDuplicateJsonKeys('}}]]{"a":"unterminated')).toEqual([]);
  });

  it("scans a 50,000-key object in one pass", () => {
    const keys = Array.from({ length: 50_000 }, (_, i) => `"k${i}":${i}`);
    keys.push('"k7":0');
    expect(findDuplicateJsonKeys(`{"data":{${keys.join(",")}}}`)).toEqual(["data.k7"]);
  });
});

describe("findDuplicateYamlKeys", () => {
  it("reports repeated mapping keys with their paths", () => {
    const text = "metadata:\n  name: a\n  name: b\nspec:\n  containers:\n  - name: x\n    name: y\n  - {name: z, image: i, image: j}\n";
    expect(findDuplicateYamlKeys(text)).toEqual(["metadata.name", "spec.containers[0].name", "spec.containers[1].image"]);
  });

  it("accepts a document parsed with uniqueKeys: false, and checks the first non-empty document", () => {
    const docs = parseAllDocuments("a: 1\na: 2\n", { uniqueKeys: false });
    const first = (Array.isArray(docs) ? docs : [docs])[0];
    expect(findDuplicateYamlKeys(first)).toEqual(["a"]);
    expect(findDuplicateYamlKeys("---\nb: 1\nb: 2\n---\nc: 1\nc: 2\n")).toEqual(["b"]);
    expect(findDuplicateYamlKeys("")).toEqual([]);
    expect(findDuplicateYamlKeys("1: a\n'1': b\n")).toEqual(["1"]);
  });

  it("handles a 50,000-key mapping (the yaml package's own check is quadratic)", () => {
    let text = "data:\n";
    for (let i = 0; i < 50_000; i++) text += `  k${i}: v\n`;
    text += "  k7: again\n";
    expect(findDuplicateYamlKeys(text)).toEqual(["data.k7"]);
  });

  it("does not follow aliases", () => {
    const text = "a: &x {k: 1, k: 2}\nb: *x\nc: *x\n";
    expect(findDuplicateYamlKeys(text)).toEqual(["a.k"]);
  });
});
