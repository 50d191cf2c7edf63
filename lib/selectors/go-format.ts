// Small helpers that render strings the way Go's fmt does, so selector error messages match
// kube-apiserver's byte for byte. Internal to lib/selectors.

const printable = /[\p{L}\p{M}\p{N}\p{P}\p{S}]/u;

const shortEscapes: Record<string, string> = {
  "\x07": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v",
  "\\": "\\\\", '"': '\\"',
};

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");

/** Go's `%q` / strconv.Quote for a string. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    const short = shortEscapes[ch];
    if (short !== undefined) out += short;
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${hex(cp, 2)}`;
    else if (cp >= 0xd800 && cp <= 0xdfff) out += "\ufffd"; // lone surrogate: what UTF-8 decoding would have produced
    else if (cp < 0x7f || printable.test(ch)) out += ch;
    else if (cp < 0x10000) out += `\\u${hex(cp, 4)}`;
    else out += `\\U${hex(cp, 8)}`;
  }
  return out + '"';
}

/** Go's encoding/json rendering of a value (HTML-safe escapes included), as field errors print bad values. */
export function goJSON(value: unknown): string {
  const json = JSON.stringify(value ?? null);
  return json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${hex(c.charCodeAt(0), 4)}`);
}

/** Orders strings as Go compares them (UTF-8 bytes == code point order), unlike JS's UTF-16 `<`. */
export function compareGo(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (D800–DFFF) encode code points above every BMP unit, so lift them past E000–FFFF.
    const rx = x >= 0xd800 && x <= 0xdfff ? x + 0x2000 : x >= 0xe000 ? x - 0x800 : x;
    const ry = y >= 0xd800 && y <= 0xdfff ? y + 0x2000 : y >= 0xe000 ? y - 0x800 : y;
    return rx - ry;
  }
  return a.length - b.length;
}
