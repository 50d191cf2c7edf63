import { describe, expect, it } from "vitest";
import { historyRequest } from "../request/history-path";
import { historyAttributes, requestAttributes } from "./request-attributes";

const user = { username: "u", groups: ["system:authenticated"] };
const q = (s = "") => new URLSearchParams(s);

describe("requestAttributes", () => {
  it("reads list, watch and a field-selected name from a collection path", () => {
    expect(requestAttributes(user, "GET", "/api/v1/namespaces/ns/configmaps", q())).toMatchObject({ verb: "list", resource: "configmaps", namespace: "ns", name: "" });
    expect(requestAttributes(user, "GET", "/api/v1/namespaces/ns/configmaps", q("watch=1&fieldSelector=metadata.name%3Da"))).toMatchObject({ verb: "watch", name: "a" });
    expect(requestAttributes(user, "DELETE", "/apis/apps/v1/namespaces/ns/deployments", q())).toMatchObject({ verb: "deletecollection", apiGroup: "apps" });
  });

  it("authorizes a path that names nothing real as what it would be", () => {
    expect(requestAttributes(user, "GET", "/apis/nothing.example/v1/widgets/w", q())).toMatchObject({ type: "resource", verb: "get", apiGroup: "nothing.example", resource: "widgets", name: "w" });
    expect(requestAttributes(user, "GET", "/metrics", q())).toEqual({ type: "nonResource", user, verb: "get", path: "/metrics" });
  });
});

describe("historyAttributes", () => {
  it("authorizes deleted-object listings as list and an object's history as get on the object", () => {
    const deleted = historyRequest("GET", "/apis/history.cluster-core.dev/v1/namespaces/ns/deleted/roles.rbac.authorization.k8s.io")!;
    expect(historyAttributes(user, deleted, q())).toMatchObject({ verb: "list", apiGroup: "rbac.authorization.k8s.io", resource: "roles", namespace: "ns", name: "" });
    const object = historyRequest("GET", "/api/v1/namespaces/ns/secrets/s/history")!;
    expect(historyAttributes(user, object, q())).toMatchObject({ verb: "get", apiGroup: "", resource: "secrets", subresource: "", namespace: "ns", name: "s" });
  });
});
