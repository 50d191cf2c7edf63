// Private helpers that reproduce Go's text formatting where kube's messages depend on it: %q quoting,
// %q of a []string, utilerrors.NewAggregate's message, and fmt.Errorf applied to a string with no args.
// Clients compare these messages byte for byte, so the quirks are kept.

const PRINTABLE = /[\p{L}\p{M}\p{N}\p{P}\p{S}]/u;

/** Go's %q / strconv.Quote. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (ch === " " || (cp >= 0x21 && cp < 0x7f) || (cp >= 0x80 && PRINTABLE.test(ch))) out += ch;
    else if (ch === "\x07") out += "\\a";
    else if (ch === "\b") out += "\\b";
    else if (ch === "\f") out += "\\f";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch === "\v") out += "\\v";
    else if (cp < 0x80) out += "\\x" + cp.toString(16).padStart(2, "0");
    else if (cp < 0x10000) out += "\\u" + cp.toString(16).padStart(4, "0");
    else out += "\\U" + cp.toString(16).padStart(8, "0");
  }
  return out + '"';
}

/** Go's %q of a []string: `["a" "b"]`. */
export function goQuoteList(list: readonly string[]): string {
  return "[" + list.map(goQuote).join(" ") + "]";
}

/** utilerrors.NewAggregate(errs).Error(): one message alone, several deduplicated as `[a, b]`. */
export function aggregateMessage(messages: readonly string[]): string {
  if (messages.length === 0) return "";
  if (messages.length === 1) return messages[0];
  const seen: string[] = [];
  for (const m of messages) if (!seen.includes(m)) seen.push(m);
  return seen.length === 1 ? seen[0] : "[" + seen.join(", ") + "]";
}

/**
 * kube builds the authorization 403 with fmt.Errorf(message) and no arguments, so a `%` in a user name
 * or path is read as a verb: `%%` becomes `%`, `%d` becomes `%!d(MISSING)`, a trailing `%` `%!(NOVERB)`.
 */
export function goErrorfNoArgs(s: string): string {
  if (!s.includes("%")) return s;
  let out = "";
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (c !== "%") {
      out += c;
      i++;
      continue;
    }
    i++;
    while (i < s.length && "#0+- ".includes(s[i])) i++;
    while (i < s.length && s[i] >= "0" && s[i] <= "9") i++;
    if (i < s.length && s[i] === ".") {
      i++;
      while (i < s.length && s[i] >= "0" && s[i] <= "9") i++;
    }
    if (i >= s.length) {
      out += "%!(NOVERB)";
      break;
    }
    const verb = String.fromCodePoint(s.codePointAt(i)!);
    i += verb.length;
    out += verb === "%" ? "%" : `%!${verb}(MISSING)`;
  }
  return out;
}
