// An issuer's discovery document and signing keys, as go-oidc (the version kube 1.32 uses) keeps them:
// discovery once (the document's issuer must equal the configured URL exactly), the JWKS fetched when a token
// needs it, and on a key id the cache does not know, a refetch at once unless the last JWKS answer's caching
// headers say it is still fresh (30 s before its expiry counts as stale). Concurrent refetches share one
// request. Signature checks are jose's.
import { compactVerify, importJWK, type JWK } from "jose";
import { freshUntil } from "./cache-expiry";
import { httpsGet } from "./https-get";

const WELL_KNOWN = "/.well-known/openid-configuration";
const KEYS_EXPIRY_DELTA_MS = 30_000;

export interface Discovery {
  issuer: string;
  jwksUri: string;
}

/** Reads the discovery document (at discoveryURL when set, else `<issuer>/.well-known/openid-configuration`). */
export async function discover(issuer: string, options: { discoveryURL?: string; ca?: string }): Promise<Discovery> {
  const url = options.discoveryURL || issuer.replace(/\/+$/, "") + WELL_KNOWN;
  const res = await httpsGet(url, options.ca);
  if (res.status !== 200) throw new Error(`${res.statusText}: ${res.body.slice(0, 200)}`);
  let doc: { issuer?: unknown; jwks_uri?: unknown };
  try {
    doc = JSON.parse(res.body);
  } catch (err) {
    throw new Error(`oidc: failed to decode provider discovery object: ${(err as Error).message}`);
  }
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) throw new Error("oidc: failed to decode provider discovery object: not a JSON object");
  if (typeof doc.issuer !== "string" || doc.issuer !== issuer) {
    throw new Error(`oidc: issuer did not match the issuer returned by provider, expected ${JSON.stringify(issuer)} got ${JSON.stringify(doc.issuer ?? "")}`);
  }
  if (typeof doc.jwks_uri !== "string" || doc.jwks_uri === "") throw new Error("oidc: provider discovery object has no jwks_uri");
  return { issuer: doc.issuer, jwksUri: doc.jwks_uri };
}

interface CachedKey {
  jwk: JWK;
  imported: Map<string, Promise<CryptoKey | Uint8Array>>;
}

export class IssuerKeys {
  private keys: CachedKey[] = [];
  private expiry = 0;
  private inflight: Promise<CachedKey[]> | undefined;

  constructor(
    readonly jwksUri: string,
    private readonly ca: string | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** The verified payload, or throws go-oidc's message. `alg` was already checked against the allow-list. */
  async verify(token: string, alg: string, kid: string | undefined): Promise<Uint8Array> {
    const cached = this.keys;
    const first = await this.tryKeys(cached, token, alg, kid);
    if (first) return first;
    if (this.now() + KEYS_EXPIRY_DELTA_MS <= this.expiry) throw new Error("failed to verify id token signature");
    let fresh: CachedKey[];
    try {
      fresh = await this.refresh();
    } catch (err) {
      throw new Error(`fetching keys ${(err as Error).message}`);
    }
    const second = await this.tryKeys(fresh, token, alg, kid);
    if (second) return second;
    throw new Error("failed to verify id token signature");
  }

  /** Fetches the JWKS now (first use, or after an unknown key id); concurrent callers share the request. */
  refresh(): Promise<CachedKey[]> {
    this.inflight ??= this.fetchKeys().finally(() => { this.inflight = undefined; });
    return this.inflight;
  }

  private async fetchKeys(): Promise<CachedKey[]> {
    const fetchedAt = this.now();
    const res = await httpsGet(this.jwksUri, this.ca);
    if (res.status !== 200) throw new Error(`oidc: get keys failed: ${res.statusText} ${res.body.slice(0, 200)}`);
    let set: { keys?: unknown };
    try {
      set = JSON.parse(res.body);
    } catch (err) {
      throw new Error(`oidc: failed to decode keys: ${(err as Error).message}`);
    }
    if (!set || typeof set !== "object" || !Array.isArray(set.keys)) throw new Error("oidc: failed to decode keys: no keys array");
    const previous = new Map(this.keys.map((k) => [JSON.stringify(k.jwk), k]));
    this.keys = (set.keys as unknown[])
      .filter((k): k is JWK => !!k && typeof k === "object" && typeof (k as JWK).kty === "string")
      .map((jwk) => previous.get(JSON.stringify(jwk)) ?? { jwk, imported: new Map() });
    this.expiry = freshUntil(res.headers, fetchedAt);
    return this.keys;
  }

  private async tryKeys(keys: CachedKey[], token: string, alg: string, kid: string | undefined): Promise<Uint8Array | undefined> {
    for (const key of keys) {
      if (kid && key.jwk.kid !== kid) continue;
      let imported = key.imported.get(alg);
      if (!imported) {
        imported = importJWK({ ...key.jwk, alg }, alg) as Promise<CryptoKey | Uint8Array>;
        imported.catch(() => undefined);
        key.imported.set(alg, imported);
      }
      try {
        const { payload } = await compactVerify(token, await imported, { algorithms: [alg] });
        return payload;
      } catch {
        // wrong key type for this algorithm, or not this key's signature: try the next one
      }
    }
    return undefined;
  }
}
