// The snapshot file format (version 1): JSON lines, one header, one line per object, one end record whose
// SHA-256 covers every byte before it. Written to a temporary file, fsynced and renamed into place, so a
// crash never leaves a file that looks complete; read twice on restore (verify, then load), so a damaged or
// truncated file is refused before anything is written.
//
//   {"format":"cluster-core-snapshot","version":1,"revision":R,"createdAt":"...","source":"sqlite","migrations":[...]}
//   {"resource":"secrets","namespace":"default","name":"db","rev":12,"value":"k8s:enc:aescbc:v1:key1:..."}
//   ...
//   {"end":true,"objects":N,"sha256":"<hex>"}
import { createHash, type Hash } from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";

export const FORMAT = "cluster-core-snapshot";
export const VERSION = 1;

export interface SnapshotHeader {
  format: typeof FORMAT;
  version: typeof VERSION;
  /** The store's revision counter: every object is as it was at this revision. */
  revision: number;
  createdAt: string;
  /** The database kind the snapshot was taken from ("sqlite" or "postgresql"). */
  source: string;
  /** The schema migrations the source store had applied (for information: the records do not depend on them). */
  migrations: string[];
}

/** One current object, exactly as the database holds it (`value` is the stored text: JSON, or kube's encrypted form). */
export interface SnapshotRecord {
  resource: string;
  namespace: string;
  name: string;
  rev: number;
  value: string;
}

export class SnapshotFileError extends Error {}

/** Writes a snapshot file: header, records, end record; `finish` makes it durable and visible at `file`. */
export class SnapshotWriter {
  private readonly hash: Hash = createHash("sha256");
  private count = 0;
  private buffered: string[] = [];
  private bufferedBytes = 0;

  private constructor(private readonly fh: fs.FileHandle, private readonly tmp: string, private readonly file: string) {}

  /** Opens `<file>.partial-<pid>` (mode 0600: a snapshot may hold Secrets) and writes the header. */
  static async create(file: string, header: Omit<SnapshotHeader, "format" | "version">): Promise<SnapshotWriter> {
    const tmp = path.join(path.dirname(file), `.${path.basename(file)}.partial-${process.pid}`);
    const fh = await fs.open(tmp, "w", 0o600);
    const w = new SnapshotWriter(fh, tmp, file);
    await w.line({ format: FORMAT, version: VERSION, ...header });
    return w;
  }

  private async line(value: unknown): Promise<void> {
    const text = `${JSON.stringify(value)}\n`;
    this.hash.update(text);
    this.buffered.push(text);
    this.bufferedBytes += text.length;
    if (this.bufferedBytes > 1 << 20) await this.flush();
  }

  private async flush(): Promise<void> {
    if (!this.buffered.length) return;
    await this.fh.write(this.buffered.join(""));
    this.buffered = [];
    this.bufferedBytes = 0;
  }

  add(record: SnapshotRecord): Promise<void> {
    this.count++;
    return this.line({ resource: record.resource, namespace: record.namespace, name: record.name, rev: record.rev, value: record.value });
  }

  /** Writes the end record, fsyncs and renames into place. Returns the object count and checksum. */
  async finish(): Promise<{ objects: number; sha256: string }> {
    const sha256 = this.hash.digest("hex");
    const end = `${JSON.stringify({ end: true, objects: this.count, sha256 })}\n`;
    this.buffered.push(end);
    await this.flush();
    await this.fh.sync();
    await this.fh.close();
    await fs.rename(this.tmp, this.file);
    return { objects: this.count, sha256 };
  }

  /** Removes the partial file (after a failure). */
  async abort(): Promise<void> {
    await this.fh.close().catch(() => {});
    await fs.rm(this.tmp, { force: true });
  }
}

const isInt = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Splits a byte stream into lines (without the newline); the last piece is returned with `complete: false` when the file does not end in one. */
async function* lines(file: string): AsyncGenerator<{ line: Buffer; complete: boolean }> {
  let rest: Buffer = Buffer.alloc(0);
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    let data = rest.length ? Buffer.concat([rest, chunk]) : chunk;
    let nl: number;
    while ((nl = data.indexOf(0x0a)) >= 0) {
      yield { line: data.subarray(0, nl), complete: true };
      data = data.subarray(nl + 1);
    }
    rest = Buffer.from(data);
  }
  if (rest.length) yield { line: rest, complete: false };
}

/**
 * Reads and checks a whole snapshot file: header, every record, the end record's count and SHA-256, nothing
 * after it. `onRecord` (optional) is called for each record in order, before the checksum is known: a caller
 * that writes must do so in a transaction it rolls back when this throws. Throws SnapshotFileError saying what is wrong.
 */
export async function readSnapshotFile(file: string, onRecord?: (r: SnapshotRecord, header: SnapshotHeader) => Promise<void> | void): Promise<SnapshotHeader & { objects: number; sha256: string }> {
  try {
    await fs.access(file);
  } catch {
    throw new SnapshotFileError(`${file}: no such file`);
  }
  const damaged = (why: string) => new SnapshotFileError(`${file} is damaged or truncated: ${why}`);
  const hash = createHash("sha256");
  let header: SnapshotHeader | undefined;
  let end: { objects: number; sha256: string } | undefined;
  let count = 0;
  let lineNo = 0;
  const seen = new Set<string>();
  for await (const { line, complete } of lines(file)) {
    lineNo++;
    if (end) throw damaged(`data after the end record (line ${lineNo})`);
    if (!complete) throw damaged(`the last line (${lineNo}) is cut off: the file ends without its end record`);
    let value: unknown;
    try {
      value = JSON.parse(line.toString("utf8"));
    } catch {
      throw damaged(`line ${lineNo} is not valid JSON`);
    }
    if (!header) {
      if (!isObject(value) || value.format !== FORMAT) throw new SnapshotFileError(`${file} is not a Cluster Core snapshot`);
      if (value.version !== VERSION) throw new SnapshotFileError(`${file} is a version ${String(value.version)} snapshot; this version reads version ${VERSION}`);
      if (!isInt(value.revision) || typeof value.createdAt !== "string" || typeof value.source !== "string" || !Array.isArray(value.migrations) || !value.migrations.every((m) => typeof m === "string")) {
        throw damaged("the header is incomplete");
      }
      header = value as unknown as SnapshotHeader;
      hash.update(line).update("\n");
      continue;
    }
    if (isObject(value) && value.end === true) {
      if (!isInt(value.objects) || typeof value.sha256 !== "string") throw damaged("the end record is incomplete");
      end = { objects: value.objects, sha256: value.sha256 };
      continue;
    }
    hash.update(line).update("\n");
    if (!isObject(value) || typeof value.resource !== "string" || typeof value.namespace !== "string" || typeof value.name !== "string"
      || !isInt(value.rev) || typeof value.value !== "string" || !value.resource || !value.name) {
      throw damaged(`line ${lineNo} is not an object record`);
    }
    if (value.rev < 1 || value.rev > header.revision) throw damaged(`line ${lineNo} has revision ${value.rev}, outside 1..${header.revision}`);
    const id = `${value.resource}\u0000${value.namespace}\u0000${value.name}`;
    if (seen.has(id)) throw damaged(`line ${lineNo} repeats ${value.resource} ${value.namespace}/${value.name}`);
    seen.add(id);
    count++;
    await onRecord?.(value as unknown as SnapshotRecord, header);
  }
  if (!header) throw new SnapshotFileError(`${file} is empty`);
  if (!end) throw damaged(`it ends without its end record (after ${count} objects)`);
  const sha256 = hash.digest("hex");
  if (end.sha256 !== sha256) throw damaged(`checksum mismatch (the end record says sha256 ${end.sha256}, the content hashes to ${sha256})`);
  if (end.objects !== count) throw damaged(`the end record counts ${end.objects} objects, the file holds ${count}`);
  return { ...header, objects: count, sha256 };
}
