// Crash-safe file writes for secrets, keys and certificates: write a temp file, fsync, then rename (or link,
// for create-only) into place, so a reader never sees a half-written file.
import { randomBytes } from "node:crypto";
import { chmodSync, closeSync, fsyncSync, linkSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";

export const PRIVATE_MODE = 0o600;
export const PUBLIC_MODE = 0o644;

function writeTemp(target: string, data: string, mode: number): string {
  mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
  const fd = openSync(temp, "wx", mode);
  try {
    writeSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  chmodSync(temp, mode); // the umask may have narrowed the mode; make it exact
  return temp;
}

const removeQuietly = (file: string) => {
  try { unlinkSync(file); } catch { /* already gone */ }
};

/** Write `data` to `target` atomically with `mode`, replacing any existing file. */
export function writeFileAtomic(target: string, data: string, mode: number): void {
  const temp = writeTemp(target, data, mode);
  try {
    renameSync(temp, target);
  } catch (err) {
    removeQuietly(temp);
    throw err;
  }
}

/**
 * Create `target` with `mode` only if it does not exist yet (a concurrent creator wins cleanly).
 * Returns false when the file already existed; its content is left untouched.
 */
export function createFileExclusive(target: string, data: string, mode: number): boolean {
  const temp = writeTemp(target, data, mode);
  try {
    linkSync(temp, target);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  } finally {
    removeQuietly(temp);
  }
}
