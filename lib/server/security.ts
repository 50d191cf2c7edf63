// Builds the request chain's security parts for one process: who a token belongs to (admin token, token
// file, ServiceAccount JWTs), what they may do (RBAC, indexed from the watch cache), and the handlers of the
// create-only APIs that expose them (TokenRequest, TokenReview, SelfSubjectReview, the access reviews), plus
// the service-account issuer's discovery documents.
import { createAuthenticator, LEGACY_TOKEN_LAST_USED_LABEL } from "../auth/authenticator";
import { defaultJwksUri, jwks, openIdConfiguration } from "../auth/oidc-discovery";
import { ServiceAccountTokens } from "../auth/service-account-token";
import { TOKEN_SUCCESS_TTL_MS } from "../auth/token-cache";
import { loadTokenFile } from "../auth/token-file";
import type { OidcSettings } from "../config/server-config";
import { createOidcAuthenticator, type OidcAuthenticator } from "../oidc/oidc-authenticator";
import { tokenRequestHandler } from "../reviews/token-request";
import type { UserInfo } from "../auth/user-info";
import { RbacAuthorizer } from "../authz/rbac-authorizer";
import type { ApiRuntime } from "../api/types";
import type { ActionHandler } from "../registry/action-handler";
import { kindByPlural } from "../kinds";
import type { KubeObject } from "../kinds/types";
import type { Registry } from "../registry/registry";
import type { ObjectStore } from "../storage";
import { accessReview } from "../reviews/access-review";
import { selfSubjectReview } from "../reviews/self-subject-review";
import { selfSubjectRulesReview } from "../reviews/rules-review";
import { tokenReview } from "../reviews/token-review";

const RBAC_RESOURCES = new Set(["roles", "clusterroles", "rolebindings", "clusterrolebindings"]);
/** What a ServiceAccount token is checked against: a change to one drops the cached answers that read it. */
const TOKEN_OBJECT_RESOURCES = new Set(["serviceaccounts", "secrets", "pods", "nodes"]);

export interface SecurityOptions {
  dataDir: string;
  adminToken: string;
  tokenAuthFile?: string;
  /** SERVICE_ACCOUNT_SIGNING_KEY_FILE: the ServiceAccount signing key shared by replicas (default <dataDir>/pki/sa.key). */
  serviceAccountSigningKeyFile?: string;
  /** host:port clients reach this server at (the JWKS URI is built from it). */
  externalAddress: string;
  /** OIDC_*: one JWT issuer (kube's --oidc-* flags). */
  oidc?: OidcSettings;
  /** AUTHENTICATION_CONFIG: kube's structured authentication configuration (re-read when it changes). */
  authenticationConfigFile?: string;
  /** Where the JWT issuers report that they are unreachable or that a new file was refused. */
  log?: (line: string) => void;
}

export interface Security {
  authenticate: ApiRuntime["authenticate"];
  authenticateLease: NonNullable<ApiRuntime["authenticateLease"]>;
  authorizer: RbacAuthorizer;
  actions: Map<string, ActionHandler>;
  oidc: NonNullable<ApiRuntime["oidc"]>;
  tokens: ServiceAccountTokens;
  /** The OIDC issuers, when configured: closed with the runtime. */
  jwt?: OidcAuthenticator;
  /** Stops following the watch cache (the token cache's invalidation). */
  close(): void;
}

/**
 * RBAC decisions come from an index kept current by the watch cache: no store read per request. Built before
 * the registry (the admission chain's escalation check needs it).
 */
export function rbacIndex(objects: ObjectStore): { authorizer: RbacAuthorizer; close(): void } {
  const authorizer = new RbacAuthorizer();
  const rbacObjects = function* () {
    for (const o of objects.allObjects()) if (RBAC_RESOURCES.has(o.key.resource)) yield { key: o.key, object: o.object };
  };
  authorizer.load(rbacObjects());
  const onEvent = (e: { type: string; key: { resource: string; namespace: string; name: string }; object: unknown }) => {
    if (RBAC_RESOURCES.has(e.key.resource)) authorizer.apply(e);
  };
  objects.listeners.add(onEvent);
  return { authorizer, close: () => { objects.listeners.delete(onEvent); } };
}

export async function buildSecurity(registry: Registry, authorizer: RbacAuthorizer, opts: SecurityOptions): Promise<Security> {
  const cache = registry.store.objects;
  const get = (resource: string, namespace: string, name: string): KubeObject | undefined =>
    cache.get({ resource, namespace, name })?.object;
  const looked = (o: KubeObject | undefined) => o && { uid: o.metadata.uid ?? "", deletionTimestamp: o.metadata.deletionTimestamp };

  const tokens = await ServiceAccountTokens.open({ dataDir: opts.dataDir, signingKeyFile: opts.serviceAccountSigningKeyFile });
  const staticTokens = opts.tokenAuthFile ? loadTokenFile(opts.tokenAuthFile) : [];
  const jwt = createOidcAuthenticator({
    flags: opts.oidc, configFile: opts.authenticationConfigFile, serviceAccountIssuers: tokens.issuers,
    log: opts.log ?? ((line) => console.error(line)),
    // A reloaded file may drop an issuer or change its claim mappings: no answer cached under the old one stands.
    onReload: () => authn.forgetIssuers(),
  });
  const authn = createAuthenticator({
    jwtAuthenticator: jwt && ((token) => jwt.authenticate(token)),
    // kube-apiserver's token cache (10 s); answers that read an object are dropped when it changes (below).
    successCacheTtlMs: TOKEN_SUCCESS_TTL_MS,
    adminToken: opts.adminToken,
    staticTokens,
    serviceAccountTokens: tokens,
    // kube's legacy-token tracking: the Secret carries the day its token was last used.
    onLegacyTokenUsed: ({ namespace, secretName, today }) => {
      const kind = kindByPlural("secrets")!;
      void registry.patch(kind, namespace, secretName, (current) => {
        const next = structuredClone(current);
        next.metadata.labels = { ...next.metadata.labels, [LEGACY_TOKEN_LAST_USED_LABEL]: today };
        return next;
      }, { dryRun: false, fieldValidation: "Ignore" }).catch(() => { /* deleted meanwhile: nothing to mark */ });
    },
    lookup: {
      serviceAccount: (ns, name) => looked(get("serviceaccounts", ns, name)),
      pod: (ns, name) => looked(get("pods", ns, name)),
      secret: (ns, name) => {
        const s = get("secrets", ns, name);
        if (!s) return undefined;
        const data = s.data as Record<string, string> | undefined;
        return {
          uid: s.metadata.uid ?? "", deletionTimestamp: s.metadata.deletionTimestamp,
          labels: s.metadata.labels, annotations: s.metadata.annotations,
          data: data?.token ? { token: Buffer.from(data.token, "base64").toString("utf8") } : {},
        };
      },
    },
  });

  const actions = new Map<string, ActionHandler>([
    ["serviceaccounts/token", tokenRequestHandler(tokens, { get })],
    ["authentication.k8s.io/selfsubjectreviews", selfSubjectReview],
    ["authentication.k8s.io/tokenreviews", tokenReview((token, o) => authn.authenticate(token, o))],
    ["authorization.k8s.io/subjectaccessreviews", accessReview("SubjectAccessReview", authorizer)],
    ["authorization.k8s.io/localsubjectaccessreviews", accessReview("LocalSubjectAccessReview", authorizer)],
    ["authorization.k8s.io/selfsubjectaccessreviews", accessReview("SelfSubjectAccessReview", authorizer)],
    ["authorization.k8s.io/selfsubjectrulesreviews", selfSubjectRulesReview(authorizer)],
  ]);

  const jwksUri = defaultJwksUri(opts.externalAddress);
  const oidc = {
    configuration: () => openIdConfiguration(tokens.issuer, jwksUri, tokens.publicKeys()),
    jwks: () => jwks(tokens.publicKeys()),
  };
  // A deleted (or changed) ServiceAccount, Secret, Pod or Node revokes the tokens checked against it at once,
  // not after the cache's 10 s: the event reaches this listener before the delete is answered.
  const onEvent = (e: { key: { resource: string; namespace: string; name: string } }) => {
    if (TOKEN_OBJECT_RESOURCES.has(e.key.resource)) authn.forget(e.key.resource, e.key.namespace, e.key.name);
  };
  cache.listeners.add(onEvent);
  const authenticate = (token: string): Promise<UserInfo | undefined> => authn(token);
  return { authenticate, authenticateLease: authn.lease, authorizer, actions, oidc, tokens, jwt, close: () => { cache.listeners.delete(onEvent); } };
}
