import { describe, expect, it } from "vitest";
import type { Attributes } from "./attributes";
import { forbiddenError, newForbidden } from "./forbidden-message";
import type { StatusError } from "../status";

/** A 403 as its Status shows it: message and details. */
const plain = (e: StatusError) => ({ message: e.message, details: e.details });
const forbiddenStatus = (attrs: Attributes, reason?: string) => plain(forbiddenError(attrs, reason));

const x = { username: "x", groups: ["system:authenticated"] };
function res(verb: string, resource: string, ns: string, o: Partial<{ group: string; sub: string; name: string }> = {}): Attributes {
  return { type: "resource", user: x, verb, apiGroup: o.group ?? "", resource, subresource: o.sub ?? "", namespace: ns, name: o.name ?? "" };
}

describe("forbiddenError", () => {
  it("words a namespaced list", () => {
    expect(forbiddenStatus(res("list", "configmaps", "y"))).toEqual({
      message: 'configmaps is forbidden: User "x" cannot list resource "configmaps" in API group "" in the namespace "y"',
      details: { kind: "configmaps" },
    });
  });

  it("words a cluster-scoped request", () => {
    expect(forbiddenStatus(res("list", "namespaces", "")).message).toBe(
      'namespaces is forbidden: User "x" cannot list resource "namespaces" in API group "" at the cluster scope',
    );
  });

  it("quotes the object name and puts it in details", () => {
    expect(forbiddenStatus(res("get", "pods", "y", { name: "p" }))).toEqual({
      message: 'pods "p" is forbidden: User "x" cannot get resource "pods" in API group "" in the namespace "y"',
      details: { name: "p", kind: "pods" },
    });
  });

  it("shows the subresource in the sentence but not in the group-resource", () => {
    expect(forbiddenStatus(res("create", "serviceaccounts", "y", { sub: "token", name: "default" })).message).toBe(
      'serviceaccounts "default" is forbidden: User "x" cannot create resource "serviceaccounts/token" in API group "" in the namespace "y"',
    );
  });

  it("qualifies resources of named groups", () => {
    expect(forbiddenStatus(res("create", "roles", "y", { group: "rbac.authorization.k8s.io" }))).toEqual({
      message:
        'roles.rbac.authorization.k8s.io is forbidden: User "x" cannot create resource "roles" in API group "rbac.authorization.k8s.io" in the namespace "y"',
      details: { group: "rbac.authorization.k8s.io", kind: "roles" },
    });
  });

  it("words a non-resource path with empty details", () => {
    expect(forbiddenStatus({ type: "nonResource", user: x, verb: "get", path: "/foo" })).toEqual({
      message: 'forbidden: User "x" cannot get path "/foo"',
      details: {},
    });
  });

  it("appends the authorizer's reason", () => {
    expect(forbiddenStatus(res("list", "pods", "y"), 'RBAC: role.rbac.authorization.k8s.io "r" not found').message).toBe(
      'pods is forbidden: User "x" cannot list resource "pods" in API group "" in the namespace "y": RBAC: role.rbac.authorization.k8s.io "r" not found',
    );
  });

  it("escapes HTML and Go-quotes odd user names", () => {
    const odd = { username: '<b>"me"', groups: [] };
    expect(forbiddenStatus({ type: "nonResource", user: odd, verb: "get", path: "/a&b" }).message).toBe(
      'forbidden: User "&lt;b&gt;\\"me\\"" cannot get path "/a&amp;b"',
    );
  });

  it("keeps kube's fmt.Errorf treatment of %", () => {
    expect(forbiddenStatus({ type: "nonResource", user: x, verb: "get", path: "/100%done" }).message).toBe(
      'forbidden: User "x" cannot get path "/100%!d(MISSING)one"',
    );
  });
});

describe("newForbidden", () => {
  it("builds kube's NewForbidden text", () => {
    expect(plain(newForbidden("rbac.authorization.k8s.io", "rolebindings", "rb", "boom"))).toEqual({
      message: 'rolebindings.rbac.authorization.k8s.io "rb" is forbidden: boom',
      details: { name: "rb", group: "rbac.authorization.k8s.io", kind: "rolebindings" },
    });
  });
});
