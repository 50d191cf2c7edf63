// One issuer's JWT authenticator, as kube 1.32's (plugin/pkg/authenticator/token/oidc) on go-oidc v2's verifier:
// a token whose unverified `iss` is not this issuer is not ours (the next authenticator may take it); otherwise
// iss, aud, exp (no leeway; a token without exp is expired), nbf (one minute of leeway), the algorithm allow-list
// and the signature decide, then the claim mappings (claim-mappings.ts). `iat` is not checked.
// Discovery runs in the background with back-off; until it succeeds, the issuer's tokens are refused.
import { decodeProtectedHeader } from "jose";
import type { UserInfo } from "../auth/user-info";
import { goType, mapClaims, type Claims } from "./claim-mappings";
import { discover, IssuerKeys } from "./issuer-keys";
import type { CompiledJWTAuthenticator } from "./validation";

/** Every algorithm kube accepts (the structured file allows all of them). */
export const ALL_SIGNING_ALGS = ["ES256", "ES384", "ES512", "PS256", "PS384", "PS512", "RS256", "RS384", "RS512"];
const NBF_LEEWAY_MS = 60_000;
const RETRY_MIN_MS = 1_000;
const RETRY_MAX_MS = 10_000;

export type TokenResult =
  | { status: "not-ours" }
  | { status: "refused"; error: string }
  /** `expiresAt`: the token's exp (seconds): a cache of this answer must not outlive it. */
  | { status: "ok"; user: UserInfo; expiresAt: number };

export interface JwtAuthenticatorOptions {
  /** Accepted `alg` values: OIDC_SIGNING_ALGS for the flags, all nine for the structured file. */
  signingAlgs: readonly string[];
  /** One line per event (issuer unreachable, reachable again); never a token. */
  log?: (line: string) => void;
  now?: () => number;
}


const goList = (xs: readonly string[]) => `[${xs.map((x) => JSON.stringify(x)).join(" ")}]`;

/** The unverified `iss` of a compact JWT, or undefined when the token is not one (kube's untrustedIssuer). */
export function untrustedIssuer(token: string): string | undefined {
  if (token.trimStart().startsWith("{")) return undefined;
  const parts = token.split(".");
  if (parts.length !== 3 || !/^[A-Za-z0-9_-]*$/.test(parts[1])) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8"));
    if (!claims || typeof claims !== "object" || typeof claims.iss !== "string") return undefined;
    return claims.iss === "accounts.google.com" ? "https://accounts.google.com" : claims.iss;
  } catch {
    return undefined;
  }
}

/** Go's time.Time text in UTC, as go-oidc's messages print it (`2026-01-02 15:04:05 +0000 UTC`). */
const timeText = (ms: number) => `${new Date(ms).toISOString().slice(0, 19).replace("T", " ")} +0000 UTC`;
/** Go's zero time, which a token without `exp` expires at. */
const ZERO_TIME = "0001-01-01 00:00:00 +0000 UTC";

export class JwtAuthenticator {
  readonly issuerURL: string;
  /** Resolves once discovery succeeded (a reloaded file takes effect only then). */
  readonly ready: Promise<void>;
  private keys: IssuerKeys | undefined;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;

  constructor(private readonly compiled: CompiledJWTAuthenticator, private readonly options: JwtAuthenticatorOptions) {
    this.issuerURL = compiled.config.issuer.url;
    this.now = options.now ?? Date.now;
    let resolveReady!: () => void;
    this.ready = new Promise((resolve) => { resolveReady = resolve; });
    void this.initialize(resolveReady);
  }

  /** Whether discovery has succeeded (until then the issuer's tokens are refused). */
  get initialized(): boolean {
    return this.keys !== undefined;
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private async initialize(done: () => void): Promise<void> {
    const { issuer } = this.compiled.config;
    let delay = RETRY_MIN_MS;
    let reported = false;
    while (!this.closed) {
      try {
        const found = await discover(issuer.url, { discoveryURL: issuer.discoveryURL, ca: issuer.certificateAuthority || undefined });
        if (this.closed) return;
        const keys = new IssuerKeys(found.jwksUri, issuer.certificateAuthority || undefined, this.now);
        await keys.refresh().catch(() => undefined); // warm the cache; a token refetches if this failed
        this.keys = keys;
        if (reported) this.options.log?.(`oidc authenticator: issuer ${JSON.stringify(issuer.url)} is reachable again; its tokens are accepted`);
        done();
        return;
      } catch (err) {
        if (!reported) {
          reported = true;
          this.options.log?.(`oidc authenticator: issuer ${JSON.stringify(issuer.url)} cannot be initialized: ${(err as Error).message}; its tokens get 401 until discovery succeeds (retrying with back-off up to ${RETRY_MAX_MS / 1000}s)`);
        }
      }
      await new Promise<void>((resolve) => { this.timer = setTimeout(resolve, delay); this.timer.unref?.(); });
      delay = Math.min(delay * 2, RETRY_MAX_MS);
    }
  }

  async authenticateToken(token: string): Promise<TokenResult> {
    if (untrustedIssuer(token) !== this.issuerURL) return { status: "not-ours" };
    if (!this.keys) return { status: "refused", error: "oidc: authenticator not initialized" };
    let claims: Claims;
    try {
      claims = await this.verify(token, this.keys);
    } catch (err) {
      return { status: "refused", error: `oidc: verify token: ${(err as Error).message}` };
    }
    try {
      return { status: "ok", user: mapClaims(this.compiled, claims), expiresAt: Math.trunc(Number(claims.exp)) };
    } catch (err) {
      return { status: "refused", error: (err as Error).message };
    }
  }

  /** go-oidc's IDTokenVerifier.Verify plus kube's multi-audience check; returns the claims. */
  private async verify(token: string, keys: IssuerKeys): Promise<Claims> {
    const parts = token.split(".");
    let claims: Claims;
    try {
      claims = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8"));
    } catch (err) {
      throw new Error(`oidc: malformed jwt: ${(err as Error).message}`);
    }
    if (!claims || typeof claims !== "object" || Array.isArray(claims)) throw new Error("oidc: failed to unmarshal claims: not a JSON object");
    const times: Record<string, number | undefined> = {};
    for (const [name, type] of [["iss", "string"], ["sub", "string"], ["exp", "number"], ["iat", "number"], ["nbf", "number"]] as const) {
      let v = claims[name];
      // Go's json.Number also takes a JSON string holding a valid number.
      if (type === "number" && typeof v === "string" && /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(v)) v = Number(v);
      if (type === "number" && typeof v === "number") times[name] = v;
      if (v !== undefined && v !== null && typeof v !== type) {
        throw new Error(`oidc: failed to unmarshal claims: json: cannot unmarshal ${goType(v)} into Go struct field idToken.${name} of type ${type === "number" ? "oidc.jsonTime" : "string"}`);
      }
    }
    const audClaim = claims.aud;
    const aud = typeof audClaim === "string" ? [audClaim] : Array.isArray(audClaim) && audClaim.every((a) => typeof a === "string") ? audClaim as string[] : audClaim == null ? [] : undefined;
    if (!aud) throw new Error("oidc: failed to unmarshal claims: json: cannot unmarshal aud");
    if (claims.iss !== this.issuerURL) {
      throw new Error(`oidc: id token issued by a different provider, expected ${JSON.stringify(this.issuerURL)} got ${JSON.stringify(claims.iss ?? "")}`);
    }
    const audiences = this.compiled.config.issuer.audiences;
    if (audiences.length === 1 && !aud.includes(audiences[0])) {
      throw new Error(`oidc: expected audience ${JSON.stringify(audiences[0])} got ${goList(aud)}`);
    }
    const now = this.now();
    if (times.exp === undefined) throw new Error(`oidc: token is expired (Token Expiry: ${ZERO_TIME})`);
    const exp = Math.trunc(times.exp) * 1000;
    if (exp < now) throw new Error(`oidc: token is expired (Token Expiry: ${timeText(exp)})`);
    if (times.nbf !== undefined) {
      const nbf = Math.trunc(times.nbf) * 1000;
      if (now + NBF_LEEWAY_MS < nbf) throw new Error(`oidc: current time ${timeText(now)} before the nbf (not before) time: ${timeText(nbf)}`);
    }
    let header: { alg?: string; kid?: string };
    try {
      header = decodeProtectedHeader(token);
    } catch (err) {
      throw new Error(`oidc: malformed jwt: ${(err as Error).message}`);
    }
    const alg = header.alg ?? "";
    if (!this.options.signingAlgs.includes(alg)) {
      throw new Error(`oidc: id token signed with unsupported algorithm, expected ${goList(this.options.signingAlgs)} got ${JSON.stringify(alg)}`);
    }
    try {
      await keys.verify(token, alg, header.kid || undefined);
    } catch (err) {
      throw new Error(`failed to verify signature: ${(err as Error).message}`);
    }
    if (audiences.length > 1 && !aud.some((a) => audiences.includes(a))) {
      throw new Error(`oidc: expected audience in ${goList([...audiences].sort())} got ${goList(aud)}`);
    }
    return claims;
  }
}
