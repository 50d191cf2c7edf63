import { describe, expect, it } from "vitest";
import { isNamespaceName, readKnownNamespaces, rememberKnownNamespace, withKnownNamespace } from "./known-namespaces";

function memoryStorage() {
  const map = new Map<string, string>();
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v) };
}

describe("known namespaces", () => {
  it("keeps the most recent first, once each, and only valid names", () => {
    expect(withKnownNamespace(["a", "b"], "b")).toEqual(["b", "a"]);
    expect(withKnownNamespace(["a"], "Not Valid")).toEqual(["a"]);
    expect(withKnownNamespace(["a", "b", "c"], "d", 3)).toEqual(["d", "a", "b"]);
  });

  it("round-trips through storage and survives garbage in it", () => {
    const storage = memoryStorage();
    rememberKnownNamespace("team-a", storage);
    rememberKnownNamespace("default", storage);
    expect(readKnownNamespaces(storage)).toEqual(["default", "team-a"]);
    storage.setItem("cc-known-namespaces", "{not json");
    expect(readKnownNamespaces(storage)).toEqual([]);
  });

  it("accepts DNS-1123 labels only", () => {
    expect(isNamespaceName("team-a")).toBe(true);
    expect(isNamespaceName("\ufffdother")).toBe(false);
    expect(isNamespaceName("-a")).toBe(false);
    expect(isNamespaceName("a".repeat(64))).toBe(false);
  });
});
