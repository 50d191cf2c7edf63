// Atomic file writes for lib/tls (temp file + rename). Internal to lib/tls.
import { randomBytes } from "node:crypto";
import { chmodSync, closeSync, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";

function writeAtomic(target: string, data: string, mode: number): void {
  mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
  const fd = openSync(temp, "wx", mode);
  try {
    writeSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    chmodSync(temp, mode);
    renameSync(temp, target);
  } catch (err) {
    try { unlinkSync(temp); } catch { /* already gone */ }
    throw err;
  }
}

/** Private keys: mode 0600. */
export function writePrivateFile(target: string, data: string): void {
  writeAtomic(target, data, 0o600);
}

/** Certificates: mode 0644. */
export function writePublicFile(target: string, data: string): void {
  writeAtomic(target, data, 0o644);
}
