import { describe, expect, it } from "vitest";
import { chunkFrame, writeFrame } from "./http1-chunks";

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

describe("writeFrame", () => {
  it("gathers one tick's frames to a socket into one write, in order, and leaves the socket uncorked after", async () => {
    const net = await import("node:net");
    const received: Buffer[] = [];
    const server = net.createServer((s) => s.on("data", (d: Buffer) => received.push(d)));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as { port: number }).port;
    const socket = net.connect(port, "127.0.0.1");
    await new Promise<void>((r) => socket.once("connect", () => r()));
    const writes: number[] = [];
    const inner = socket._writev!.bind(socket);
    socket._writev = (chunks, cb) => { writes.push(chunks.length); inner(chunks, cb); };
    const frames = ["a", "bb", "ccc"].map((x) => chunkFrame(Buffer.from(x)));
    for (const f of frames) writeFrame(socket, f);
    expect(socket.writableCorked).toBe(1);
    await new Promise((r) => setTimeout(r, 100));
    expect(socket.writableCorked).toBe(0);
    expect(writes).toEqual([3]);
    expect(Buffer.concat(received).toString()).toBe("1\r\na\r\n2\r\nbb\r\n3\r\nccc\r\n");
    socket.destroy();
    await new Promise((r) => server.close(r));
  });
});
