// Base64 as Go's encoding/json reads []byte fields (standard alphabet, padding required, CR/LF ignored), so
// Secret data is accepted or rejected exactly where kube-apiserver's decoder would. No Buffer: browser-safe.

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const isAlphabet = (c: string) => alphabet.includes(c);
const isNewline = (c: string | undefined) => c === "\n" || c === "\r";

export type DecodedLength = { length: number; errorAt?: undefined } | { length?: undefined; errorAt: number };

/** Decoded byte length of `src`, or the input offset Go reports as `illegal base64 data at input byte N`. */
export function base64DecodedLength(src: string): DecodedLength {
  let si = 0;
  let length = 0;
  for (;;) {
    let j = 0;
    while (j < 4) {
      if (si === src.length) return j === 0 ? { length } : { errorAt: si - j };
      const c = src[si++];
      if (isAlphabet(c)) {
        j++;
        continue;
      }
      if (isNewline(c)) continue;
      if (c !== "=" || j < 2) return { errorAt: si - 1 };
      if (j === 2) {
        while (si < src.length && isNewline(src[si])) si++;
        if (si === src.length) return { errorAt: src.length };
        if (src[si] !== "=") return { errorAt: si - 1 };
        si++;
      }
      while (si < src.length && isNewline(src[si])) si++;
      if (si < src.length) return { errorAt: si };
      return { length: length + j - 1 };
    }
    length += 3;
  }
}

export function encodeBase64(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const chunk = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const remaining = bytes.length - i;
    out += alphabet[(chunk >> 18) & 63] + alphabet[(chunk >> 12) & 63];
    out += remaining > 1 ? alphabet[(chunk >> 6) & 63] : "=";
    out += remaining > 2 ? alphabet[chunk & 63] : "=";
  }
  return out;
}

/** Base64 of the UTF-8 bytes of `text` (how a Secret's stringData value becomes a data value). */
export function encodeUtf8Base64(text: string): string {
  return encodeBase64(new TextEncoder().encode(text));
}

/** The bytes of standard, padded base64 (CR/LF ignored), or undefined when the decoder would refuse it. */
export function decodeBase64(src: string): Uint8Array | undefined {
  if (base64DecodedLength(src).errorAt !== undefined) return undefined;
  const clean = src.replace(/[\r\n]/g, "").replace(/=+$/, "");
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let bits = 0;
  let acc = 0;
  let n = 0;
  for (const c of clean) {
    acc = (acc << 6) | alphabet.indexOf(c);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (acc >> bits) & 0xff;
    }
  }
  return out.subarray(0, n);
}
