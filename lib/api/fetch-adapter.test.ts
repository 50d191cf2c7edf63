import { describe, expect, it } from "vitest";
import { REQUEST_TARGET_HEADER, toApiRequest, toResponse } from "./fetch-adapter";

describe("the request target of a Next.js route handler", () => {
  it("is the one the front door received, not the WHATWG-resolved URL", () => {
    const sent = "/api/v1/namespaces/esc/configmaps/%2e%2e?labelSelector=%zz&limit=1";
    const request = new Request(`https://localhost${sent}`, { method: "DELETE", headers: { [REQUEST_TARGET_HEADER]: sent } });
    expect(new URL(request.url).pathname).toBe("/api/v1/namespaces/esc/");
    const api = toApiRequest(request);
    expect(api.path).toBe("/api/v1/namespaces/esc/configmaps/%2e%2e");
    expect([...api.query]).toEqual([["limit", "1"]]);
    expect(api.headerNamesWith("")).not.toContain(REQUEST_TARGET_HEADER);
  });

  it("without it, is the URL's path and query as they are escaped", () => {
    const api = toApiRequest(new Request("https://localhost/api/v1/namespaces/x/pods/%ff%fe?watch=1"));
    expect(api.path).toBe("/api/v1/namespaces/x/pods/%ff%fe");
    expect(api.query.get("watch")).toBe("1");
  });
});

describe("a chunked answer (a list) through a Next.js route handler", () => {
  function counted(total: number) {
    const state = { made: 0, finished: false };
    function* chunks() {
      try {
        for (let i = 0; i < total; i++) { state.made++; yield Buffer.from(`chunk ${i};`); }
      } finally {
        state.finished = true;
      }
    }
    return { state, chunks: chunks() };
  }

  it("makes a chunk only when the client reads one, and the whole body when it reads on", async () => {
    const { state, chunks } = counted(1000);
    const res = toResponse(new Request("https://localhost/api/v1/configmaps"), { status: 200, headers: { "content-type": "application/json" }, chunks });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    await reader.read();
    await new Promise((r) => setTimeout(r, 20));
    expect(state.made).toBeLessThanOrEqual(2); // a client that stops reading holds about one chunk
    let text = "chunk 0;";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString();
    }
    expect(text).toBe(Array.from({ length: 1000 }, (_, i) => `chunk ${i};`).join(""));
    expect(state.finished).toBe(true);
  });

  it("stops making chunks when the client goes", async () => {
    const { state, chunks } = counted(1000);
    const res = toResponse(new Request("https://localhost/api/v1/configmaps"), { status: 200, headers: {}, chunks });
    const reader = res.body!.getReader();
    await reader.read();
    await reader.cancel();
    expect(state.finished).toBe(true);
    expect(state.made).toBeLessThanOrEqual(2);
  });
});

describe("a watch through a Next.js route handler", () => {
  it("streams its events and ends cleanly at its timeout (the shared timer wheel), stopping the watch", async () => {
    let stopped = 0;
    const res = toResponse(new Request("https://localhost/api/v1/configmaps?watch=1"), {
      status: 200, headers: { "content-type": "application/json" },
      stream: {
        timeoutMs: 300,
        start(sink) {
          sink.send(Buffer.from("{\"type\":\"ADDED\"}\n"));
          return () => void stopped++;
        },
      },
    });
    const started = performance.now();
    let text = "";
    const reader = res.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString();
    }
    const took = performance.now() - started;
    expect(text).toBe("\n{\"type\":\"ADDED\"}\n");
    expect(stopped).toBe(1);
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(2000);
  });
});
