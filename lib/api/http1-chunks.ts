// A watch event on an HTTP/1.1 stream, framed as its chunk once and written straight to the connection: the
// broadcaster hands every watcher the same Buffer for an event, so the frame (`<hex length>\r\n<bytes>\r\n`) is
// made once per event and every watcher's socket gets those same bytes. Through `res.write` node frames each
// write itself: a hex string, four pieces queued, a cork and a nextTick to uncork, per watcher and event.
import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";

let lastChunk: Buffer | undefined;
let lastFrame: Buffer | undefined;

/** `chunk` as one HTTP/1.1 chunk; the same Buffer for the same chunk asked again (one event, many watchers). */
export function chunkFrame(chunk: Buffer): Buffer {
  if (chunk === lastChunk) return lastFrame!;
  const head = `${chunk.length.toString(16)}\r\n`;
  const frame = Buffer.allocUnsafe(head.length + chunk.length + 2);
  frame.write(head, 0, "latin1");
  chunk.copy(frame, head.length);
  frame[frame.length - 2] = 13;
  frame[frame.length - 1] = 10;
  lastChunk = chunk;
  lastFrame = frame;
  return frame;
}

const corked: Socket[] = [];

function uncorkAll(): void {
  for (const socket of corked) socket.uncork();
  corked.length = 0;
}

/**
 * Writes a frame to the socket, gathered with the others written in the same tick (the events of one batch
 * of commits): each socket is corked at its first frame and all are uncorked together once the tick's work is
 * done, so a watcher gets one write (one TLS record) per batch rather than one per event, for one shared
 * nextTick instead of one per socket.
 */
export function writeFrame(socket: Socket, frame: Buffer): void {
  if (!socket.writableCorked) {
    socket.cork();
    if (corked.push(socket) === 1) process.nextTick(uncorkAll);
  }
  socket.write(frame);
}

/** Node's state of a response that this module relies on (internal fields of node:http, stable since v12). */
interface ResponseInternals {
  chunkedEncoding?: boolean;
  _hasBody?: boolean;
  headersSent: boolean;
  outputData?: unknown[];
}

/**
 * The connection a chunked response may write its chunks to directly: its headers are sent, nothing of it
 * waits in node's own queue, and the socket is serving this response (not one pipelined behind another).
 * Undefined otherwise: the caller writes through `res.write`, which orders itself behind what is queued.
 */
export function directSocket(res: ServerResponse): Socket | undefined {
  const r = res as unknown as ResponseInternals;
  const socket = res.socket as (Socket & { _httpMessage?: unknown }) | null;
  if (!socket || socket._httpMessage !== res || !r.headersSent || r.chunkedEncoding !== true || r._hasBody === false) return undefined;
  if (r.outputData && r.outputData.length > 0) return undefined;
  return socket;
}
