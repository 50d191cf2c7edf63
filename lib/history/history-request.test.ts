import { describe, expect, it } from "vitest";
import { historyAttributes, historyRequest } from "./history-request";

const user = { username: "u", groups: ["system:authenticated"] };

describe("historyRequest", () => {
  it("recognises an object's history under its own path, the Namespace's included", () => {
    expect(historyRequest("GET", "/api/v1/namespaces/ns/configmaps/a/history")).toEqual({ type: "object", objectPath: "/api/v1/namespaces/ns/configmaps/a" });
    expect(historyRequest("GET", "/api/v1/namespaces/ns/history")).toEqual({ type: "object", objectPath: "/api/v1/namespaces/ns" });
    expect(historyRequest("GET", "/apis/rbac.authorization.k8s.io/v1/clusterroles/view/history")).toEqual({ type: "object", objectPath: "/apis/rbac.authorization.k8s.io/v1/clusterroles/view" });
  });

  it("leaves objects named history, other methods and longer paths to the usual routing", () => {
    expect(historyRequest("GET", "/api/v1/namespaces/ns/configmaps/history")).toBeUndefined();
    expect(historyRequest("GET", "/api/v1/namespaces/history")).toBeUndefined();
    expect(historyRequest("PUT", "/api/v1/namespaces/ns/configmaps/a/history")).toBeUndefined();
    expect(historyRequest("GET", "/api/v1/namespaces/ns/pods/a/status/history")).toBeUndefined();
    expect(historyRequest("GET", "/api/v1/watch/namespaces/ns/configmaps/a/history")).toBeUndefined();
  });

  it("parses the deleted-object and change listings, authorized as list", () => {
    const deleted = historyRequest("GET", "/apis/history.cluster-core.dev/v1/namespaces/ns/deleted/roles.rbac.authorization.k8s.io")!;
    expect(deleted).toEqual({ type: "deleted", resource: "roles", group: "rbac.authorization.k8s.io", namespace: "ns" });
    expect(historyAttributes(user, deleted, new URLSearchParams())).toMatchObject({ verb: "list", apiGroup: "rbac.authorization.k8s.io", resource: "roles", namespace: "ns", name: "" });
    expect(historyRequest("GET", "/apis/history.cluster-core.dev/v1/deleted/configmaps")).toEqual({ type: "deleted", resource: "configmaps", group: "" });
    expect(historyRequest("GET", "/apis/history.cluster-core.dev/v1/namespaces/ns/changes")).toEqual({ type: "changes", namespace: "ns" });
    expect(historyRequest("GET", "/apis/history.cluster-core.dev/v1/namespaces/ns/other")).toBeUndefined();
    const object = historyRequest("GET", "/api/v1/namespaces/ns/secrets/s/history")!;
    expect(historyAttributes(user, object, new URLSearchParams())).toMatchObject({ verb: "get", apiGroup: "", resource: "secrets", subresource: "", namespace: "ns", name: "s" });
  });
});
