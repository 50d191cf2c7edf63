// When a JWKS answer stops being fresh, from its caching headers, as go-oidc's remote key set reads them
// (pquerna/cachecontrol for a shared cache): s-maxage, then max-age (less Age), then Expires (against Date).
// An answer that may not be cached (no-store, no-cache, private) or says nothing is stale at once, so the next
// unknown key id refetches immediately.

type Headers = Record<string, string | string[] | undefined>;

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(", ") : v);

/** Milliseconds since the epoch at which the response stops being fresh (`fetchedAt` when never fresh). */
export function freshUntil(headers: Headers, fetchedAt: number): number {
  const cacheControl = (one(headers["cache-control"]) ?? "").toLowerCase();
  const directives = new Map<string, string | undefined>();
  for (const part of cacheControl.split(",")) {
    const [name, value] = part.trim().split("=", 2);
    if (name) directives.set(name, value?.replace(/^"|"$/g, ""));
  }
  if (directives.has("no-store") || directives.has("no-cache") || directives.has("private")) return fetchedAt;
  const age = Number(one(headers.age) ?? 0);
  const ageSeconds = Number.isFinite(age) && age > 0 ? age : 0;
  for (const name of ["s-maxage", "max-age"]) {
    const raw = directives.get(name);
    if (raw !== undefined && /^\d+$/.test(raw)) return fetchedAt + Math.max(0, Number(raw) - ageSeconds) * 1000;
  }
  const expires = Date.parse(one(headers.expires) ?? "");
  if (Number.isFinite(expires)) {
    const date = Date.parse(one(headers.date) ?? "");
    const lifetime = expires - (Number.isFinite(date) ? date : fetchedAt);
    return fetchedAt + Math.max(0, lifetime);
  }
  return fetchedAt;
}
