// Reads a watch response body (newline-delimited JSON WatchEvents) as it arrives, carrying a partial line
// across chunks, and hands each complete event to the caller.
import type { WatchEvent } from "./apply-watch-event";

export async function readWatchStream(body: ReadableStream<Uint8Array>, onEvent: (event: WatchEvent) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let carry = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      carry += decoder.decode(value, { stream: true });
      let newline = carry.indexOf("\n");
      while (newline >= 0) {
        const line = carry.slice(0, newline).trim();
        carry = carry.slice(newline + 1);
        if (line) onEvent(JSON.parse(line) as WatchEvent);
        newline = carry.indexOf("\n");
      }
    }
    const rest = (carry + decoder.decode()).trim();
    if (rest) onEvent(JSON.parse(rest) as WatchEvent);
  } finally {
    reader.releaseLock();
  }
}
