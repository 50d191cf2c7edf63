// The bearer-token authenticator chain, in kube-apiserver's order: static tokens (the admin token and the token
// file, through bearer.ts's constant-time lookup), then ServiceAccount JWTs (bound, then legacy), then the JWT
// (OIDC) issuers the caller passes in (lib/oidc), each with system:authenticated added; ServiceAccount JWTs' 
// ServiceAccount, bound Pod/Secret/Node and legacy Secret must still exist (pkg/serviceaccount/claims.go,
// legacy.go). Signature work is cached by ServiceAccountTokens; the existence checks run on every call, so a
// deleted account stops working at once. Never prints anything; no error message contains a token.
import { timingSafeEqual } from "node:crypto";
import { createTokenAuthenticator } from "./bearer";
import {
  LEEWAY_SECONDS,
  type ServiceAccountTokens,
  type VerifiedServiceAccountToken,
} from "./service-account-token";
import { dependencyKey, TOKEN_CACHE_MAX, TokenCache, type CachedAnswer, type Verified } from "./token-cache";
import { tokenDigest } from "./token-digest";
import { singleUse, type TokenLease } from "./token-lease";
import { withAuthenticatedGroup } from "./token-file";
import { MASTERS_GROUP, AUTHENTICATED_GROUP, type UserInfo } from "./user-info";

export const CREDENTIAL_ID_KEY = "authentication.kubernetes.io/credential-id";
export const POD_NAME_KEY = "authentication.kubernetes.io/pod-name";
export const POD_UID_KEY = "authentication.kubernetes.io/pod-uid";
export const NODE_NAME_KEY = "authentication.kubernetes.io/node-name";
export const NODE_UID_KEY = "authentication.kubernetes.io/node-uid";
/** A Secret label that disables the legacy token it holds (kube's legacy token cleaner sets it). */
export const LEGACY_TOKEN_INVALID_SINCE_LABEL = "kubernetes.io/legacy-token-invalid-since";
export const LEGACY_TOKEN_LAST_USED_LABEL = "kubernetes.io/legacy-token-last-used";

type MaybePromise<T> = T | Promise<T>;

export interface LookedUpObject {
  uid: string;
  /** metadata.deletionTimestamp (RFC 3339) while the object is being deleted. */
  deletionTimestamp?: string;
}

export interface LookedUpSecret extends LookedUpObject {
  /** Decoded data; `token` is compared with a legacy token in constant time. */
  data?: { token?: string };
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** Reads of current objects (the watch cache); undefined when the object does not exist. */
export interface ServiceAccountLookup {
  serviceAccount(namespace: string, name: string): MaybePromise<LookedUpObject | undefined>;
  secret(namespace: string, name: string): MaybePromise<LookedUpSecret | undefined>;
  /** Needed for Pod-bound tokens; without it they are refused. */
  pod?(namespace: string, name: string): MaybePromise<LookedUpObject | undefined>;
  /** Needed for Node-bound tokens; without it they are refused. */
  node?(name: string): MaybePromise<LookedUpObject | undefined>;
}

export interface StaticTokenUser {
  token: string;
  user: UserInfo;
}

/** What a further token authenticator (the OIDC issuers) says about a token. */
export type TokenAuthenticatorResult =
  | { status: "not-ours" }
  | { status: "refused"; error: string }
  /** `expiresAt`: the token's exp (seconds), after which a cached answer must not be used. */
  | { status: "ok"; user: UserInfo; expiresAt?: number };

export interface AuthenticatorOptions {
  /** The admin bearer token: user `admin`, groups system:masters and system:authenticated. */
  adminToken?: string;
  /** Token-file users (parseTokenFile/loadTokenFile output). */
  staticTokens?: readonly StaticTokenUser[];
  /** ServiceAccount JWT verification; without it only static tokens work. */
  serviceAccountTokens?: ServiceAccountTokens;
  lookup?: ServiceAccountLookup;
  /**
   * JWT authenticators tried after ServiceAccount tokens (kube's --oidc-* / --authentication-config). Like
   * static tokens they are audience-agnostic: they answer only for the API audiences.
   */
  jwtAuthenticator?: (token: string) => Promise<TokenAuthenticatorResult>;
  /**
   * Called after a legacy token authenticates and its Secret's last-used label is not today's (UTC) date, so
   * the caller can set `kubernetes.io/legacy-token-last-used: <today>` as kube does.
   */
  onLegacyTokenUsed?: (use: { namespace: string; secretName: string; today: string }) => void;
  /** Clock in milliseconds (tests). */
  now?: () => number;
  /**
   * Keep successful JWT answers for the API audiences this long (kube's token success cache: 10 s in
   * kube-apiserver; 0 or unset: every call verifies). The caller then reports changes to the objects they were
   * checked against through `forget`, which drops their answers at once.
   */
  successCacheTtlMs?: number;
}

export interface AuthenticateOptions {
  /** The audiences the caller accepts (TokenReview spec.audiences); default the API audiences. */
  audiences?: readonly string[];
}

/** A TokenReview-shaped outcome; `error` carries kube's reason for a recognised but refused token. */
export type AuthenticationResult =
  | { authenticated: true; user: UserInfo; audiences: string[] }
  | { authenticated: false; error?: string };

export interface Authenticator {
  /** The user a bearer token authenticates as (for the API audiences), or undefined. */
  (token: string): Promise<UserInfo | undefined>;
  /** Full outcome with audiences and refusal reason, for TokenReview. */
  authenticate(token: string, options?: AuthenticateOptions): Promise<AuthenticationResult>;
  /**
   * The request path's answer (the API audiences): the user and how long the answer stands, at once for a static
   * token (always valid) or a kept one (valid while the token cache keeps it), else once verified; undefined
   * for a token nobody holds.
   */
  lease(token: string): TokenLease | undefined | Promise<TokenLease | undefined>;
  /**
   * A ServiceAccount, Secret, Pod or Node changed or went: cached answers checked against it are dropped, so
   * the next request with their token is checked again (a deleted account's token stops working at once).
   */
  forget(resource: string, namespace: string, name: string): void;
  /** The JWT issuers' configuration changed (AUTHENTICATION_CONFIG reloaded): their cached answers are dropped. */
  forgetIssuers(): void;
}

/** What every cached answer of the JWT (OIDC) authenticator depends on: its configuration. */
const JWT_CONFIGURATION = "authentication-configuration";

/** The objects a ServiceAccount token's answer was checked against (dependencyKey form). */
function checkedObjects(token: VerifiedServiceAccountToken): string[] {
  const out = [dependencyKey("serviceaccounts", token.namespace, token.name)];
  if (token.legacy) out.push(dependencyKey("secrets", token.namespace, token.legacySecretName ?? ""));
  const bound = token.boundObject;
  if (bound?.kind === "Secret") out.push(dependencyKey("secrets", token.namespace, bound.name));
  else if (bound?.kind === "Pod") out.push(dependencyKey("pods", token.namespace, bound.name));
  else if (bound?.kind === "Node") out.push(dependencyKey("nodes", "", bound.name));
  return out;
}

/** A lease on a kept answer (always a success: failures are never kept). */
function cachedLease(entry: CachedAnswer<AuthenticationResult>): TokenLease | undefined {
  const result = entry.value;
  return result.authenticated ? new CachedLease(result.user, entry) : undefined;
}

/** Valid while the token cache keeps its entry (a class: no closure made per lease). */
class CachedLease implements TokenLease {
  constructor(readonly user: UserInfo, private readonly entry: CachedAnswer<AuthenticationResult>) {}

  valid(): boolean {
    return this.entry.valid();
  }
}

/** A cached user is shared by every request that presents its token: nothing may change it. */
function frozenUser(user: UserInfo): UserInfo {
  Object.freeze(user.groups);
  if (user.extra) { for (const v of Object.values(user.extra)) Object.freeze(v); Object.freeze(user.extra); }
  return Object.freeze(user);
}

const ADMIN_USER: UserInfo = { username: "admin", groups: [MASTERS_GROUP, AUTHENTICATED_GROUP] };

function copyUser(user: UserInfo): UserInfo {
  const out: UserInfo = { username: user.username, groups: [...user.groups] };
  if (user.uid !== undefined) out.uid = user.uid;
  if (user.extra) out.extra = Object.fromEntries(Object.entries(user.extra).map(([k, v]) => [k, [...v]]));
  return out;
}

/** kube's ServiceAccountInfo.UserInfo() plus the system:authenticated group every authenticated user gets. */
export function serviceAccountUser(token: VerifiedServiceAccountToken, podName?: string, podUid?: string): UserInfo {
  const user: UserInfo = {
    username: `system:serviceaccount:${token.namespace}:${token.name}`,
    uid: token.uid,
    groups: ["system:serviceaccounts", `system:serviceaccounts:${token.namespace}`],
  };
  const extra: Record<string, string[]> = {};
  if (podName && podUid) {
    extra[POD_NAME_KEY] = [podName];
    extra[POD_UID_KEY] = [podUid];
  }
  if (token.credentialId) extra[CREDENTIAL_ID_KEY] = [token.credentialId];
  const node = token.boundObject?.kind === "Node" ? token.boundObject : token.node;
  if (node?.name) {
    extra[NODE_NAME_KEY] = [node.name];
    if (node.uid) extra[NODE_UID_KEY] = [node.uid];
  }
  if (Object.keys(extra).length) user.extra = extra;
  return withAuthenticatedGroup(user);
}

const sameSecret = (stored: string | undefined, presented: string) => {
  if (stored === undefined) return false;
  const a = Buffer.from(stored, "utf8");
  const b = Buffer.from(presented, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
};

const deletedBefore = (deletionTimestamp: string | undefined, limitMs: number) => {
  if (!deletionTimestamp) return false;
  const t = Date.parse(deletionTimestamp);
  return Number.isFinite(t) && t < limitMs;
};

const notFound = (resource: string, name: string) => `${resource} "${name}" not found`;

type Validation = { ok: true; user: UserInfo } | { ok: false; error: string };

/**
 * Builds the authenticator. Static tokens are audience-agnostic: like kube, they authenticate only when the
 * requested audiences meet the API audiences, and report that intersection.
 */
export function createAuthenticator(options: AuthenticatorOptions): Authenticator {
  const statics: UserInfo[] = [];
  const entries: { token: string; user: string; groups: string[] }[] = [];
  const add = (token: string, user: UserInfo) => {
    // bearer.ts maps a token to a name; use the entry's index as that name and keep the full user here.
    entries.push({ token, user: String(statics.length), groups: [] });
    statics.push(copyUser(user));
  };
  if (options.adminToken) add(options.adminToken, ADMIN_USER);
  for (const { token, user } of options.staticTokens ?? []) add(token, user);
  // One keyed digest per request: the static tokens' lookup and the token cache both use it.
  const digest = tokenDigest();
  let lookupStatic: ReturnType<typeof createTokenAuthenticator>;
  try {
    lookupStatic = createTokenAuthenticator(entries, digest);
  } catch (err) {
    // Re-word bearer.ts's message with the real user names (it names entries by index here).
    const message = (err as Error).message.replace(/"(\d+)"/g, (_, i: string) => JSON.stringify(statics[Number(i)]?.username ?? i));
    throw new Error(message);
  }

  const sa = options.serviceAccountTokens;
  const lookup = options.lookup;
  const now = options.now ?? Date.now;
  const apiAudiences = sa?.apiAudiences ?? [];

  async function validateBound(token: VerifiedServiceAccountToken): Promise<Validation> {
    const invalidIfDeletedBefore = now() - LEEWAY_SECONDS * 1000;
    const account = await lookup!.serviceAccount(token.namespace, token.name);
    if (!account) return { ok: false, error: notFound("serviceaccounts", token.name) };
    if (account.uid !== token.uid) return { ok: false, error: `service account UID (${account.uid}) does not match claim (${token.uid})` };
    if (deletedBefore(account.deletionTimestamp, invalidIfDeletedBefore)) {
      return { ok: false, error: `service account ${token.namespace}/${token.name} has been deleted` };
    }
    const bound = token.boundObject;
    let podName: string | undefined;
    let podUid: string | undefined;
    if (bound?.kind === "Secret") {
      const secret = await lookup!.secret(token.namespace, bound.name);
      if (!secret) return { ok: false, error: "service account token has been invalidated" };
      if (secret.uid !== bound.uid) return { ok: false, error: `secret UID (${secret.uid}) does not match service account secret ref claim (${bound.uid})` };
      if (deletedBefore(secret.deletionTimestamp, invalidIfDeletedBefore)) return { ok: false, error: "service account token has been invalidated" };
    } else if (bound?.kind === "Pod") {
      const pod = lookup!.pod ? await lookup!.pod(token.namespace, bound.name) : undefined;
      if (!pod) return { ok: false, error: "service account token has been invalidated" };
      if (pod.uid !== bound.uid) return { ok: false, error: `pod UID (${pod.uid}) does not match service account pod ref claim (${bound.uid})` };
      if (deletedBefore(pod.deletionTimestamp, invalidIfDeletedBefore)) return { ok: false, error: "service account token has been invalidated" };
      podName = bound.name;
      podUid = bound.uid;
    } else if (bound?.kind === "Node") {
      const node = lookup!.node ? await lookup!.node(bound.name) : undefined;
      if (!node) return { ok: false, error: "service account token has been invalidated" };
      if (node.uid !== bound.uid) return { ok: false, error: `node UID (${node.uid}) does not match service account node ref claim (${bound.uid})` };
      if (deletedBefore(node.deletionTimestamp, invalidIfDeletedBefore)) return { ok: false, error: "service account token has been invalidated" };
    }
    return { ok: true, user: serviceAccountUser(token, podName, podUid) };
  }

  async function validateLegacy(token: VerifiedServiceAccountToken, raw: string): Promise<Validation> {
    const { namespace, name } = token;
    const secretName = token.legacySecretName!;
    const secret = await lookup!.secret(namespace, secretName);
    if (!secret || secret.deletionTimestamp) return { ok: false, error: "Token has been invalidated" };
    if (!sameSecret(secret.data?.token, raw)) return { ok: false, error: "Token does not match server's copy" };
    const account = await lookup!.serviceAccount(namespace, name);
    if (!account) return { ok: false, error: notFound("serviceaccounts", name) };
    if (account.deletionTimestamp) return { ok: false, error: `ServiceAccount ${namespace}/${name} has been deleted` };
    if (account.uid !== token.uid) return { ok: false, error: `ServiceAccount UID (${account.uid}) does not match claim (${token.uid})` };
    if (secret.labels?.[LEGACY_TOKEN_INVALID_SINCE_LABEL]) {
      return {
        ok: false,
        error: `the token in secret ${namespace}/${secretName} for service account ${namespace}/${name} has been marked invalid. Use tokens from the TokenRequest API or manually created secret-based tokens, or remove the '${LEGACY_TOKEN_INVALID_SINCE_LABEL}' label from the secret to temporarily allow use of this token`,
      };
    }
    if (options.onLegacyTokenUsed) {
      const today = new Date(now()).toISOString().slice(0, 10);
      const tomorrow = new Date(now() + 86_400_000).toISOString().slice(0, 10);
      const lastUsed = secret.labels?.[LEGACY_TOKEN_LAST_USED_LABEL];
      if (lastUsed !== today && lastUsed !== tomorrow) options.onLegacyTokenUsed({ namespace, secretName, today });
    }
    return { ok: true, user: serviceAccountUser(token) };
  }

  const cache = options.successCacheTtlMs ? new TokenCache<AuthenticationResult>(now, options.successCacheTtlMs, TOKEN_CACHE_MAX, digest) : undefined;

  async function authenticate(token: string, opts: AuthenticateOptions = {}): Promise<AuthenticationResult> {
    if (typeof token !== "string" || token === "") return { authenticated: false };
    const requested = opts.audiences?.length ? opts.audiences : apiAudiences;

    const tokenDigested = digest(token);
    const hit = lookupStatic.byDigest(tokenDigested);
    if (hit) {
      const audiences = apiAudiences.filter((a) => requested.includes(a));
      if (apiAudiences.length && audiences.length === 0) return { authenticated: false };
      return { authenticated: true, user: copyUser(statics[Number(hit.user)]), audiences };
    }
    // The request path (the API audiences): answered from the cache while it holds the token.
    if (cache && !opts.audiences?.length) {
      return cache.peekDigested(tokenDigested) ?? cache.getDigested(tokenDigested, token, (t) => verifyJwt(t, opts, requested));
    }
    return (await verifyJwt(token, opts, requested)).value;
  }

  /** ServiceAccount JWTs, then the OIDC issuers; with what a success may be cached for. */
  async function verifyJwt(token: string, opts: AuthenticateOptions, requested: readonly string[]): Promise<Verified<AuthenticationResult>> {
    const refused = (value: AuthenticationResult): Verified<AuthenticationResult> => ({ value, keep: false });
    let saError: string | undefined;
    if (sa && lookup) {
      // Without audiences of its own the request is for the API audiences, which check() caches per token.
      const checked = await sa.check(token, opts.audiences?.length ? { audiences: requested } : {});
      if (checked.status === "invalid") saError = checked.error;
      else if (checked.status === "valid") {
        const verified = checked.token;
        const validation = verified.legacy ? await validateLegacy(verified, token) : await validateBound(verified);
        if (!validation.ok) return refused({ authenticated: false, error: validation.error });
        return {
          value: { authenticated: true, user: frozenUser(validation.user), audiences: verified.audiences }, keep: true,
          // Bound tokens are good until exp plus the leeway their check allows.
          expiresAtMs: verified.expiresAt !== undefined ? (verified.expiresAt + LEEWAY_SECONDS) * 1000 : undefined,
          dependsOn: checkedObjects(verified),
        };
      }
    }
    if (options.jwtAuthenticator) {
      const result = await options.jwtAuthenticator(token);
      if (result.status === "ok") {
        // kube's audience-agnostic wrapper: answers only for the API audiences (or any, without them).
        const audiences = apiAudiences.filter((a) => requested.includes(a));
        if (apiAudiences.length && audiences.length === 0) return refused({ authenticated: false });
        return {
          value: { authenticated: true, user: frozenUser(withAuthenticatedGroup(copyUser(result.user))), audiences }, keep: true,
          expiresAtMs: result.expiresAt !== undefined ? result.expiresAt * 1000 : undefined,
          dependsOn: [JWT_CONFIGURATION],
        };
      }
      if (result.status === "refused") return refused({ authenticated: false, error: saError ? `[${saError}, ${result.error}]` : result.error });
    }
    return refused(saError ? { authenticated: false, error: saError } : { authenticated: false });
  }

  // A static token's user never changes while the process runs: its lease always stands.
  const staticLeases: TokenLease[] = statics.map((u) => ({ user: frozenUser(copyUser(u)), valid: () => true }));

  function lease(token: string): TokenLease | undefined | Promise<TokenLease | undefined> {
    if (typeof token !== "string" || token === "") return undefined;
    const tokenDigested = digest(token);
    const hit = lookupStatic.byDigest(tokenDigested);
    if (hit) return staticLeases[Number(hit.user)];
    if (!cache) return authenticate(token).then((r) => (r.authenticated ? singleUse(r.user) : undefined));
    const kept = cache.peekEntry(tokenDigested);
    if (kept) return cachedLease(kept);
    return cache.getDigested(tokenDigested, token, (t) => verifyJwt(t, {}, apiAudiences)).then((result) => {
      if (!result.authenticated) return undefined;
      // Kept (the usual case): held as long as the cache holds it; else (overtaken by a change) for this request.
      const entry = cache.peekEntry(tokenDigested);
      return entry?.value === result ? cachedLease(entry) : singleUse(result.user);
    });
  }

  const authenticator = (async (token: string) => {
    const result = await authenticate(token);
    return result.authenticated ? result.user : undefined;
  }) as Authenticator;
  authenticator.authenticate = authenticate;
  authenticator.lease = lease;
  authenticator.forget = (resource, namespace, name) => cache?.forget(dependencyKey(resource, namespace, name));
  authenticator.forgetIssuers = () => cache?.forget(JWT_CONFIGURATION);
  return authenticator;
}
