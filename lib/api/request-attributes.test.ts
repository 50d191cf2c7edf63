import { describe, expect, it } from "vitest";
import { historyRequest } from "../request/history-path";
import { servedGroups } from "../kinds";
import { parseRequestPath } from "../request/request-info";
import { historyAttributes, requestAttributes, routeAttributes } from "./request-attributes";

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

describe("routeAttributes", () => {
  it("gives, for every path that parses, the attributes requestAttributes reads from the path alone", () => {
    const groups = new Set(servedGroups());
    const prefixes = ["/api/v1", "/apis/rbac.authorization.k8s.io/v1", "/apis/apps/v1", "/apis/authorization.k8s.io/v1", "/apis/authentication.k8s.io/v1", "/apis/nothing.example/v1"];
    const tails = [
      "", "/", "/configmaps", "/configmaps/", "/namespaces", "/namespaces/ns", "/namespaces/ns/", "/namespaces/ns/status", "/namespaces/ns/finalize",
      "/namespaces/ns/configmaps", "/namespaces/ns/configmaps/a", "/namespaces/ns/configmaps/a/", "/namespaces/ns/configmaps//a",
      "/namespaces//configmaps", "/namespaces//configmaps/a", "/namespaces/ns/pods/p/status", "/namespaces/ns/pods/p/log",
      "/namespaces/ns/serviceaccounts/sa/token", "/namespaces/ns/deployments/d/scale", "/nodes", "/nodes/n", "/nodes/n/status",
      "/namespaces/ns/nodes/n", "/watch/namespaces/ns/configmaps", "/watch/namespaces/ns/configmaps/a", "/watch/configmaps", "/watch/namespaces",
      "/watch/namespaces/ns", "/watch", "/proxy/namespaces/ns/pods/p", "/namespaces/ns/roles", "/namespaces/ns/roles/r", "/clusterroles/c",
      "/selfsubjectaccessreviews", "/namespaces/ns/localsubjectaccessreviews", "/tokenreviews", "/tokenreviews/x", "/subjectaccessreviews",
      "/namespaces/n%2Fs/configmaps/a%2Fb", "/namespaces/ns/configmaps/%E2%9C%93", "/namespaces/ns/configmaps/a/b/c",
    ];
    const queries = ["", "watch=1", "watch=false", "fieldSelector=metadata.name%3Dx", "watch=true&fieldSelector=metadata.name%3D%3Dy"];
    let compared = 0;
    for (const prefix of prefixes) {
      for (const tail of tails) {
        const path = prefix + tail;
        let route;
        try { route = parseRequestPath(path, (g) => groups.has(g)); } catch { continue; }
        for (const method of ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
          for (const query of queries) {
            expect(routeAttributes(user, method, path, route, q(query)), `${method} ${path}?${query}`).toEqual(requestAttributes(user, method, path, q(query)));
            compared++;
          }
        }
      }
    }
    for (const path of ["/api", "/apis", "/version", "/healthz", "/readyz/etcd", "/metrics", "/openapi/v2", "/openapi/v3/apis/apps/v1", "/.well-known/openid-configuration"]) {
      expect(routeAttributes(user, "GET", path, parseRequestPath(path), q())).toEqual(requestAttributes(user, "GET", path, q()));
      compared++;
    }
    expect(compared).toBeGreaterThan(1000);
  });
});
