import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import type { ApiResponse } from "./types";
import { toApiRequest, writeApiResponse, type NodeRequest, type NodeResponse } from "./node-adapter";

/** An HTTP/1.1 response whose client is connected or already gone, recording what was done to it. */
function response(gone: boolean) {
  const res = Object.assign(new EventEmitter(), {
    destroyed: gone,
    writableLength: 0,
    ended: false,
    writeHead() {},
    flushHeaders() {},
    write: () => true,
    end() { res.ended = true; },
    destroy() {},
  });
  const req = { httpVersionMajor: 1, socket: { destroyed: gone } };
  return { req: req as unknown as NodeRequest, res };
}

function watchAnswer() {
  const seen = { started: 0, stopped: 0 };
  const answer: ApiResponse = {
    status: 200,
    headers: { "content-type": "application/json" },
    stream: {
      timeoutMs: 60_000,
      start: () => {
        seen.started++;
        return () => void seen.stopped++;
      },
    },
  } as ApiResponse;
  return { answer, seen };
}

describe("a watch answer", () => {
  it("whose client went while the request was authorized is stopped at once (its seat and audit settled)", () => {
    const { req, res } = response(true);
    const { answer, seen } = watchAnswer();
    writeApiResponse(req, res as unknown as NodeResponse, answer);
    expect(seen).toEqual({ started: 1, stopped: 1 });
    expect(res.ended).toBe(true);
  });

  it("to a connected client runs until the client goes", () => {
    const { req, res } = response(false);
    const { answer, seen } = watchAnswer();
    writeApiResponse(req, res as unknown as NodeResponse, answer);
    expect(seen).toEqual({ started: 1, stopped: 0 });
    res.emit("close");
    expect(seen).toEqual({ started: 1, stopped: 1 });
  });
});

describe("the request target", () => {
  it("is read as sent: a `%2e%2e` name is not resolved as `..`, a backslash is not a slash", () => {
    const api = toApiRequest({ url: "/api/v1/namespaces/esc/configmaps/%2e%2e/a\\b?labelSelector=%zz&limit=1", method: "GET", headers: {}, httpVersionMajor: 1 } as unknown as NodeRequest);
    expect(api.path).toBe("/api/v1/namespaces/esc/configmaps/%2e%2e/a\\b");
    expect([...api.query]).toEqual([["limit", "1"]]);
  });
});
