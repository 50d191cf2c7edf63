// Private helpers that reproduce Go's text formatting where kube's messages depend on it: %q (lib/status's),
// %q of a []string, utilerrors.NewAggregate's message, and fmt.Errorf applied to a string with no args.
// Clients compare these messages byte for byte, so the quirks are kept.

import { goQuote } from "../status";

export { goQuote };

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
