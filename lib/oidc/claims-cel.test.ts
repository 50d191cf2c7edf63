import { describe, expect, it } from "vitest";
import { celStringList, compileExpression } from "./claims-cel";

describe("claims CEL", () => {
  it("evaluates with kube's types: integers are ints, objects maps, lists lists", () => {
    expect(compileExpression("claims.age + 1", "claims").evaluate({ age: 41 })).toBe(42n);
    expect(compileExpression('claims.org.name + ":" + claims.sub', "claims").evaluate({ org: { name: "acme" }, sub: "ann" })).toBe("acme:ann");
    expect(compileExpression("has(claims.x) ? claims.x : 'none'", "claims").evaluate({})).toBe("none");
    expect(celStringList(compileExpression('claims.groups.map(g, "oidc:" + g)', "claims").evaluate({ groups: ["a", "b"] }))).toEqual(["oidc:a", "oidc:b"]);
    expect(compileExpression("claims.sub.lowerAscii()", "claims").evaluate({ sub: "ANN" })).toBe("ann");
    expect(compileExpression('user.username.startsWith("oidc:")', "user").evaluate({ username: "oidc:ann", groups: [], uid: "", extra: {} })).toBe(true);
  });

  it("reports evaluation errors and string-list shapes as kube does", () => {
    expect(() => compileExpression("claims.missing", "claims").evaluate({})).toThrow();
    expect(celStringList("")).toEqual([]);
    expect(celStringList(null)).toEqual([]);
    expect(() => celStringList(1n)).toThrow("expression must return a string or a list of strings");
    expect(celStringList(compileExpression('["a", "", "b"]', "claims").evaluate({}))).toEqual(["a", "b"]);
  });

  it("compiles comprehensions with their own variables and refuses other names", () => {
    expect(() => compileExpression("claims.groups.exists(g, g == 'admins')", "claims")).not.toThrow();
    expect(() => compileExpression("claims.groups.exists(g, h == 'admins')", "claims")).toThrow(/undeclared reference to 'h'/);
    expect(compileExpression("claims.email_verified && claims.email != ''", "claims").selects).toEqual(new Set(["email_verified", "email"]));
  });
});
