// Who a write is recorded for: the `fieldManager` query parameter, else the part of the User-Agent before its
// first `/` (`kubectl/v1.32.0 (linux/amd64) ...` → `kubectl`), non-printable characters dropped and cut at
// 128 bytes, as kube-apiserver's managerOrUserAgent. An empty result is recorded as `unknown`.

export const FIELD_MANAGER_MAX_LENGTH = 128;

const utf8 = new TextEncoder();
const printable = (c: string) => /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(c);

export function managerOrUserAgent(fieldManager: string | undefined, userAgent: string | undefined): string {
  if (fieldManager) return fieldManager;
  let out = "";
  let bytes = 0;
  for (const c of (userAgent ?? "").split("/")[0]) {
    if (!printable(c)) continue;
    const n = utf8.encode(c).length;
    if (bytes + n > FIELD_MANAGER_MAX_LENGTH) break;
    out += c;
    bytes += n;
  }
  return out;
}

/** ValidateFieldManager's character rule: every character printable (Go's unicode.IsPrint). */
export function isPrintable(s: string): boolean {
  for (const c of s) if (!printable(c)) return false;
  return true;
}
