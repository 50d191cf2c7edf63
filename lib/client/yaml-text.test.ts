import { describe, expect, it } from "vitest";
import { causeValue, fieldPathToRange, minimalEdit, parseFieldPath, parseYamlDocuments, parseYamlObject, toYaml, YamlSyntaxError } from "./yaml-text";

const text = `apiVersion: v1
kind: Service
metadata:
  name: web
  labels:
    app.kubernetes.io/name: web
spec:
  ports:
    - name: http
      port: 80
    - name: https
      port: 99999
`;

describe("yaml-text", () => {
  it("round-trips an object without managedFields", () => {
    const yaml = toYaml({ metadata: { name: "a", managedFields: [{}] }, data: { k: "v" } });
    expect(yaml).not.toContain("managedFields");
    expect(parseYamlObject(yaml)).toEqual({ metadata: { name: "a" }, data: { k: "v" } });
  });

  it("reads several documents and skips empty ones", () => {
    expect(parseYamlDocuments("a: 1\n---\n---\nb: 2\n")).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it("throws a YamlSyntaxError with a line for bad syntax", () => {
    try {
      parseYamlObject("a: [1\nb: 2");
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(YamlSyntaxError);
      expect((e as YamlSyntaxError).line).toBeGreaterThan(0);
    }
  });

  it("parses Kubernetes field paths", () => {
    expect(parseFieldPath("spec.ports[1].port")).toEqual(["spec", "ports", 1, "port"]);
    expect(parseFieldPath("metadata.labels[app.kubernetes.io/name]")).toEqual(["metadata", "labels", "app.kubernetes.io/name"]);
  });

  it("maps a field path to its value in the text", () => {
    expect(fieldPathToRange(text, "spec.ports[1].port")).toMatchObject({ startLine: 12, startColumn: 13, exact: true });
    expect(fieldPathToRange(text, "metadata.labels[app.kubernetes.io/name]")).toMatchObject({ startLine: 6, exact: true });
  });

  it("points a missing field at its nearest present parent", () => {
    expect(fieldPathToRange(text, "spec.selector")).toMatchObject({ startLine: 7, exact: false });
  });

  it("finds a key holding dots written as a dotted path, longest key first", () => {
    expect(fieldPathToRange(text, "metadata.labels.app.kubernetes.io/name")).toMatchObject({ startLine: 6, startColumn: 29, exact: true });
  });

  it("lands a map's cause on the entry kube names by its value: the key, or else the value", () => {
    const labelled = "metadata:\n  name: web\n  labels:\n    good: yes\n    bad: -x-\n    \"bad key!\": v\n";
    expect(fieldPathToRange(labelled, "metadata.labels", "-x-")).toMatchObject({ startLine: 5, startColumn: 5, exact: true });
    expect(fieldPathToRange(labelled, "metadata.labels", "bad key!")).toMatchObject({ startLine: 6, startColumn: 5 });
    expect(fieldPathToRange(labelled, "metadata.labels.bad")).toMatchObject({ startLine: 5, exact: true });
    // A value found nowhere keeps the map's own key.
    expect(fieldPathToRange(labelled, "metadata.labels", "nope")).toMatchObject({ startLine: 3, startColumn: 3 });
  });

  it("looks in the document asked for, counting non-empty documents", () => {
    const docs = "kind: ConfigMap\ndata:\n  a: b\n---\n---\nkind: Service\nspec:\n  ports: []\n";
    expect(fieldPathToRange(docs, "spec.ports", undefined, 1)).toMatchObject({ startLine: 8, exact: true });
    expect(fieldPathToRange(docs, "data.a", undefined, 0)).toMatchObject({ startLine: 3, exact: true });
    expect(fieldPathToRange(docs, "data.a", undefined, 2)).toBeUndefined();
  });

  it("reads the value a cause quotes", () => {
    expect(causeValue('Invalid value: "bad label!": name part must consist of ...')).toBe("bad label!");
    expect(causeValue('Invalid value: "a\\"b": x')).toBe('a"b');
    expect(causeValue("Required value")).toBeUndefined();
    expect(causeValue(undefined)).toBeUndefined();
  });
});

describe("minimalEdit", () => {
  it("replaces only the part that differs", () => {
    expect(minimalEdit("abcdef", "abXYef")).toEqual({ start: 2, end: 4, text: "XY" });
    expect(minimalEdit("a: 1\nb: 2\n", "a: 1\nc: 3\nb: 2\n")).toEqual({ start: 5, end: 5, text: "c: 3\n" });
    expect(minimalEdit("aaa", "aa")).toEqual({ start: 2, end: 3, text: "" });
    expect(minimalEdit("same", "same")).toBeUndefined();
  });
});
