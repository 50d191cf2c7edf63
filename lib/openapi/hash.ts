// A content hash for the /openapi/v3 index URLs (kubectl caches documents by URL). Not cryptographic: it only has
// to change when a document changes. Pure JavaScript so the module stays browser-safe.

/** 128-bit FNV-1a over the UTF-16 code units of `text` (four 32-bit lanes), as 32 upper-case hex digits. */
export function contentHash(text: string): string {
  const lanes = [0x811c9dc5, 0x050c5d1f, 0x2f3bb4f1, 0x6a09e667];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    for (let l = 0; l < 4; l++) lanes[l] = Math.imul(lanes[l] ^ (c + l), 0x01000193) >>> 0;
  }
  return lanes.map((v) => v.toString(16).padStart(8, "0")).join("").toUpperCase();
}
