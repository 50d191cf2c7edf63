// Boots everything one server process needs, once: configuration, the admin token, TLS material, the
// kubeconfig, the store and its cache, the registry. Kept on globalThis so server.ts and the Next.js route
// handlers (which Next bundles separately) share one runtime per process.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { ensureAdminToken, ensureSecretFile } from "../auth/admin-token";
import { kubeconfigServerUrl, renderKubeconfig, writeKubeconfig } from "../auth/kubeconfig";
import { loadConsoleOidcConfig } from "../config/console-oidc";
import { loadServerConfig, type ServerConfig } from "../config/server-config";
import { kinds } from "../kinds";
import type { ApiRuntime } from "../api/types";
import { openapiDocument } from "../openapi";
import { Registry } from "../registry/registry";
import { retiredMetadataUpgrade } from "../registry/retired-metadata";
import { auditLogFromEnv } from "../audit/audit-log";
import { buildAuditEvent } from "../audit/audit-event";
import { bootstrap } from "../bootstrap";
import { startControllers } from "../controllers";
import { serveCustomResources } from "../controllers/custom-resource-serving";
import { startKubernetesService } from "../controllers/kubernetes-service";
import { IPRange } from "../allocators/ip-range";
import { advertiseAddress } from "./advertise-address";
import { RegistryEventRecorder } from "../events/event-recorder";
import { admissionChain } from "./admission";
import { buildSecurity, rbacIndex } from "./security";
import { serverMetrics } from "./metrics";
import { FlowController } from "../flowcontrol/flow-controller";
import { openStore, type Store } from "../storage";
import { encryptionFromEnv, groupsOfKinds } from "../encryption";
import { ensureServingCertificate, loadServingCertificate, type ServingCertificate } from "../tls/certificates";

export interface ServerRuntime extends ApiRuntime {
  config: ServerConfig;
  store: Store;
  tls?: ServingCertificate;
  kubeconfigPath: string;
  close(): Promise<void>;
}

const KEY = Symbol.for("cluster-core.runtime");
type Holder = { [KEY]?: Promise<ServerRuntime> };

/** The process's runtime, booted on first use from the environment. */
export function getRuntime(): Promise<ServerRuntime> {
  const g = globalThis as Holder;
  g[KEY] ??= bootRuntime(loadServerConfig());
  return g[KEY];
}

async function bootRuntime(config: ServerConfig): Promise<ServerRuntime> {
  // The console's OIDC client settings (CONSOLE_OIDC_*): a malformed one stops the start, naming it.
  loadConsoleOidcConfig(process.env);
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const adminToken = ensureAdminToken({ dataDir: config.dataDir, configured: config.adminToken });
  // The console's sign-in compares against this and signs its session cookie with NEXTAUTH_SECRET.
  process.env.CLUSTER_ADMIN_TOKEN = adminToken;
  process.env.NEXTAUTH_SECRET ||= ensureSecretFile(path.join(config.dataDir, "session-secret"));
  const scheme = config.insecureHttp ? "http" : "https";
  process.env.NEXTAUTH_URL ||= kubeconfigServerUrl(config.host, config.port, scheme);

  let tls: ServingCertificate | undefined;
  if (!config.insecureHttp) {
    tls = config.tlsCertFile && config.tlsKeyFile
      ? loadServingCertificate(config.tlsCertFile, config.tlsKeyFile, config.tlsCaFile)
      : await ensureServingCertificate({ dataDir: config.dataDir, hosts: isWildcard(config.host) ? [] : [config.host] });
    if (tls.caWarning) console.warn(`warning: ${tls.caWarning}`);
  }
  const kubeconfigPath = path.join(config.dataDir, "admin.kubeconfig");
  writeKubeconfig(kubeconfigPath, renderKubeconfig({
    server: kubeconfigServerUrl(config.host, config.port, scheme),
    caPem: tls?.ca,
    token: adminToken,
  }));

  // ENCRYPTION_CONFIG: kube's EncryptionConfiguration; a bad file stops the start here, naming the problem.
  const transformer = encryptionFromEnv(process.env, groupsOfKinds(kinds));
  const store = await openStore({
    databaseUrl: config.databaseUrl, compactionWindowSeconds: config.compactionWindowSeconds, transformer,
    upgrade: retiredMetadataUpgrade(kinds),
    history: { revisions: config.historyRevisions, days: config.historyDays },
  });
  const metrics = serverMetrics(store);
  const rbac = rbacIndex(store.objects);
  const registry = new Registry(store, kinds, { admission: (registry) => admissionChain({ registry, rbac: rbac.authorizer, config }) });
  const security = await buildSecurity(registry, rbac.authorizer, {
    dataDir: config.dataDir, adminToken, tokenAuthFile: config.tokenAuthFile, serviceAccountSigningKeyFile: config.serviceAccountSigningKeyFile,
    externalAddress: `${isWildcard(config.host) ? "127.0.0.1" : config.host}:${config.port}`,
    oidc: config.oidc, authenticationConfigFile: config.authenticationConfigFile,
  });
  // Every replica serves every Established CRD's kinds, from its first pass over the cache (before /readyz answers).
  const stopCustomResources = serveCustomResources(store.objects, (err) => console.error(`custom resource serving: ${err instanceof Error ? err.message : String(err)}`));
  const recorder = new RegistryEventRecorder({ registry, onError: (err) => console.error(`event recorder: ${err instanceof Error ? err.message : String(err)}`) });
  await bootstrap(registry);
  // Every replica, leader or not, keeps the `kubernetes` Service and publishes its own address in its Endpoints.
  const serviceRange = new IPRange(config.serviceClusterIPRange);
  const advertised = advertiseAddress({ configured: config.advertiseAddress, bindHost: config.host, family: serviceRange.family });
  if (!advertised) console.warn("warning: no address to advertise in the kubernetes Endpoints (only loopback interfaces): set ADVERTISE_ADDRESS");
  const stopKubernetesService = await startKubernetesService({
    registry, clusterIP: serviceRange.at(0), port: config.port, advertiseAddress: advertised,
    leaseDurationSeconds: config.identityLeaseDurationSeconds,
    onError: (key, err) => console.error(`controller kubernetes-service: ${key}: ${err instanceof Error ? err.message : String(err)}`),
  });
  const stopControllers = startControllers({
    registry, tokens: security.tokens, caPem: tls?.ca ?? "", rbac: security.authorizer, config, recorder, leaderElection: {},
    onError: (controller, key, err) => console.error(`controller ${controller}: ${key}: ${err instanceof Error ? err.message : String(err)}`),
  });
  let sessionBearer: ApiRuntime["sessionBearer"];
  try {
    sessionBearer = (await import("../auth/session")).sessionFromCookie;
  } catch {
    sessionBearer = undefined; // console sessions unavailable (API-only build)
  }
  const openapi: ApiRuntime["openapi"] = openapiDocument;
  const auditLog = auditLogFromEnv(process.env);
  const audit: ApiRuntime["audit"] = auditLog && ((record) => auditLog.write(buildAuditEvent(record)));
  // kube's 0 means "no limit" for the in-flight settings. CLUSTER_CORE_FLOW_CONTROL=off exists only for the
  // bench's before/after comparison of this layer.
  const flowControl = process.env.CLUSTER_CORE_FLOW_CONTROL === "off" ? undefined : new FlowController({
    readOnly: config.maxRequestsInflight || Number.MAX_SAFE_INTEGER,
    mutating: config.maxMutatingRequestsInflight || Number.MAX_SAFE_INTEGER,
    requestTimeoutSeconds: config.requestTimeoutSeconds,
    listMemoryBytes: config.listMemoryBudgetBytes,
  });
  let closed = false;
  return {
    config, store, tls, kubeconfigPath, registry, sessionBearer, openapi, audit, metrics, flowControl,
    authenticate: security.authenticate, authenticateLease: security.authenticateLease, authorizer: security.authorizer, actions: security.actions, oidc: security.oidc,
    serverAddress: `${isWildcard(config.host) ? "127.0.0.1" : config.host}:${config.port}`,
    isReady: () => !closed,
    async close() {
      closed = true;
      await stopKubernetesService();
      await stopControllers();
      stopCustomResources();
      recorder.stop();
      rbac.close();
      security.jwt?.close();
      security.close();
      registry.close();
      await auditLog?.close();
      await store.close();
    },
  };
}

function isWildcard(host: string): boolean {
  return host === "0.0.0.0" || host === "::" || host === "";
}
