// A body written piece by piece (a list): the pieces of an object with one array (items, rows) made as
// JSON.stringify or YAML would make the whole, item by item, and gathered into chunks of about CHUNK_BYTES,
// so the adapters write a large answer with bounded memory and few writes.
import { stringify as toYaml } from "yaml";

/** About how many bytes go to the client per write. */
export const CHUNK_BYTES = 64 * 1024;

/** `pieces` gathered into Buffers of about `size` bytes (a large Buffer piece is passed on as is, not copied). */
export function* inChunks(pieces: Iterable<string | Uint8Array>, size = CHUNK_BYTES): Generator<Buffer> {
  let pending: (string | Uint8Array)[] = [];
  let length = 0;
  const flush = (): Buffer => {
    const out = pending.every((p) => typeof p === "string")
      ? Buffer.from((pending as string[]).join(""))
      : Buffer.concat(pending.map((p) => (typeof p === "string" ? Buffer.from(p) : p)));
    pending = [];
    length = 0;
    return out;
  };
  for (const piece of pieces) {
    if (typeof piece !== "string" && piece.length >= size) {
      if (pending.length) yield flush();
      yield Buffer.isBuffer(piece) ? piece : Buffer.from(piece.buffer, piece.byteOffset, piece.length);
      continue;
    }
    pending.push(piece);
    length += piece.length;
    if (length >= size) yield flush();
  }
  if (pending.length) yield flush();
}

/**
 * `{ ...head, [key]: items }` as `JSON.stringify(value, null, pretty ? 2 : undefined) + "\n"` writes it, with
 * `items` already serialised one by one (indented by two when pretty). `key` must be the value's last key.
 */
export function* jsonWithArray(head: Record<string, unknown>, key: string, items: Iterable<string>, pretty: boolean): Generator<string> {
  const empty = JSON.stringify({ ...head, [key]: [] }, null, pretty ? 2 : undefined);
  // The empty value ends with `[]}` (compact) or `[]\n}` (indented): everything before `[]` is the head.
  yield empty.slice(0, empty.length - (pretty ? 4 : 3));
  yield "[";
  let first = true;
  for (const item of items) {
    // JSON strings hold no raw newline: every newline of an indented item starts one of its lines.
    if (pretty) yield `${first ? "" : ","}\n    ${item.replaceAll("\n", "\n    ")}`;
    else yield first ? item : `,${item}`;
    first = false;
  }
  yield pretty ? (first ? "]\n}\n" : "\n  ]\n}\n") : "]}\n";
}

/**
 * `{ ...head, [key]: items }` as the yaml package's `stringify(value, { lineWidth: 0 })` writes it, one item
 * at a time (`key` must be the value's last key). Objects are never written as aliases of each other (kube's
 * YAML has none).
 */
export function* yamlWithArray(head: Record<string, unknown>, key: string, items: Iterable<unknown>): Generator<string> {
  const options = { lineWidth: 0, aliasDuplicateObjects: false };
  const empty = toYaml({ ...head, [key]: [] }, options);
  const tail = `${key}: []\n`;
  let first = true;
  for (const item of items) {
    if (first) yield `${empty.slice(0, empty.length - tail.length)}${key}:\n`;
    first = false;
    const lines = toYaml(item, options).split("\n");
    // A sequence entry: `  - ` before its first line, its other lines (blank ones stay blank) four spaces in.
    let out = `  - ${lines[0]}\n`;
    for (let i = 1; i < lines.length - 1; i++) out += lines[i] === "" ? "\n" : `    ${lines[i]}\n`;
    yield out;
  }
  if (first) yield empty;
}
