// The audit log file: kube-apiserver's --audit-log-path with its lumberjack rotation (--audit-log-maxsize,
// --audit-log-maxbackup, --audit-log-maxage). A request only queues its line; the disk is written from a
// later turn of the event loop, so no request waits on it, and a failing disk never fails a request.
import { mkdir, open, readdir, rename, unlink, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { encodeAuditEvent, type AuditEvent } from "./audit-event";

export interface AuditLogOptions {
  /** File to append to, or `-` for standard output (never rotated). */
  path: string;
  /** Rotate before a write would take the file past this many bytes. */
  maxSizeBytes: number;
  /** Rotated files to keep; 0 keeps all (kube's --audit-log-maxbackup=0). */
  maxBackups: number;
  /** Delete rotated files older than this many days; 0 keeps them regardless of age. */
  maxAgeDays: number;
  /** Lines waiting for the disk beyond this many bytes are dropped (and reported) instead of growing memory. */
  maxPendingBytes?: number;
  /** Where the one-line error report goes. Default: process.stderr. */
  report?: (message: string) => void;
  /** Clock for backup names and max age (tests). */
  now?: () => Date;
}

export const MEGABYTE = 1024 * 1024;
export const DEFAULT_MAX_SIZE_MB = 100;
export const DEFAULT_MAX_BACKUPS = 10;
export const DEFAULT_MAX_AGE_DAYS = 0;
const DEFAULT_MAX_PENDING_BYTES = 64 * MEGABYTE;
const DAY_MS = 24 * 60 * 60 * 1000;
const BACKUP_TIME = /^(\d{4}-\d\d-\d\d)T(\d\d)-(\d\d)-(\d\d\.\d{3})$/;

/** lumberjack's backup name: `<name>-<UTC time as 2006-01-02T15-04-05.000><ext>`. */
export function backupPath(file: string, at: Date): string {
  const ext = path.extname(file);
  const stem = file.slice(0, file.length - ext.length);
  const stamp = at.toISOString().slice(0, -1).replace(/:/g, "-");
  return `${stem}-${stamp}${ext}`;
}

function backupTime(file: string, candidate: string): number | undefined {
  const ext = path.extname(file);
  const prefix = `${path.basename(file, ext)}-`;
  if (!candidate.startsWith(prefix) || !candidate.endsWith(ext)) return undefined;
  const m = BACKUP_TIME.exec(candidate.slice(prefix.length, candidate.length - ext.length));
  if (!m) return undefined;
  const t = Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}Z`);
  return Number.isNaN(t) ? undefined : t;
}

const reasonOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

export class AuditLog {
  private readonly opts: Required<Omit<AuditLogOptions, "report" | "now">>;
  private readonly report: (message: string) => void;
  private readonly now: () => Date;
  private queue: string[] = [];
  private pendingBytes = 0;
  private scheduled = false;
  private flushing: Promise<void> | undefined;
  private closed = false;
  private closing: Promise<void> | undefined;
  private handle: FileHandle | undefined;
  private size = 0;
  private lastBackupMs = 0;
  /** Set while writing fails, so an outage is reported once rather than once per request. */
  private failing = false;
  private dropping = false;

  constructor(opts: AuditLogOptions) {
    this.opts = {
      path: opts.path,
      maxSizeBytes: opts.maxSizeBytes > 0 ? opts.maxSizeBytes : DEFAULT_MAX_SIZE_MB * MEGABYTE,
      maxBackups: Math.max(0, opts.maxBackups),
      maxAgeDays: Math.max(0, opts.maxAgeDays),
      maxPendingBytes: opts.maxPendingBytes ?? DEFAULT_MAX_PENDING_BYTES,
    };
    this.report = opts.report ?? ((message) => { process.stderr.write(`${message}\n`); });
    this.now = opts.now ?? (() => new Date());
    // Open at once so a bad path is reported at start-up, not at the first request.
    if (!this.toStdout) this.run(() => this.ensureOpen());
  }

  /** The settings in force after defaults (maxSizeBytes 0 became 100 MB). */
  get settings(): Readonly<Pick<AuditLogOptions, "path" | "maxSizeBytes" | "maxBackups" | "maxAgeDays">> {
    const { path: file, maxSizeBytes, maxBackups, maxAgeDays } = this.opts;
    return { path: file, maxSizeBytes, maxBackups, maxAgeDays };
  }

  private get toStdout(): boolean {
    return this.opts.path === "-";
  }

  /** Queue one event; returns at once. Events written after close() are ignored. */
  write(event: AuditEvent): void {
    if (this.closed) return;
    const line = encodeAuditEvent(event);
    if (this.pendingBytes + line.length > this.opts.maxPendingBytes) {
      if (!this.dropping) {
        this.dropping = true;
        this.report(`audit log: ${this.opts.path} is not keeping up; dropping audit events`);
      }
      return;
    }
    this.dropping = false;
    this.queue.push(line);
    this.pendingBytes += line.length;
    if (!this.scheduled) {
      this.scheduled = true;
      // One batch per event-loop turn: every request answered in this turn shares one disk write.
      setImmediate(() => {
        this.scheduled = false;
        this.run(() => this.drain());
      });
    }
  }

  /** Resolves when every event queued so far is written (or failed). */
  async flush(): Promise<void> {
    while (this.flushing || this.queue.length) {
      if (!this.flushing) this.run(() => this.drain());
      await this.flushing;
    }
  }

  /** Writes what is queued, then closes the file. Safe to call more than once. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.closed = true;
      await this.flush();
      const handle = this.handle;
      this.handle = undefined;
      await handle?.close().catch(() => undefined);
    })();
    return this.closing;
  }

  // Single flight: at most one disk task at a time, so lines keep their order and rotation never races.
  private run(task: () => Promise<void>): void {
    const previous = this.flushing ?? Promise.resolve();
    const next: Promise<void> = previous.then(task).catch((err) => this.fail(err)).finally(() => {
      if (this.flushing === next) this.flushing = undefined;
    });
    this.flushing = next;
  }

  private fail(err: unknown): void {
    if (!this.failing) {
      this.failing = true;
      this.report(`audit log: cannot write ${this.opts.path}: ${reasonOf(err)}`);
    }
    // Reopen on the next batch: the file may have been removed or the disk may recover.
    const handle = this.handle;
    this.handle = undefined;
    handle?.close().catch(() => undefined);
  }

  private async drain(): Promise<void> {
    while (this.queue.length) {
      const lines = this.queue;
      this.queue = [];
      this.pendingBytes = 0;
      if (this.toStdout) await writeStdout(lines.join(""));
      else await this.append(lines);
      this.failing = false;
    }
  }

  private async append(lines: string[]): Promise<void> {
    let chunk: string[] = [];
    let chunkBytes = 0;
    for (const line of lines) {
      const bytes = Buffer.byteLength(line);
      await this.ensureOpen();
      const used = this.size + chunkBytes;
      // A single line larger than the limit still gets written, alone in a fresh file: an audit line is never dropped for size.
      if (used > 0 && used + bytes > this.opts.maxSizeBytes) {
        await this.writeChunk(chunk.join(""), chunkBytes);
        chunk = [];
        chunkBytes = 0;
        await this.rotate();
      }
      chunk.push(line);
      chunkBytes += bytes;
    }
    await this.writeChunk(chunk.join(""), chunkBytes);
  }

  private async writeChunk(text: string, bytes: number): Promise<void> {
    if (!bytes) return;
    await this.ensureOpen();
    await this.handle!.write(text);
    this.size += bytes;
  }

  private async ensureOpen(): Promise<void> {
    if (this.handle) return;
    await mkdir(path.dirname(path.resolve(this.opts.path)), { recursive: true, mode: 0o700 });
    await this.removeOldBackups();
    const handle = await open(this.opts.path, "a", 0o600);
    try {
      this.size = (await handle.stat()).size;
    } catch (err) {
      await handle.close().catch(() => undefined);
      throw err;
    }
    this.handle = handle;
  }

  private async rotate(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close();
    // Two rotations within one millisecond (tiny limits) must not overwrite each other's backup.
    const at = Math.max(this.now().getTime(), this.lastBackupMs + 1);
    this.lastBackupMs = at;
    await rename(this.opts.path, backupPath(this.opts.path, new Date(at)));
    await this.ensureOpen();
  }

  /** lumberjack's mill: keep the newest maxBackups backups, and none older than maxAgeDays. */
  private async removeOldBackups(): Promise<void> {
    const { maxBackups, maxAgeDays } = this.opts;
    if (!maxBackups && !maxAgeDays) return;
    const dir = path.dirname(path.resolve(this.opts.path));
    const backups: { name: string; at: number }[] = [];
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      const at = backupTime(this.opts.path, name);
      if (at !== undefined) backups.push({ name, at });
    }
    backups.sort((a, b) => b.at - a.at);
    const cutoff = maxAgeDays ? this.now().getTime() - maxAgeDays * DAY_MS : -Infinity;
    const doomed = backups.filter((b, i) => (maxBackups && i >= maxBackups) || b.at < cutoff);
    await Promise.all(doomed.map((b) => unlink(path.join(dir, b.name)).catch(() => undefined)));
  }
}

function writeStdout(text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(text, (err) => (err ? reject(err) : resolve()));
  });
}

export type Env = Readonly<Record<string, string | undefined>>;

function count(env: Env, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw new Error(`${name} must be a whole number of 0 or more, got ${JSON.stringify(raw)}`);
  }
  return Number(raw);
}

/**
 * The audit log configured by AUDIT_LOG_PATH (unset: no audit log), AUDIT_LOG_MAXSIZE (megabytes, default
 * 100; 0 also means 100, as lumberjack), AUDIT_LOG_MAXBACKUP (default 10; 0 keeps all) and AUDIT_LOG_MAXAGE
 * (days, default 0 = keep). Throws an Error naming the variable when a number is unusable.
 */
export function auditLogFromEnv(env: Env, extra?: Pick<AuditLogOptions, "report" | "now">): AuditLog | undefined {
  const maxSizeMb = count(env, "AUDIT_LOG_MAXSIZE", DEFAULT_MAX_SIZE_MB);
  const maxBackups = count(env, "AUDIT_LOG_MAXBACKUP", DEFAULT_MAX_BACKUPS);
  const maxAgeDays = count(env, "AUDIT_LOG_MAXAGE", DEFAULT_MAX_AGE_DAYS);
  const file = env.AUDIT_LOG_PATH?.trim();
  if (!file) return undefined;
  return new AuditLog({
    path: file === "-" ? "-" : path.resolve(file),
    maxSizeBytes: (maxSizeMb || DEFAULT_MAX_SIZE_MB) * MEGABYTE,
    maxBackups,
    maxAgeDays,
    ...extra,
  });
}
