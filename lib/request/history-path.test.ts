import { describe, expect, it } from "vitest";
import { historyRequest } from "./history-path";

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

  it("parses the deleted-object and change listings", () => {
    expect(historyRequest("GET", "/apis/history.cluster-core.dev/v1/namespaces/ns/deleted/roles.rbac.authorization.k8s.io")).toEqual({ type: "deleted", resource: "roles", group: "rbac.authorization.k8s.io", namespace: "ns" });
    expect(historyRequest("GET", "/apis/history.cluster-core.dev/v1/deleted/configmaps")).toEqual({ type: "deleted", resource: "configmaps", group: "" });
    expect(historyRequest("GET", "/apis/history.cluster-core.dev/v1/namespaces/ns/changes")).toEqual({ type: "changes", namespace: "ns" });
    expect(historyRequest("GET", "/apis/history.cluster-core.dev/v1/namespaces/ns/other")).toBeUndefined();
  });
});
