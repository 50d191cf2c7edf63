import { describe, expect, it } from "vitest";
import { listStateFromBody } from "./list-state";

describe("listStateFromBody", () => {
  it("gives each item the type meta its list names (kube's JSON lists leave it off the items)", () => {
    const state = listStateFromBody({
      kind: "ConfigMapList", apiVersion: "v1", metadata: { resourceVersion: "7" },
      items: [{ metadata: { name: "a", namespace: "ns" }, data: { x: "1" } } as never],
    });
    const a = state.items.get("ns/a")!;
    expect(a.kind).toBe("ConfigMap");
    expect(a.apiVersion).toBe("v1");
    expect(Object.keys(a).slice(0, 3)).toEqual(["kind", "apiVersion", "metadata"]);
    expect(state.resourceVersion).toBe("7");
  });

  it("keeps an item's own type meta, and leaves items alone when the list names no kind", () => {
    const own = listStateFromBody({ kind: "RoleList", apiVersion: "rbac.authorization.k8s.io/v1", items: [{ kind: "Role", apiVersion: "rbac.authorization.k8s.io/v1", metadata: { name: "r", namespace: "n" } } as never] });
    expect(own.items.get("n/r")!.kind).toBe("Role");
    const bare = listStateFromBody({ items: [{ metadata: { name: "b" } } as never] });
    expect(bare.items.get("b")!.kind).toBeUndefined();
  });
});
