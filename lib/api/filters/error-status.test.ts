import { describe, expect, it } from "vitest";
import { errors } from "../../status";
import { apiRequest, context, testRuntime } from "../test-support";
import { withErrorStatus } from "./error-status";

const rt = testRuntime(() => true, { audit: () => {} });

async function answer(err: unknown, accept?: string) {
  const ctx = context(rt, apiRequest("GET", "/api/v1/namespaces/d/configmaps/a", accept ? { accept } : {}));
  ctx.audit = { requestURI: "/", verb: "get", sourceIPs: [], code: 0, received: new Date(), completed: new Date() };
  const res = await withErrorStatus(async () => { throw err; }, rt)(ctx);
  return { res, ctx };
}

describe("error status", () => {
  it("answers a thrown StatusError as kube's Status in the negotiated type, noted for audit", async () => {
    const { res, ctx } = await answer(errors.notFound("configmaps", "a"), "application/yaml");
    expect(res.status).toBe(404);
    expect(res.headers["content-type"]).toBe("application/yaml");
    expect(String(res.body)).toContain("reason: NotFound");
    expect(ctx.audit?.status).toEqual({ status: "Failure", message: `configmaps "a" not found`, reason: "NotFound" });
  });

  it("writes the Status as indented JSON when nothing acceptable can carry it, and any other error as a 500", async () => {
    const { res } = await answer(errors.notFound("configmaps", "a"), "text/html");
    expect(res.headers["content-type"]).toBe("application/json");
    expect(String(res.body)).toMatch(/^\{\n  "kind": "Status"/);
    const internal = (await answer(new Error("boom"))).res;
    expect(internal.status).toBe(500);
    expect(JSON.parse(String(internal.body))).toMatchObject({ kind: "Status", code: 500, reason: "InternalError" });
  });

  it("answers a synchronous throw as a rejection is answered, and passes a synchronous answer through as is", async () => {
    const ctx = context(rt, apiRequest("GET", "/api/v1/namespaces/d/configmaps/a"));
    const thrown = withErrorStatus(() => { throw errors.notFound("configmaps", "a"); }, rt)(ctx);
    expect(thrown).not.toBeInstanceOf(Promise);
    expect((thrown as { status: number }).status).toBe(404);
    const rejected = await withErrorStatus(() => Promise.reject(errors.notFound("configmaps", "a")), rt)(ctx);
    expect(rejected.body).toEqual((thrown as { body: unknown }).body);
    const fine = { status: 200, headers: {} };
    expect(withErrorStatus(() => fine, rt)(ctx)).toBe(fine);
  });
});
