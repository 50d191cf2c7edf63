// Percent-escapes as Go's net/url reads them for kube-apiserver. A path is refused only when an escape is not
// `%` and two hex digits (`%zz`: the front door's 400); any escaped byte is valid, so `%ff%fe` is routed and
// answered by the API (a 404 naming it). JavaScript's decodeURIComponent throws on bytes that are not UTF-8,
// which Go never does.
//
// A decoded path can hold bytes that are not UTF-8. Strings here keep each such byte as the lone surrogate
// U+DC00+byte (Python's "surrogateescape"): no stored name can equal it, Go's %q rendering is recoverable
// (`"\xff"`, lib/status's goQuote), and a Status on the wire turns it into U+FFFD as Go's json.Marshal does.

const HEX = /^[0-9a-fA-F]{2}$/;

/** True when every `%` starts a two-hex-digit escape (url.ParseRequestURI's rule for a path). */
export function validEscapes(raw: string): boolean {
  for (let i = raw.indexOf("%"); i >= 0; i = raw.indexOf("%", i + 1)) {
    if (!HEX.test(raw.slice(i + 1, i + 3))) return false;
  }
  return true;
}

/** The escaped path decoded as Go's URL.Path (bytes that are not UTF-8 kept as surrogate escapes); undefined when an escape is malformed. */
export function decodePath(raw: string): string | undefined {
  if (!raw.includes("%")) return raw;
  const bytes = unescapeBytes(raw, false);
  return bytes && bytesToString(bytes, true);
}

/**
 * A query string as Go's url.ParseQuery reads it for `req.URL.Query()`: pairs split at `&`, `+` is a space,
 * a pair with a malformed escape or a `;` is left out (Go reports it and kube ignores the report). Bytes that
 * are not UTF-8 become U+FFFD: query values may be stored (a field manager), and only well-formed text may be.
 */
export function parseQuery(raw: string): URLSearchParams {
  // Nothing to decode (the usual request): WHATWG's parser reads such a string exactly as Go does.
  if (!/[%;+]/.test(raw)) return new URLSearchParams(raw);
  const query = new URLSearchParams();
  for (const pair of raw.split("&")) {
    if (pair === "" || pair.includes(";")) continue;
    const eq = pair.indexOf("=");
    const key = unescapeBytes(eq < 0 ? pair : pair.slice(0, eq), true);
    const value = unescapeBytes(eq < 0 ? "" : pair.slice(eq + 1), true);
    if (key && value) query.append(bytesToString(key, false), bytesToString(value, false));
  }
  return query;
}

function unescapeBytes(s: string, plusIsSpace: boolean): number[] | undefined {
  const out: number[] = [];
  const text = Buffer.from(s, "utf8");
  for (let i = 0; i < text.length; i++) {
    const b = text[i];
    if (b === 0x25) {
      const hex = String.fromCharCode(text[i + 1] ?? 0, text[i + 2] ?? 0);
      if (!HEX.test(hex)) return undefined;
      out.push(parseInt(hex, 16));
      i += 2;
    } else {
      out.push(plusIsSpace && b === 0x2b ? 0x20 : b);
    }
  }
  return out;
}

/** UTF-8 decoding as Go ranges over a string: each byte that starts no valid sequence stands alone. */
function bytesToString(bytes: number[], escapeInvalid: boolean): string {
  let out = "";
  for (let i = 0; i < bytes.length;) {
    const [cp, size] = decodeRune(bytes, i);
    out += cp >= 0 ? String.fromCodePoint(cp) : escapeInvalid ? String.fromCharCode(0xdc00 + bytes[i]) : "\ufffd";
    i += size;
  }
  return out;
}

/** One code point at `i` and its length, or [-1, 1] where Go's utf8.DecodeRune yields RuneError of width 1. */
function decodeRune(b: number[], i: number): [number, number] {
  const b0 = b[i];
  if (b0 < 0x80) return [b0, 1];
  const cont = (k: number) => b[i + k] !== undefined && (b[i + k] & 0xc0) === 0x80;
  if (b0 >= 0xc2 && b0 <= 0xdf && cont(1)) return [((b0 & 0x1f) << 6) | (b[i + 1] & 0x3f), 2];
  if (b0 >= 0xe0 && b0 <= 0xef && cont(1) && cont(2)) {
    const cp = ((b0 & 0x0f) << 12) | ((b[i + 1] & 0x3f) << 6) | (b[i + 2] & 0x3f);
    if (cp >= 0x800 && (cp < 0xd800 || cp > 0xdfff)) return [cp, 3];
  }
  if (b0 >= 0xf0 && b0 <= 0xf4 && cont(1) && cont(2) && cont(3)) {
    const cp = ((b0 & 0x07) << 18) | ((b[i + 1] & 0x3f) << 12) | ((b[i + 2] & 0x3f) << 6) | (b[i + 3] & 0x3f);
    if (cp >= 0x10000 && cp <= 0x10ffff) return [cp, 4];
  }
  return [-1, 1];
}
