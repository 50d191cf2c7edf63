// Who a write is recorded for: the `fieldManager` query parameter, else the part of the User-Agent before its
// first `/` (`kubectl/v1.32.0 (linux/amd64) ...` → `kubectl`), non-printable characters dropped and cut at
// 128 bytes, as kube-apiserver's managerOrUserAgent. An empty result is recorded as `unknown`.
import { FIELD_MANAGER_MAX_LENGTH, isPrintable } from "../validation/field-manager-name";

const utf8 = new TextEncoder();

export function managerOrUserAgent(fieldManager: string | undefined, userAgent: string | undefined): string {
  if (fieldManager) return fieldManager;
  let out = "";
  let bytes = 0;
  for (const c of (userAgent ?? "").split("/")[0]) {
    if (!isPrintable(c)) continue;
    const n = utf8.encode(c).length;
    if (bytes + n > FIELD_MANAGER_MAX_LENGTH) break;
    out += c;
    bytes += n;
  }
  return out;
}
