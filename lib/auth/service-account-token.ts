// ServiceAccount tokens as kube-apiserver issues and verifies them: bound tokens from the TokenRequest API
// (pkg/serviceaccount/claims.go), legacy tokens for kubernetes.io/service-account-token Secrets (legacy.go),
// signed with the key pair in <dataDir>/pki/sa.key. Signing and signature checks are jose's; this file owns the
// claims. It never checks that an account still exists (authenticator.ts does, through the caller's lookup).
// Never prints anything; no error message contains a token or key material.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID, type KeyObject } from "node:crypto";
import { chmodSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { CompactSign, compactVerify } from "jose";
import { field, type FieldError } from "../status";
import { createFileExclusive, PRIVATE_MODE, writeFileAtomic } from "../fs/atomic-file";

/** The issuer kubeadm configures (--service-account-issuer). */
export const DEFAULT_ISSUER = "https://kubernetes.default.svc.cluster.local";
/** The issuer of Secret-based (legacy) tokens. */
export const LEGACY_ISSUER = "kubernetes/serviceaccount";
export const SERVICE_ACCOUNT_KEY_FILE = path.join("pki", "sa.key");

/** TokenRequest spec.expirationSeconds default (authentication/v1 defaulting). */
export const DEFAULT_EXPIRATION_SECONDS = 3600;
export const MIN_EXPIRATION_SECONDS = 600;
export const MAX_EXPIRATION_SECONDS = 2 ** 32;
/** The expiration kubelet asks for; with extension on, such pod-bound tokens live a year and only warn after this. */
export const WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS = 60 * 60 + 7;
export const EXPIRATION_EXTENSION_SECONDS = 24 * 365 * 60 * 60;
/** go-jose's jwt.DefaultLeeway, which kube's claim validation uses for exp, nbf, iat and deletion times. */
export const LEEWAY_SECONDS = 60;

const SIGNATURE_CACHE_TTL_MS = 10_000; // kube-apiserver's token success cache TTL
const SIGNATURE_CACHE_MAX = 4096;

export type SigningAlgorithm = "RS256" | "ES256" | "ES384" | "ES512";

export interface ServiceAccountPublicKey {
  /** kube's key id: base64url (no padding) of the SHA-256 of the DER (PKIX) public key. */
  kid: string;
  alg: SigningAlgorithm;
  key: KeyObject;
}

export interface BoundObjectRef {
  kind: "Pod" | "Secret" | "Node";
  name: string;
  uid: string;
}

export interface NodeRef {
  name: string;
  /** Absent when the pod's node object could not be found (kube then embeds the name alone). */
  uid?: string;
}

export interface IssueRequest {
  namespace: string;
  name: string;
  /** The ServiceAccount's metadata.uid. */
  uid: string;
  /** spec.audiences; empty or absent means the API audiences. */
  audiences?: readonly string[];
  /** spec.expirationSeconds after validation; absent means 3600. */
  expirationSeconds?: number;
  boundObject?: BoundObjectRef;
  /** For a Pod-bound token: the node the pod is scheduled to (spec.nodeName), embedded as kube 1.32 does. */
  node?: NodeRef;
}

export interface IssuedToken {
  token: string;
  /** status.expirationTimestamp (RFC 3339, seconds): issue time + the effective spec.expirationSeconds. */
  expirationTimestamp: string;
  /** spec.expirationSeconds after the max-expiration clamp (what the response's spec must show). */
  expirationSeconds: number;
  /** spec.audiences after defaulting (what the response's spec must show). */
  audiences: string[];
  /** `JTI=<jti>`: the audit annotation authentication.kubernetes.io/issued-credential-id. */
  credentialId: string;
  /** Warning headers kube sends, e.g. `requested expiration of N seconds shortened to M seconds`. */
  warnings: string[];
}

export interface LegacyIssueRequest {
  namespace: string;
  name: string;
  uid: string;
  secretName: string;
}

export interface VerifiedServiceAccountToken {
  legacy: boolean;
  namespace: string;
  name: string;
  /** The ServiceAccount uid the token was issued for. */
  uid: string;
  boundObject?: BoundObjectRef;
  /** Node info embedded in a Pod-bound token. */
  node?: NodeRef;
  /** For a legacy token: the Secret that holds it. */
  legacySecretName?: string;
  jti?: string;
  /** user.Info extra authentication.kubernetes.io/credential-id: `JTI=<jti>`; absent for legacy tokens, as in kube. */
  credentialId?: string;
  /** The token's audiences that are also among the requested ones (TokenReview status.audiences). */
  audiences: string[];
  /** exp, in seconds since the epoch; absent for legacy tokens. */
  expiresAt?: number;
}

/** One verification outcome: not a token of ours at all, ours but refused (with kube's reason), or good. */
export type TokenCheck =
  | { status: "not-ours" }
  | { status: "invalid"; error: string }
  | { status: "valid"; token: VerifiedServiceAccountToken };

export interface ServiceAccountTokensOptions {
  dataDir: string;
  /** --service-account-issuer; the first signs, every one is accepted. Default DEFAULT_ISSUER. */
  issuers?: readonly string[];
  /** --api-audiences; default: the issuers, as kube-apiserver defaults them. */
  apiAudiences?: readonly string[];
  /** --service-account-max-token-expiration in seconds; 0 or absent: no maximum. */
  maxExpirationSeconds?: number;
  /** --service-account-extend-token-expiration (default true). */
  extendExpiration?: boolean;
  /** Clock in milliseconds (tests). */
  now?: () => number;
}

export interface VerifyOptions {
  /** The audiences the caller accepts (TokenReview spec.audiences); default the API audiences. */
  audiences?: readonly string[];
}

// ---------- keys ----------

export function serviceAccountKeyPath(dataDir: string): string {
  return path.join(path.resolve(dataDir), SERVICE_ACCOUNT_KEY_FILE);
}

/** kube's keyIDFromPublicKey: base64url(SHA-256(PKIX DER)), so verifiers can pick a key without learning it. */
export function keyIdForPublicKey(key: KeyObject): string {
  const publicKey = key.type === "private" ? createPublicKey(key) : key;
  return createHash("sha256").update(publicKey.export({ type: "spki", format: "der" })).digest("base64url");
}

function algorithmFor(key: KeyObject): SigningAlgorithm | undefined {
  if (key.asymmetricKeyType === "rsa") return "RS256";
  if (key.asymmetricKeyType === "ec") {
    switch (key.asymmetricKeyDetails?.namedCurve) {
      case "prime256v1": return "ES256";
      case "secp384r1": return "ES384";
      case "secp521r1": return "ES512";
    }
  }
  return undefined;
}

function unusableKey(file: string): Error {
  return new Error(`${file} does not hold a usable service account signing key (PEM RSA or EC P-256/P-384/P-521 private key); fix or delete the file`);
}

function readKeyFile(file: string): KeyObject | undefined {
  let pem: string;
  try {
    pem = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  if (pem.trim() === "") return undefined;
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: "pem" });
  } catch {
    throw unusableKey(file); // the parser's message could quote the file; never pass it on
  }
  if (algorithmFor(key) === undefined) throw unusableKey(file);
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, PRIVATE_MODE);
  return key;
}

/**
 * The signing key in <dataDir>/pki/sa.key: read if present, otherwise an EC P-256 key is generated and written
 * (PEM, mode 0600). Concurrent first starts agree on one key: the file is created exclusively and a loser reads
 * the winner's. An empty file is replaced; an unusable one is an error (the message never shows its content).
 */
export function ensureServiceAccountKey(dataDir: string): KeyObject {
  const file = serviceAccountKeyPath(dataDir);
  const existing = readKeyFile(file);
  if (existing) return existing;
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  // SEC1 "EC PRIVATE KEY", as kubeadm writes an ECDSA sa.key.
  const pem = privateKey.export({ type: "sec1", format: "pem" }).toString();
  if (!createFileExclusive(file, pem, PRIVATE_MODE)) {
    const raced = readKeyFile(file);
    if (raced) return raced;
    writeFileAtomic(file, pem, PRIVATE_MODE);
  }
  return privateKey;
}

/** SERVICE_ACCOUNT_SIGNING_KEY_FILE: an operator's key, never generated; missing or unusable is a start-up error. */
export function readSigningKeyFile(file: string): KeyObject {
  const key = readKeyFile(file);
  if (!key) throw new Error(`SERVICE_ACCOUNT_SIGNING_KEY_FILE ${file} is missing or empty: give every replica the same PEM private key (RSA or EC)`);
  return key;
}

// ---------- helpers ----------

const ISO_SECONDS = (seconds: number) => new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");

// Go's %q of a []string: ["a" "b"].
const goQuoteList = (list: readonly string[]) => `[${list.map((s) => JSON.stringify(s)).join(" ")}]`;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** kube signs go-jose's merged claim map, which Go marshals with sorted keys; do the same so tokens read alike. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) if (value[k] !== undefined) out[k] = sortedKeys(value[k]);
  return out;
}

const ref = (name: string, uid?: string) => (uid ? { name, uid } : { name });

function decodeSegment(segment: string): unknown {
  if (!/^[A-Za-z0-9_-]*$/.test(segment)) return undefined;
  try {
    return JSON.parse(Buffer.from(segment, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
}

interface ParsedClaims {
  iss: string;
  sub?: string;
  aud: string[];
  exp?: number;
  nbf?: number;
  iat?: number;
  jti?: string;
  raw: Record<string, unknown>;
}

const CLAIMS_UNPARSABLE = "service account token claims could not be parsed";

/** The registered claims with go-jose's types (aud: string or string[]; dates: numbers); undefined if mistyped. */
function parseRegisteredClaims(raw: Record<string, unknown>): ParsedClaims | undefined {
  const str = (k: string) => (raw[k] === undefined || raw[k] === null || typeof raw[k] === "string");
  const num = (k: string) => (raw[k] === undefined || raw[k] === null || typeof raw[k] === "number");
  if (!str("iss") || !str("sub") || !str("jti") || !num("exp") || !num("nbf") || !num("iat")) return undefined;
  let aud: string[] = [];
  if (typeof raw.aud === "string") aud = [raw.aud];
  else if (Array.isArray(raw.aud)) {
    if (!raw.aud.every((a) => typeof a === "string")) return undefined;
    aud = raw.aud as string[];
  } else if (raw.aud !== undefined && raw.aud !== null) return undefined;
  const date = (k: string) => (typeof raw[k] === "number" ? Math.trunc(raw[k] as number) : undefined);
  return {
    iss: (raw.iss as string | undefined) ?? "",
    sub: (raw.sub as string | undefined) ?? undefined,
    aud,
    exp: date("exp"),
    nbf: date("nbf"),
    iat: date("iat"),
    jti: typeof raw.jti === "string" && raw.jti !== "" ? raw.jti : undefined,
    raw,
  };
}

function readRef(v: unknown): { name: string; uid: string } | undefined | null {
  if (v === undefined || v === null) return undefined;
  if (!isRecord(v)) return null;
  const { name = "", uid = "" } = v;
  if (typeof name !== "string" || typeof uid !== "string") return null;
  return { name, uid };
}

// kube's SplitUsername checks both parts are valid names (namespace: DNS label; SA name: DNS subdomain).
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
function splitServiceAccountUsername(sub: string): [string, string] | undefined {
  const prefix = "system:serviceaccount:";
  if (!sub.startsWith(prefix)) return undefined;
  const parts = sub.slice(prefix.length).split(":");
  if (parts.length !== 2) return undefined;
  const [ns, name] = parts;
  if (ns.length > 63 || !DNS_LABEL.test(ns) || name.length > 253 || !DNS_SUBDOMAIN.test(name)) return undefined;
  return [ns, name];
}

interface SignatureResult {
  ok: boolean;
  error?: string;
  claims?: Record<string, unknown>;
}

// ---------- validation ----------

export interface TokenRequestSpec {
  audiences?: readonly string[] | null;
  expirationSeconds?: number | null;
  boundObjectRef?: { kind?: string; apiVersion?: string; name?: string; uid?: string } | null;
}

/**
 * kube's ValidateTokenRequest on an authentication/v1 TokenRequest spec (after defaulting: an absent
 * expirationSeconds is 3600). A failure is a 422 for kind TokenRequest, group authentication.k8s.io, name "".
 */
export function validateTokenRequest(spec: TokenRequestSpec): FieldError[] {
  const errs: FieldError[] = [];
  const seconds = spec.expirationSeconds ?? DEFAULT_EXPIRATION_SECONDS;
  if (seconds < MIN_EXPIRATION_SECONDS) {
    errs.push(field.invalid("spec.expirationSeconds", seconds, "may not specify a duration less than 10 minutes"));
  }
  if (seconds > MAX_EXPIRATION_SECONDS) {
    errs.push(field.invalid("spec.expirationSeconds", seconds, "may not specify a duration larger than 2^32 seconds"));
  }
  return errs;
}

// ---------- the issuer/verifier ----------

export class ServiceAccountTokens {
  readonly issuer: string;
  readonly issuers: readonly string[];
  readonly apiAudiences: readonly string[];
  readonly keyId: string;
  readonly algorithm: SigningAlgorithm;
  private readonly privateKey: KeyObject;
  private readonly keys: ServiceAccountPublicKey[];
  private readonly maxExpirationSeconds: number;
  private readonly maxExtendedExpirationSeconds: number;
  private readonly extendExpiration: boolean;
  private readonly now: () => number;
  private readonly signatureCache = new Map<string, { until: number; result: Promise<SignatureResult> }>();

  private constructor(privateKey: KeyObject, options: ServiceAccountTokensOptions) {
    const issuers = options.issuers?.length ? [...options.issuers] : [DEFAULT_ISSUER];
    if (issuers.some((i) => i === "" || i === LEGACY_ISSUER)) throw new Error(`service account issuers must be non-empty and differ from ${JSON.stringify(LEGACY_ISSUER)}`);
    this.issuers = issuers;
    this.issuer = issuers[0];
    this.apiAudiences = options.apiAudiences?.length ? [...options.apiAudiences] : [...issuers];
    this.privateKey = privateKey;
    this.algorithm = algorithmFor(privateKey)!;
    this.keyId = keyIdForPublicKey(privateKey);
    this.keys = [{ kid: this.keyId, alg: this.algorithm, key: createPublicKey(privateKey) }];
    const max = options.maxExpirationSeconds ?? 0;
    if (max !== 0 && (max < 3600 || max > MAX_EXPIRATION_SECONDS)) {
      throw new Error("the service account max token expiration must be between 1 hour and 2^32 seconds");
    }
    this.maxExpirationSeconds = max;
    this.maxExtendedExpirationSeconds = max !== 0 && max < EXPIRATION_EXTENSION_SECONDS ? max : EXPIRATION_EXTENSION_SECONDS;
    this.extendExpiration = options.extendExpiration ?? true;
    this.now = options.now ?? Date.now;
  }

  /**
   * Loads `signingKeyFile` (it must exist and hold a usable key: replicas share it) or else loads, on first
   * start creating, <dataDir>/pki/sa.key; returns an issuer/verifier over it.
   */
  static open(options: ServiceAccountTokensOptions & { signingKeyFile?: string }): ServiceAccountTokens {
    return new ServiceAccountTokens(options.signingKeyFile ? readSigningKeyFile(options.signingKeyFile) : ensureServiceAccountKey(options.dataDir), options);
  }

  /** The verification keys, for the JWKS document. */
  publicKeys(): ServiceAccountPublicKey[] {
    return this.keys.map((k) => ({ ...k }));
  }

  private nowSeconds(): number {
    return Math.floor(this.now() / 1000);
  }

  private async sign(payload: unknown): Promise<string> {
    return new CompactSign(new TextEncoder().encode(JSON.stringify(sortedKeys(payload))))
      .setProtectedHeader({ alg: this.algorithm, kid: this.keyId })
      .sign(this.privateKey);
  }

  /**
   * A bound token as the TokenRequest subresource returns it. The caller has validated the request
   * (validateTokenRequest), found the ServiceAccount and the bound object (and checked a requested uid).
   * Applies kube's max-expiration clamp (with its warning) and, for Pod-bound tokens asking for exactly
   * 3607 s with API audiences, the year-long extension with `warnafter`.
   */
  async issue(request: IssueRequest): Promise<IssuedToken> {
    const requested = request.expirationSeconds ?? DEFAULT_EXPIRATION_SECONDS;
    if (!Number.isInteger(requested) || requested < MIN_EXPIRATION_SECONDS || requested > MAX_EXPIRATION_SECONDS) {
      throw new Error("expirationSeconds must be validated with validateTokenRequest before issuing");
    }
    const { boundObject, node } = request;
    if (node && boundObject?.kind !== "Pod") throw new Error("node information can only accompany a Pod-bound token");
    const audiences = request.audiences?.length ? [...request.audiences] : [...this.apiAudiences];
    const warnings: string[] = [];
    let expirationSeconds = requested;
    if (this.maxExpirationSeconds > 0 && expirationSeconds > this.maxExpirationSeconds) {
      warnings.push(`requested expiration of ${expirationSeconds} seconds shortened to ${this.maxExpirationSeconds} seconds`);
      expirationSeconds = this.maxExpirationSeconds;
    }
    let exp = expirationSeconds;
    let warnAfter = 0;
    if (this.extendExpiration && boundObject?.kind === "Pod" && expirationSeconds === WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS
      && audiences.every((a) => this.apiAudiences.includes(a))) {
      warnAfter = exp;
      exp = this.maxExtendedExpirationSeconds;
    }

    const now = this.nowSeconds();
    const jti = randomUUID();
    const kubernetes: Record<string, unknown> = {
      namespace: request.namespace,
      serviceaccount: ref(request.name, request.uid),
    };
    if (boundObject?.kind === "Pod") {
      kubernetes.pod = ref(boundObject.name, boundObject.uid);
      if (node) kubernetes.node = ref(node.name, node.uid);
    } else if (boundObject?.kind === "Secret") {
      kubernetes.secret = ref(boundObject.name, boundObject.uid);
    } else if (boundObject?.kind === "Node") {
      kubernetes.node = ref(boundObject.name, boundObject.uid);
    }
    if (warnAfter) kubernetes.warnafter = now + warnAfter;

    const token = await this.sign({
      aud: audiences,
      exp: now + exp,
      iat: now,
      iss: this.issuer,
      jti,
      "kubernetes.io": kubernetes,
      nbf: now,
      sub: `system:serviceaccount:${request.namespace}:${request.name}`,
    });
    return {
      token,
      expirationTimestamp: ISO_SECONDS(now + expirationSeconds),
      expirationSeconds,
      audiences,
      credentialId: `JTI=${jti}`,
      warnings,
    };
  }

  /** The never-expiring token kube's token controller writes into a kubernetes.io/service-account-token Secret. */
  async issueLegacy(request: LegacyIssueRequest): Promise<string> {
    return this.sign({
      iss: LEGACY_ISSUER,
      "kubernetes.io/serviceaccount/namespace": request.namespace,
      "kubernetes.io/serviceaccount/secret.name": request.secretName,
      "kubernetes.io/serviceaccount/service-account.name": request.name,
      "kubernetes.io/serviceaccount/service-account.uid": request.uid,
      sub: `system:serviceaccount:${request.namespace}:${request.name}`,
    });
  }

  /** The verified token, or undefined when it is not ours or is refused (see check for the reason). */
  async verify(token: string, options: VerifyOptions = {}): Promise<VerifiedServiceAccountToken | undefined> {
    const result = await this.check(token, options);
    return result.status === "valid" ? result.token : undefined;
  }

  /**
   * Verifies signature, issuer, audiences and (bound tokens) exp/nbf/iat with kube's 60 s leeway, and the claim
   * shape. Signature results are cached for a few seconds by a hash of the token; the time and audience checks
   * run on every call (whole answers are cached a level up, by lib/auth/token-cache.ts).
   */
  check(token: string, options: VerifyOptions = {}): Promise<TokenCheck> {
    return this.checkUncached(token, options);
  }

  private async checkUncached(token: string, options: VerifyOptions): Promise<TokenCheck> {
    if (typeof token !== "string" || token.trim().startsWith("{")) return { status: "not-ours" };
    const parts = token.split(".");
    if (parts.length !== 3) return { status: "not-ours" };
    const unverified = decodeSegment(parts[1]);
    const header = decodeSegment(parts[0]);
    if (!isRecord(unverified) || !isRecord(header)) return { status: "not-ours" };
    const iss = unverified.iss;
    const legacy = iss === LEGACY_ISSUER;
    if (!legacy && !(typeof iss === "string" && this.issuers.includes(iss))) return { status: "not-ours" };

    const signature = await this.verifySignature(token, header);
    if (!signature.ok) return { status: "invalid", error: signature.error! };
    const claims = parseRegisteredClaims(signature.claims!);
    if (!claims) return { status: "invalid", error: CLAIMS_UNPARSABLE };
    if (claims.iss !== (legacy ? LEGACY_ISSUER : iss)) return { status: "invalid", error: `token issuer ${JSON.stringify(claims.iss)} is invalid` };

    // Audiences: a token without any (legacy) stands for the API audiences; the result must meet the request.
    const tokenAudiences = claims.aud.length ? claims.aud : [...this.apiAudiences];
    const requested = options.audiences?.length ? options.audiences : this.apiAudiences;
    const audiences = tokenAudiences.filter((a, i) => requested.includes(a) && tokenAudiences.indexOf(a) === i);
    if (audiences.length === 0 && this.apiAudiences.length !== 0) {
      return { status: "invalid", error: `token audiences ${goQuoteList(tokenAudiences)} is invalid for the target audiences ${goQuoteList(requested)}` };
    }
    return legacy ? this.checkLegacyClaims(claims, audiences) : this.checkBoundClaims(claims, audiences);
  }

  private checkBoundClaims(claims: ParsedClaims, audiences: string[]): TokenCheck {
    const now = this.nowSeconds();
    if (claims.nbf !== undefined && now + LEEWAY_SECONDS < claims.nbf) return { status: "invalid", error: "service account token is not valid yet" };
    if (claims.exp !== undefined && now - LEEWAY_SECONDS > claims.exp) return { status: "invalid", error: "service account token has expired" };
    if (claims.iat !== undefined && now + LEEWAY_SECONDS < claims.iat) return { status: "invalid", error: "service account token is issued in the future" };

    const k = claims.raw["kubernetes.io"];
    if (k !== undefined && k !== null && !isRecord(k)) return { status: "invalid", error: CLAIMS_UNPARSABLE };
    const kube = (k ?? {}) as Record<string, unknown>;
    const namespace = kube.namespace ?? "";
    const sa = readRef(kube.serviceaccount);
    const pod = readRef(kube.pod);
    const secret = readRef(kube.secret);
    const node = readRef(kube.node);
    if (typeof namespace !== "string" || sa === null || pod === null || secret === null || node === null) {
      return { status: "invalid", error: CLAIMS_UNPARSABLE };
    }
    const account = sa ?? { name: "", uid: "" };
    const verified: VerifiedServiceAccountToken = {
      legacy: false,
      namespace,
      name: account.name,
      uid: account.uid,
      audiences,
    };
    if (secret) verified.boundObject = { kind: "Secret", ...secret };
    if (pod) {
      verified.boundObject = { kind: "Pod", ...pod };
      if (node) verified.node = node.uid ? node : { name: node.name };
    } else if (node && !secret) {
      verified.boundObject = { kind: "Node", ...node };
    }
    if (claims.jti) {
      verified.jti = claims.jti;
      verified.credentialId = `JTI=${claims.jti}`;
    }
    if (claims.exp !== undefined) verified.expiresAt = claims.exp;
    return { status: "valid", token: verified };
  }

  private checkLegacyClaims(claims: ParsedClaims, audiences: string[]): TokenCheck {
    const raw = claims.raw;
    const text = (k: string) => (typeof raw[k] === "string" ? (raw[k] as string) : raw[k] === undefined || raw[k] === null ? "" : null);
    const namespace = text("kubernetes.io/serviceaccount/namespace");
    const secretName = text("kubernetes.io/serviceaccount/secret.name");
    const name = text("kubernetes.io/serviceaccount/service-account.name");
    const uid = text("kubernetes.io/serviceaccount/service-account.uid");
    if (namespace === null || secretName === null || name === null || uid === null) return { status: "invalid", error: CLAIMS_UNPARSABLE };
    if (!claims.sub) return { status: "invalid", error: "sub claim is missing" };
    if (!namespace) return { status: "invalid", error: "namespace claim is missing" };
    if (!secretName) return { status: "invalid", error: "secretName claim is missing" };
    if (!name) return { status: "invalid", error: "serviceAccountName claim is missing" };
    if (!uid) return { status: "invalid", error: "serviceAccountUID claim is missing" };
    const split = splitServiceAccountUsername(claims.sub);
    if (!split || split[0] !== namespace || split[1] !== name) return { status: "invalid", error: "sub claim is invalid" };
    return { status: "valid", token: { legacy: true, namespace, name, uid, legacySecretName: secretName, audiences } };
  }

  private verifySignature(token: string, header: Record<string, unknown>): Promise<SignatureResult> {
    const key = createHash("sha256").update(token).digest("base64url");
    const now = Date.now();
    const cached = this.signatureCache.get(key);
    if (cached && cached.until > now) return cached.result;
    if (this.signatureCache.size >= SIGNATURE_CACHE_MAX) this.pruneCache(now);
    const result = this.verifySignatureUncached(token, header);
    this.signatureCache.set(key, { until: now + SIGNATURE_CACHE_TTL_MS, result });
    return result;
  }

  private pruneCache(now: number): void {
    for (const [k, v] of this.signatureCache) if (v.until <= now) this.signatureCache.delete(k);
    // Still full: drop the oldest entries (Map iterates in insertion order).
    for (const k of this.signatureCache.keys()) {
      if (this.signatureCache.size < SIGNATURE_CACHE_MAX / 2) break;
      this.signatureCache.delete(k);
    }
  }

  private async verifySignatureUncached(token: string, header: Record<string, unknown>): Promise<SignatureResult> {
    const kid = typeof header.kid === "string" ? header.kid : "";
    const candidates = kid ? this.keys.filter((k) => k.kid === kid) : this.keys;
    if (candidates.length === 0) return { ok: false, error: "invalid signature, no keys found" };
    for (const candidate of candidates) {
      try {
        const { payload } = await compactVerify(token, candidate.key, { algorithms: [candidate.alg] });
        const claims = JSON.parse(new TextDecoder().decode(payload));
        if (!isRecord(claims)) return { ok: false, error: CLAIMS_UNPARSABLE };
        return { ok: true, claims };
      } catch {
        // try the next key; the failure itself is reported below without details
      }
    }
    return { ok: false, error: "go-jose/go-jose: error in cryptographic primitive" };
  }
}
