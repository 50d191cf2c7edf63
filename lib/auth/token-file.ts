// kube-apiserver's static token file (--token-auth-file): CSV records `token,user,uid[,"group1,group2"]`,
// read the way Go's encoding/csv reader reads it (variable field count, RFC 4180 quoting, blank lines
// skipped, \r\n normalised). Never prints anything; error messages name the file and line, never a token.
import { readFileSync } from "node:fs";
import { AUTHENTICATED_GROUP, type UserInfo } from "./user-info";

export interface TokenFileEntry {
  token: string;
  user: UserInfo;
  /** Line on which the record starts (1-based), for messages that must point at it. */
  line: number;
}

const ANONYMOUS_USER = "system:anonymous";
const UNAUTHENTICATED_GROUP = "system:unauthenticated";

/**
 * kube's AuthenticatedGroupAdder: every authenticated user except system:anonymous gets
 * system:authenticated appended, unless it already claims system:authenticated or system:unauthenticated.
 */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.username === ANONYMOUS_USER) return user;
  if (user.groups.some((g) => g === AUTHENTICATED_GROUP || g === UNAUTHENTICATED_GROUP)) return user;
  return { ...user, groups: [...user.groups, AUTHENTICATED_GROUP] };
}

interface CsvRecord {
  fields: string[];
  line: number;
}

class CsvError extends Error {}

// Go reports a parse error as "parse error on line L, column C: ..." (columns are 1-based bytes), prefixed with
// "record on line S; " when the record started on an earlier line.
function parseError(startLine: number, line: number, column: number, problem: string): CsvError {
  const where = startLine === line
    ? `parse error on line ${line}, column ${column}`
    : `record on line ${startLine}; parse error on line ${line}, column ${column}`;
  return new CsvError(`${where}: ${problem}`);
}

const BARE_QUOTE = 'bare " in non-quoted-field';
const BAD_QUOTE = 'extraneous or missing " in quoted-field';

/** Splits text into lines as Go's csv readLine does: each keeps its "\n"; "\r\n" becomes "\n"; a final "\r" is dropped. */
function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf("\n", start);
    let line = nl < 0 ? text.slice(start) : text.slice(start, nl + 1);
    start = nl < 0 ? text.length : nl + 1;
    if (line.endsWith("\r\n")) line = `${line.slice(0, -2)}\n`;
    else if (nl < 0 && line.endsWith("\r")) line = line.slice(0, -1);
    lines.push(line);
  }
  return lines;
}

const bytes = (s: string) => Buffer.byteLength(s, "utf8");

function readCsv(text: string): CsvRecord[] {
  const lines = splitLines(text);
  const records: CsvRecord[] = [];
  let index = 0;
  while (index < lines.length) {
    let line = lines[index++];
    if (line === "\n") continue; // blank lines are skipped
    const startLine = index;
    let lineNo = index;
    let col = 1; // 1-based byte column of the start of `line` within the current physical line
    const fields: string[] = [];
    for (;;) {
      if (!line.startsWith('"')) {
        const comma = line.indexOf(",");
        const field = comma >= 0 ? line.slice(0, comma) : line.endsWith("\n") ? line.slice(0, -1) : line;
        const quote = field.indexOf('"');
        if (quote >= 0) throw parseError(startLine, lineNo, col + bytes(field.slice(0, quote)), BARE_QUOTE);
        fields.push(field);
        if (comma < 0) break;
        col += bytes(field) + 1;
        line = line.slice(comma + 1);
        continue;
      }
      // Quoted field: may span lines; "" is an escaped quote.
      line = line.slice(1);
      col += 1;
      let value = "";
      let ended = false;
      for (;;) {
        const quote = line.indexOf('"');
        if (quote >= 0) {
          value += line.slice(0, quote);
          col += bytes(line.slice(0, quote)) + 1;
          line = line.slice(quote + 1);
          if (line.startsWith('"')) {
            value += '"';
            line = line.slice(1);
            col += 1;
          } else if (line.startsWith(",")) {
            line = line.slice(1);
            col += 1;
            break;
          } else if (line === "" || line === "\n") {
            ended = true;
            break;
          } else {
            throw parseError(startLine, lineNo, col - 1, BAD_QUOTE);
          }
        } else if (line !== "" && index < lines.length) {
          value += line;
          line = lines[index++];
          lineNo = index;
          col = 1;
        } else {
          // The file ends inside a quoted field.
          throw parseError(startLine, lineNo, col + bytes(line), BAD_QUOTE);
        }
      }
      fields.push(value);
      if (ended) break;
    }
    records.push({ fields, line: startLine });
  }
  return records;
}

export interface ParseTokenFileOptions {
  /** Called for records kube-apiserver skips or overrides with a warning (empty token, duplicate token). */
  onWarning?: (message: string) => void;
}

/**
 * Parses a static token file. Each record needs at least three columns (token, user name, user uid); a fourth
 * holds comma-separated groups; further columns are ignored. A record with an empty token is skipped, and a
 * repeated token replaces the earlier record (both with a warning), as kube-apiserver does.
 * Throws an Error naming the file and line for a CSV syntax error, a short record or an empty user name.
 */
export function parseTokenFile(text: string, fileName: string, options: ParseTokenFileOptions = {}): TokenFileEntry[] {
  let records: CsvRecord[];
  try {
    records = readCsv(text);
  } catch (err) {
    if (err instanceof CsvError) throw new Error(`token file '${fileName}': ${err.message}`);
    throw err;
  }
  const byToken = new Map<string, TokenFileEntry>();
  let recordNumber = 0;
  for (const { fields, line } of records) {
    if (fields.length < 3) {
      throw new Error(`token file '${fileName}' must have at least 3 columns (token, user name, user uid), found ${fields.length} on line ${line}`);
    }
    recordNumber++;
    const [token, username, uid] = fields;
    if (token === "") {
      options.onWarning?.(`empty token has been found in token file '${fileName}', record number '${recordNumber}' (line ${line})`);
      continue;
    }
    // kube accepts an empty name, but a nameless user cannot be authorized or audited: refuse it at start.
    if (username === "") throw new Error(`token file '${fileName}' has an empty user name on line ${line}`);
    if (byToken.has(token)) {
      options.onWarning?.(`duplicate token has been found in token file '${fileName}', record number '${recordNumber}' (line ${line})`);
      byToken.delete(token); // re-insert so the surviving record keeps file order by its last occurrence
    }
    // kube splits the group column on every comma, keeping empty names (`a,,b` gives "a", "", "b").
    const groups = fields.length >= 4 ? fields[3].split(",") : [];
    const user: UserInfo = { username, groups };
    if (uid !== "") user.uid = uid;
    byToken.set(token, { token, user: withAuthenticatedGroup(user), line });
  }
  return [...byToken.values()];
}

/** Reads and parses a token file (see parseTokenFile). */
export function loadTokenFile(path: string, options: ParseTokenFileOptions = {}): TokenFileEntry[] {
  return parseTokenFile(readFileSync(path, "utf8"), path, options);
}
