// Owner-only (0600) file writes for secrets. Internal to lib/auth.
import { randomBytes } from "node:crypto";
import { chmodSync, closeSync, fsyncSync, linkSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";

const PRIVATE_MODE = 0o600;

function writeTemp(target: string, data: string): string {
  mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
  const fd = openSync(temp, "wx", PRIVATE_MODE);
  try {
    writeSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  chmodSync(temp, PRIVATE_MODE); // the umask may have narrowed it further, never widened; make it exact
  return temp;
}

/** Writes `data` to `target` atomically (temp file + rename) with mode 0600, replacing any existing file. */
export function writePrivateFile(target: string, data: string): void {
  const temp = writeTemp(target, data);
  try {
    renameSync(temp, target);
  } catch (err) {
    try { unlinkSync(temp); } catch { /* already gone */ }
    throw err;
  }
}

/**
 * Creates `target` with mode 0600 only if it does not exist yet (atomic: a concurrent creator wins cleanly).
 * Returns false when the file already existed; its content is left untouched.
 */
export function createPrivateFileExclusive(target: string, data: string): boolean {
  const temp = writeTemp(target, data);
  try {
    linkSync(temp, target);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  } finally {
    try { unlinkSync(temp); } catch { /* already gone */ }
  }
}
