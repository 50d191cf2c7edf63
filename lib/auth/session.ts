// Reads the bearer token stored in a next-auth session cookie, for the API pipeline: a browser request
// with no Authorization header is authenticated by the token its session holds. Runs outside Next (server.ts
// under tsx), so it only uses next-auth's JWT decoder and the secret server.ts put in the environment.
import { decode } from "next-auth/jwt";

const SESSION_COOKIES = ["__Secure-next-auth.session-token", "next-auth.session-token"];

function parseCookies(header: string): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    try {
      value = decodeURIComponent(value);
    } catch {
      // keep the raw value; decode() below rejects it if it is not a JWE
    }
    if (!cookies.has(name)) cookies.set(name, value);
  }
  return cookies;
}

/** The whole cookie value, joined from `name.0`, `name.1`, … when next-auth had to split a large session. */
export function sessionCookieValue(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  const cookies = parseCookies(cookieHeader);
  for (const name of SESSION_COOKIES) {
    const whole = cookies.get(name);
    if (whole) return whole;
    const chunks: string[] = [];
    for (let i = 0; cookies.has(`${name}.${i}`); i++) chunks.push(cookies.get(`${name}.${i}`)!);
    if (chunks.length) return chunks.join("");
  }
  return undefined;
}

/** What a valid session cookie holds for the API: its bearer token, and when the session ends (its `exp`). */
export interface SessionBearer {
  bearer: string;
  /** ms since the epoch; undefined when the session names no end. */
  expiresAtMs?: number;
}

/** The bearer token inside a valid, unexpired session cookie, with the session's end; undefined for anything else (never throws). */
export async function sessionFromCookie(cookieHeader: string | undefined): Promise<SessionBearer | undefined> {
  const value = sessionCookieValue(cookieHeader);
  const secret = process.env.NEXTAUTH_SECRET;
  if (!value || !secret) return undefined;
  try {
    const payload = await decode({ token: value, secret });
    if (typeof payload?.bearer !== "string" || !payload.bearer) return undefined;
    const exp = (payload as { exp?: unknown }).exp;
    return typeof exp === "number" && Number.isFinite(exp) ? { bearer: payload.bearer, expiresAtMs: exp * 1000 } : { bearer: payload.bearer };
  } catch {
    return undefined;
  }
}

/** The bearer token inside a valid, unexpired session cookie; undefined for anything else (never throws). */
export async function bearerFromSessionCookie(cookieHeader: string | undefined): Promise<string | undefined> {
  return (await sessionFromCookie(cookieHeader))?.bearer;
}
