// The cluster-admin bearer token: the configured one, or a generated one persisted in <dataDir>/admin-token.
// Never prints anything; error messages never contain a token.
import { randomBytes } from "node:crypto";
import { chmodSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { createFileExclusive, PRIVATE_MODE, writeFileAtomic } from "../fs/atomic-file";

export const ADMIN_TOKEN_FILE = "admin-token";

/** A fresh token: 32 random bytes, base64url (43 characters). */
export function generateToken(): string {
  return randomBytes(32).toString("base64url");
}

const USABLE_TOKEN = /^[\x21-\x7e]+$/;

export interface EnsureAdminTokenOptions {
  dataDir: string;
  /** A token from configuration (CLUSTER_ADMIN_TOKEN); when set it wins and nothing is read or written. */
  configured?: string;
}

/** Path of the persisted admin token inside a data directory. */
export function adminTokenPath(dataDir: string): string {
  return path.join(dataDir, ADMIN_TOKEN_FILE);
}

function readExisting(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  const token = text.trim();
  if (token === "") return undefined;
  if (!USABLE_TOKEN.test(token)) {
    throw new Error(`${file} must hold one token of visible ASCII characters without spaces; fix or delete the file`);
  }
  // Tighten permissions if someone loosened them.
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  return token;
}

/**
 * Returns the admin token: `configured` if given, otherwise the token stored in <dataDir>/admin-token,
 * otherwise a newly generated one that is written there with mode 0600 (an empty file is replaced).
 */
export function ensureAdminToken({ dataDir, configured }: EnsureAdminTokenOptions): string {
  if (configured !== undefined && configured.trim() !== "") {
    const token = configured.trim();
    if (!USABLE_TOKEN.test(token)) throw new Error("the configured admin token must contain only visible ASCII characters without spaces");
    return token;
  }
  return ensureSecretFile(adminTokenPath(path.resolve(dataDir)));
}

/**
 * A random secret kept in `file` (mode 0600): read if present, otherwise generated and written. Used for the
 * admin token and the console's session-signing secret.
 */
export function ensureSecretFile(file: string): string {
  const existing = readExisting(file);
  if (existing !== undefined) return existing;

  const token = generateToken();
  if (!createFileExclusive(file, `${token}\n`, PRIVATE_MODE)) {
    // Either another process created it just now (use theirs), or it exists but is empty (replace it).
    const raced = readExisting(file);
    if (raced !== undefined) return raced;
    writeFileAtomic(file, `${token}\n`, PRIVATE_MODE);
  }
  return token;
}
