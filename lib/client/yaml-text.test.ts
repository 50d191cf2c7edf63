import { describe, expect, it } from "vitest";
import { fieldPathToRange, parseFieldPath, parseYamlDocuments, parseYamlObject, toYaml, YamlSyntaxError } from "./yaml-text";

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
});
