import { describe, expect, it } from "vitest";
import { chunkFrame } from "./http1-chunks";

describe("chunkFrame", () => {
  it("frames a chunk as HTTP/1.1 chunked encoding does: hex length, CRLF, the bytes, CRLF", () => {
    const body = Buffer.from(`{"type":"ADDED","object":${JSON.stringify({ data: "x".repeat(300) })}}\n`);
    const frame = chunkFrame(body);
    expect(frame.toString("latin1")).toBe(`${body.length.toString(16)}\r\n${body.toString("latin1")}\r\n`);
  });

  it("gives every watcher of one event the same bytes, and a new event its own frame", () => {
    const a = Buffer.from("{\"type\":\"ADDED\"}\n");
    const b = Buffer.from("{\"type\":\"DELETED\"}\n");
    const fa = chunkFrame(a);
    expect(chunkFrame(a)).toBe(fa);
    const fb = chunkFrame(b);
    expect(fb).not.toBe(fa);
    expect(fb.toString()).toBe(`13\r\n{"type":"DELETED"}\n\r\n`);
    expect(fa.toString()).toBe(`11\r\n{"type":"ADDED"}\n\r\n`);
  });
});
