// kube's admission refusals pack several reasons into one line: SCC admission lists every provider's
// objection in `[a, b, ...]`, LimitRanger aggregates its violations the same way, and ResourceQuota names
// requested/used/limited in one sentence. The console shows the first part as the summary and each reason on
// its own line; the full message is kept verbatim beside it, so nothing kube said is lost.

export interface ExplainedMessage {
  summary: string;
  /** Empty when the message is one reason. */
  reasons: string[];
}

const openers: Record<string, string> = { "[": "]", "{": "}", "(": ")" };

/** The indices of `text` outside double-quoted strings (with backslash escapes); the quotes themselves are skipped. */
function* unquoted(text: string): Generator<number> {
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === "\\") i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else yield i;
  }
}

/** Index of the `[` matching the `]` that ends `text`, ignoring brackets inside quoted strings; -1 if none. */
function openingOfTrailingList(text: string): number {
  if (!text.endsWith("]")) return -1;
  const stack: string[] = [];
  const starts: number[] = [];
  let listStart = -1;
  for (const i of unquoted(text)) {
    const c = text[i];
    if (openers[c]) {
      stack.push(openers[c]);
      starts.push(i);
    } else if (stack.length && c === stack[stack.length - 1]) {
      stack.pop();
      const start = starts.pop()!;
      if (i === text.length - 1 && stack.length === 0 && c === "]") listStart = start;
    }
  }
  return listStart;
}

/**
 * Splits `text` at the top level (outside brackets, braces, parentheses and quoted strings) wherever
 * `cut(i)` says a separator starts at `i`; it returns the separator's length, or 0.
 */
function splitOutside(text: string, cut: (i: number) => number): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (const i of unquoted(text)) {
    const c = text[i];
    if (c in openers) depth++;
    else if (c === "]" || c === "}" || c === ")") depth = Math.max(0, depth - 1);
    else if (depth === 0) {
      const n = cut(i);
      if (n > 0) {
        parts.push(text.slice(from, i));
        from = i + n;
      }
    }
  }
  parts.push(text.slice(from));
  return parts;
}

/** Splits on `, ` outside brackets, braces, parentheses and quotes. */
function splitTopLevel(text: string): string[] {
  return splitOutside(text, (i) => (text[i] === "," && text[i + 1] === " " ? 2 : 0));
}

/**
 * The start of one rendered field error (`path: Invalid value: ...`), optionally behind SCC's `provider x: `;
 * a path's map keys may hold spaces (`data[bad key]`).
 */
const fieldErrorStart = /^(provider \S+: )?(provider \S+|(?:[.\w-]|\[[^\]]*\])+): (Invalid value|Forbidden|Required value|Unsupported value|Duplicate value|Too long|Too many|Not found|Internal error|Type error)\b/;

/**
 * A list of field errors, split only before each error's path: aggregated they are joined by `, `, a
 * field.ErrorList printed with %v by single spaces, and an error's own message may hold `, ` too ("must be
 * between 1 and 65535, inclusive"; a label's "'-', '_' or '.'"), which is no separator.
 */
function splitFieldErrors(text: string): string[] {
  return splitOutside(text, (i) => {
    if (text[i] === "," && text[i + 1] === " " && fieldErrorStart.test(text.slice(i + 2))) return 2;
    if (text[i] === " " && text[i - 1] !== ":" && text[i - 1] !== "," && fieldErrorStart.test(text.slice(i + 1))) return 1;
    return 0;
  });
}

/**
 * Summary and reasons of a Status message. Only lists kube itself builds are split: a trailing `[...]` after
 * `: ` (aggregated errors joined by `, `, or a field error list joined by spaces), and the ResourceQuota sentence. Anything else is one reason, returned as is.
 */
export function explainStatusMessage(message: string): ExplainedMessage {
  const quota = /^(.*exceeded quota: [^,]+), (requested: .*), (used: .*), (limited: .*)$/.exec(message);
  if (quota) return { summary: quota[1], reasons: [quota[2], quota[3], quota[4]] };

  const start = openingOfTrailingList(message);
  if (start > 0 && /:\s*$/.test(message.slice(0, start))) {
    const items: string[] = [];
    const content = message.slice(start + 1, -1);
    for (const part of fieldErrorStart.test(content) ? splitFieldErrors(content) : splitTopLevel(content)) {
      // LimitRanger's reasons read "maximum cpu usage per Container is 1, but limit is 2": keep them whole.
      if (items.length && /^but /.test(part)) items[items.length - 1] += `, ${part}`;
      else if (part.trim()) items.push(part.trim());
    }
    // An aggregate's items are sentences; a value like `Invalid value: [80, 81]` is not a list of reasons.
    if (items.length > 1 && items.every((i) => i.includes(" "))) return { summary: message.slice(0, start).replace(/:\s*$/, ""), reasons: items };
  }
  return { summary: message, reasons: [] };
}
