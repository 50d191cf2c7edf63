// The ServiceAccount issuer's OIDC discovery documents, as kube-apiserver serves them
// (pkg/serviceaccount/openidmetadata.go, pkg/routes/openidmetadata.go), so relying parties outside the
// cluster can verify our tokens. Only public keys ever reach these documents.
import type { ServiceAccountPublicKey } from "./service-account-token";

export const OPENID_CONFIGURATION_PATH = "/.well-known/openid-configuration";
export const JWKS_PATH = "/openid/v1/jwks";
export const OPENID_CONFIGURATION_CONTENT_TYPE = "application/json";
export const JWKS_CONTENT_TYPE = "application/jwk-set+json";
/** kube overrides its usual `private, no-cache` for these two documents. */
export const DISCOVERY_CACHE_CONTROL = "public, max-age=3600";

export interface OpenIdConfiguration {
  issuer: string;
  jwks_uri: string;
  response_types_supported: string[];
  subject_types_supported: string[];
  id_token_signing_alg_values_supported: string[];
}

export interface Jwk {
  use: "sig";
  kty: string;
  kid: string;
  crv?: string;
  alg: string;
  x?: string;
  y?: string;
  n?: string;
  e?: string;
}

export interface Jwks {
  keys: Jwk[];
}

function httpsUrl(value: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${what} must be an absolute URL, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== "https:") throw new Error(`${what} must use https scheme, got: ${value}`);
  return url;
}

/** kube's default jwks_uri: https://<external address (host:port)>/openid/v1/jwks. */
export function defaultJwksUri(externalAddress: string): string {
  const url = httpsUrl(`https://${externalAddress}${JWKS_PATH}`, "jwks_uri");
  if (url.pathname !== JWKS_PATH || url.search || url.hash || url.username) {
    throw new Error(`attempted to build jwks_uri from external address ${externalAddress}, but could not construct a valid URL`);
  }
  return url.toString();
}

/**
 * The /.well-known/openid-configuration document. Like kube, refuses an issuer that is not https or carries a
 * query or fragment (kube then does not serve discovery at all), and a non-https jwks_uri.
 */
export function openIdConfiguration(issuer: string, jwksUri: string, publicKeys: readonly ServiceAccountPublicKey[]): OpenIdConfiguration {
  const iss = httpsUrl(issuer, "issuer URL");
  if (iss.search) throw new Error(`issuer URL may not include a query, got: ${issuer}`);
  if (iss.hash) throw new Error(`issuer URL may not include a fragment, got: ${issuer}`);
  httpsUrl(jwksUri, "jwksURI");
  return {
    issuer,
    jwks_uri: jwksUri,
    response_types_supported: ["id_token"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: [...new Set(jwks(publicKeys).keys.map((k) => k.alg))].sort(),
  };
}

/** The /openid/v1/jwks document: each key with use "sig", its kid and alg, in go-jose's field order. */
export function jwks(publicKeys: readonly ServiceAccountPublicKey[]): Jwks {
  if (publicKeys.length === 0) throw new Error("no keys provided for validating keyset");
  return {
    keys: publicKeys.map(({ kid, alg, key }) => {
      if (key.type !== "public") throw new Error("the JWKS may only hold public keys");
      const jwk = key.export({ format: "jwk" });
      return jwk.kty === "EC"
        ? { use: "sig", kty: "EC", kid, crv: jwk.crv, alg, x: jwk.x, y: jwk.y }
        : { use: "sig", kty: String(jwk.kty), kid, alg, n: jwk.n, e: jwk.e };
    }),
  };
}
