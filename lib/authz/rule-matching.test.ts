import { describe, expect, it } from "vitest";
import type { Attributes } from "./attributes";
import { ruleAllows, type PolicyRule } from "./rule-matching";

const user = { username: "alice", groups: ["system:authenticated"] };

function res(verb: string, resource: string, opts: Partial<{ group: string; sub: string; ns: string; name: string }> = {}): Attributes {
  return {
    type: "resource",
    user,
    verb,
    apiGroup: opts.group ?? "",
    resource,
    subresource: opts.sub ?? "",
    namespace: opts.ns ?? "default",
    name: opts.name ?? "",
  };
}
function path(verb: string, p: string): Attributes {
  return { type: "nonResource", user, verb, path: p };
}

describe("ruleAllows: verbs and groups", () => {
  it("matches a listed verb or *, exactly and case-sensitively", () => {
    const rule: PolicyRule = { verbs: ["get"], apiGroups: [""], resources: ["pods"] };
    expect(ruleAllows(res("get", "pods"), rule)).toBe(true);
    expect(ruleAllows(res("list", "pods"), rule)).toBe(false);
    expect(ruleAllows(res("GET", "pods"), rule)).toBe(false);
    expect(ruleAllows(res("deletecollection", "pods"), { ...rule, verbs: ["*"] })).toBe(true);
  });

  it("treats the core group as the empty string and * as every group", () => {
    const core: PolicyRule = { verbs: ["get"], apiGroups: [""], resources: ["roles"] };
    expect(ruleAllows(res("get", "roles", { group: "rbac.authorization.k8s.io" }), core)).toBe(false);
    expect(ruleAllows(res("get", "roles", { group: "rbac.authorization.k8s.io" }), { ...core, apiGroups: ["*"] })).toBe(true);
    expect(ruleAllows(res("get", "pods"), { verbs: ["get"], resources: ["pods"] })).toBe(false);
  });
});

describe("ruleAllows: resources and subresources", () => {
  const get = (resources: string[]): PolicyRule => ({ verbs: ["get"], apiGroups: [""], resources });

  it("lets * cover every resource and subresource", () => {
    expect(ruleAllows(res("get", "pods", { sub: "log" }), get(["*"]))).toBe(true);
  });

  it("does not let a resource cover its subresources", () => {
    expect(ruleAllows(res("get", "pods", { sub: "status" }), get(["pods"]))).toBe(false);
    expect(ruleAllows(res("get", "pods", { sub: "status" }), get(["pods/status"]))).toBe(true);
    expect(ruleAllows(res("get", "pods"), get(["pods/status"]))).toBe(false);
  });

  it("matches */subresource for any resource with that subresource only", () => {
    expect(ruleAllows(res("get", "deployments", { sub: "scale" }), get(["*/scale"]))).toBe(true);
    expect(ruleAllows(res("get", "pods", { sub: "status" }), get(["*/scale"]))).toBe(false);
    expect(ruleAllows(res("get", "pods"), get(["*/scale"]))).toBe(false);
    expect(ruleAllows(res("get", "pods", { sub: "xscale" }), get(["*/scale"]))).toBe(false);
  });

  it("has no resource/* wildcard, as in kube", () => {
    expect(ruleAllows(res("get", "pods", { sub: "status" }), get(["pods/*"]))).toBe(false);
    expect(ruleAllows(res("get", "pods"), get(["pods/*"]))).toBe(false);
  });

  it("matches create on serviceaccounts/token", () => {
    const rule: PolicyRule = { verbs: ["create"], apiGroups: [""], resources: ["serviceaccounts/token"] };
    expect(ruleAllows(res("create", "serviceaccounts", { sub: "token", name: "default" }), rule)).toBe(true);
    expect(ruleAllows(res("create", "serviceaccounts", { name: "default" }), rule)).toBe(false);
  });
});

describe("ruleAllows: resourceNames", () => {
  const named: PolicyRule = { verbs: ["get", "list", "create"], apiGroups: [""], resources: ["configmaps"], resourceNames: ["a"] };

  it("allows only the listed names", () => {
    expect(ruleAllows(res("get", "configmaps", { name: "a" }), named)).toBe(true);
    expect(ruleAllows(res("get", "configmaps", { name: "b" }), named)).toBe(false);
  });

  it("never matches a request without a name (list, create) when names are listed", () => {
    expect(ruleAllows(res("list", "configmaps"), named)).toBe(false);
    expect(ruleAllows(res("create", "configmaps"), named)).toBe(false);
    const { resourceNames: _drop, ...all } = named;
    expect(ruleAllows(res("list", "configmaps"), all)).toBe(true);
    expect(ruleAllows(res("list", "configmaps"), { ...named, resourceNames: [] })).toBe(true);
  });
});

describe("ruleAllows: non-resource URLs", () => {
  const urls = (nonResourceURLs: string[]): PolicyRule => ({ verbs: ["get"], nonResourceURLs });

  it("matches exact paths, * and trailing-star prefixes", () => {
    expect(ruleAllows(path("get", "/healthz"), urls(["/healthz"]))).toBe(true);
    expect(ruleAllows(path("get", "/healthz/etcd"), urls(["/healthz"]))).toBe(false);
    expect(ruleAllows(path("get", "/apis/apps/v1"), urls(["/apis/*"]))).toBe(true);
    expect(ruleAllows(path("get", "/apis/"), urls(["/apis/*"]))).toBe(true);
    expect(ruleAllows(path("get", "/apis"), urls(["/apis/*"]))).toBe(false);
    expect(ruleAllows(path("get", "/apisx"), urls(["/apis*"]))).toBe(true);
    expect(ruleAllows(path("get", "/anything"), urls(["*"]))).toBe(true);
    expect(ruleAllows(path("post", "/healthz"), urls(["/healthz"]))).toBe(false);
  });

  it("keeps resource and non-resource rules apart", () => {
    expect(ruleAllows(path("get", "/api"), { verbs: ["*"], apiGroups: ["*"], resources: ["*"] })).toBe(false);
    expect(ruleAllows(res("get", "pods"), { verbs: ["*"], nonResourceURLs: ["*"] })).toBe(false);
  });
});
