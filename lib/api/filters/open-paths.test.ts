import { describe, expect, it } from "vitest";
import type { Handler } from "../context";
import { apiRequest, context, testRuntime } from "../test-support";
import { withOpenPaths } from "./open-paths";

const rt = testRuntime();
const refused: Handler = async () => ({ status: 401, headers: {} });
const handler = withOpenPaths(refused, rt);

describe("open paths", () => {
  it("answers health and version to anyone, counted as routed and not audited", async () => {
    const ctx = context(rt, apiRequest("GET", "/readyz?verbose"));
    const res = await handler(ctx);
    expect(res.status).toBe(200);
    expect(res.body).toContain("readyz check passed");
    expect(ctx.open).toBe(true);
    expect(ctx.routed).toMatchObject({ type: "health", endpoint: "readyz" });
    expect(JSON.parse(String((await handler(context(rt, apiRequest("GET", "/version/")))).body))).toMatchObject({ major: "1", minor: "32" });
  });

  it("sends every other path on to authentication, /metrics and discovery included", async () => {
    for (const path of ["/metrics", "/api", "/healthz/ping/extra", "/api/v1/namespaces"]) {
      const ctx = context(rt, apiRequest("GET", path));
      expect((await handler(ctx)).status).toBe(401);
      expect(ctx.open).toBe(false);
    }
  });
});
