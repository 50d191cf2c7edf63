import { describe, expect, it } from "vitest";
import { readWatchStream } from "./watch-stream";

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream({
    start(c) {
      for (const chunk of chunks) c.enqueue(enc.encode(chunk));
      c.close();
    },
  });
}

describe("readWatchStream", () => {
  it("carries partial lines across chunks and reads a final unterminated line", async () => {
    const events: unknown[] = [];
    await readWatchStream(streamOf(['{"type":"ADD', 'ED","object":{"a":1}}\n\n{"type":"DELETED",', '"object":{"b":2}}']), (e) => events.push(e));
    expect(events).toEqual([
      { type: "ADDED", object: { a: 1 } },
      { type: "DELETED", object: { b: 2 } },
    ]);
  });
});
