import { describe, expect, it } from "vitest";
import { REQUEST_TARGET_HEADER, toApiRequest } from "./fetch-adapter";

describe("the request target of a Next.js route handler", () => {
  it("is the one the front door received, not the WHATWG-resolved URL", () => {
    const sent = "/api/v1/namespaces/esc/configmaps/%2e%2e?labelSelector=%zz&limit=1";
    const request = new Request(`https://localhost${sent}`, { method: "DELETE", headers: { [REQUEST_TARGET_HEADER]: sent } });
    expect(new URL(request.url).pathname).toBe("/api/v1/namespaces/esc/");
    const api = toApiRequest(request);
    expect(api.path).toBe("/api/v1/namespaces/esc/configmaps/%2e%2e");
    expect([...api.query]).toEqual([["limit", "1"]]);
    expect(api.headerNames()).not.toContain(REQUEST_TARGET_HEADER);
  });

  it("without it, is the URL's path and query as they are escaped", () => {
    const api = toApiRequest(new Request("https://localhost/api/v1/namespaces/x/pods/%ff%fe?watch=1"));
    expect(api.path).toBe("/api/v1/namespaces/x/pods/%ff%fe");
    expect(api.query.get("watch")).toBe("1");
  });
});
