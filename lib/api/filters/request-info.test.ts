import { describe, expect, it } from "vitest";
import type { RequestContext } from "../context";
import { apiRequest, context, ok, testRuntime } from "../test-support";
import { withRequestInfo } from "./request-info";

const rt = testRuntime(() => true, { audit: () => {} });

async function info(method: string, url: string): Promise<RequestContext> {
  const ctx = context(rt, apiRequest(method, url));
  ctx.user = { username: "alice", groups: [] };
  ctx.audit = { requestURI: url, verb: method.toLowerCase(), sourceIPs: [], code: 0, received: new Date(), completed: new Date() };
  await withRequestInfo(ok, rt)(ctx);
  return ctx;
}

describe("request info", () => {
  it("parses the route and the attributes, and tells audit the verb and object", async () => {
    const ctx = await info("GET", "/apis/rbac.authorization.k8s.io/v1/namespaces/d/roles?watch=true");
    expect(ctx.route).toMatchObject({ type: "resource", namespace: "d", name: undefined });
    expect(ctx.attributes).toMatchObject({ verb: "watch", apiGroup: "rbac.authorization.k8s.io", resource: "roles", namespace: "d", user: ctx.user });
    expect(ctx.audit).toMatchObject({ verb: "watch", objectRef: { resource: "roles", apiGroup: "rbac.authorization.k8s.io", apiVersion: "v1", namespace: "d" } });
  });

  it("keeps a path that names nothing for routing to refuse after authorization, authorized as what it would be", async () => {
    const ctx = await info("DELETE", "/apis/nothing.example/v1/widgets/w");
    expect(ctx.route).toBeUndefined();
    expect(ctx.routeError).toMatchObject({ code: 404 });
    expect(ctx.attributes).toMatchObject({ verb: "delete", apiGroup: "nothing.example", resource: "widgets", name: "w" });
  });

  it("recognises object history and parses the object's path, not the history path", async () => {
    const ctx = await info("GET", "/api/v1/namespaces/d/configmaps/a/history");
    expect(ctx.history).toEqual({ type: "object", objectPath: "/api/v1/namespaces/d/configmaps/a" });
    expect(ctx.route).toMatchObject({ type: "resource", namespace: "d", name: "a", subresource: undefined });
    expect(ctx.attributes).toMatchObject({ verb: "get", resource: "configmaps", name: "a" });
    const changes = await info("GET", "/apis/history.cluster-core.dev/v1/namespaces/d/changes");
    expect(changes.route).toBeUndefined();
    expect(changes.attributes).toMatchObject({ verb: "list", apiGroup: "history.cluster-core.dev", resource: "changes" });
  });

  it("authorizes the caller's namespaces as a SelfSubjectRulesReview, whatever the method (the endpoint refuses all but GET)", async () => {
    for (const method of ["GET", "POST"]) {
      const ctx = await info(method, "/apis/access.cluster-core.dev/v1/selfnamespaces");
      expect(ctx.selfNamespaces).toBe(true);
      expect(ctx.routeError).toBeUndefined();
      expect(ctx.attributes).toMatchObject({ verb: "create", apiGroup: "authorization.k8s.io", resource: "selfsubjectrulesreviews", namespace: "" });
    }
    const other = await info("GET", "/apis/access.cluster-core.dev/v1/selfnamespaces/x");
    expect(other.selfNamespaces).toBe(false);
    expect(other.routeError).toMatchObject({ code: 404 });
  });

  it("gives a non-resource path non-resource attributes", async () => {
    const ctx = await info("GET", "/openapi/v2");
    expect(ctx.route).toEqual({ type: "openapi-v2", path: "/openapi/v2" });
    expect(ctx.attributes).toEqual({ type: "nonResource", user: ctx.user, verb: "get", path: "/openapi/v2" });
    expect(ctx.audit?.objectRef).toBeUndefined();
  });
});
