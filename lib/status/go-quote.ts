// Go's %q (strconv.Quote), which kube's messages use for names: `pods "a\"b" not found`. Clients compare
// these messages byte for byte, so its rules are kept.

const PRINTABLE = /[\p{L}\p{M}\p{N}\p{P}\p{S}]/u;

/**
 * Go's %q / strconv.Quote. A lone surrogate U+DC80..U+DCFF is a byte that is not UTF-8 (a request path's
 * surrogate escape, lib/request/url-escapes.ts) and is written as Go writes that byte: `\xff`.
 */
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
    else if (cp >= 0xdc80 && cp <= 0xdcff) out += "\\x" + (cp - 0xdc00).toString(16);
    else if (cp < 0x10000) out += "\\u" + cp.toString(16).padStart(4, "0");
    else out += "\\U" + cp.toString(16).padStart(8, "0");
  }
  return out + '"';
}
