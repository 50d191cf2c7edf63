// Start-up configuration: turns environment variables into one validated, typed object.
// Pure apart from path.resolve (which reads the current directory); it never touches the file system,
// never prints, and throws an Error naming the variable when a value is unusable.
import path from "node:path";

export interface ServerConfig {
  /** Address to bind. Default "0.0.0.0" (all IPv4 interfaces), like kube-apiserver; safe because every request needs a token. */
  host: string;
  /** Port to listen on (1-65535). Default 6443. */
  port: number;
  /** Absolute path of the data directory (database, pki/, admin-token). Default ./data. */
  dataDir: string;
  /** Database URL. Default file:<dataDir>/cluster-core.db (SQLite). */
  databaseUrl: string;
  /** Admin bearer token from CLUSTER_ADMIN_TOKEN; undefined means "generate or reuse <dataDir>/admin-token". */
  adminToken?: string;
  /** Absolute path of a PEM certificate (chain) to serve instead of the generated one. Set together with tlsKeyFile. */
  tlsCertFile?: string;
  /** Absolute path of the PEM private key for tlsCertFile. */
  tlsKeyFile?: string;
  /**
   * Absolute path of the PEM CA certificate(s) that issued tlsCertFile (TLS_CA_FILE): what the kubeconfig
   * written for users and the `kube-root-ca.crt` ConfigMaps carry. Only with tlsCertFile.
   */
  tlsCaFile?: string;
  /** True only when INSECURE_HTTP explicitly opts in to plain HTTP. */
  insecureHttp: boolean;
  /** How long (seconds) old resource versions stay readable before compaction. Default 300. */
  compactionWindowSeconds: number;
  /** Object history: the last revisions kept per object beyond the window (HISTORY_REVISIONS). Default 50. */
  historyRevisions: number;
  /** Object history: days a deleted object's revisions are kept after its deletion (HISTORY_DAYS). Default 7. */
  historyDays: number;
  /** Absolute path of a kube-apiserver static token CSV (TOKEN_AUTH_FILE): `token,user,uid,"group1,group2"`. */
  tokenAuthFile?: string;
  /**
   * Absolute path of the ServiceAccount token signing key (SERVICE_ACCOUNT_SIGNING_KEY_FILE, kube-apiserver's
   * --service-account-signing-key-file): replicas given the same file accept each other's tokens. Unset: the
   * key in <dataDir>/pki/sa.key, generated on first start.
   */
  serviceAccountSigningKeyFile?: string;
  /** Service cluster IP range (SERVICE_CLUSTER_IP_RANGE), a CIDR. Default 10.96.0.0/12 (kubeadm's). */
  serviceClusterIPRange: string;
  /** Service node port range (SERVICE_NODE_PORT_RANGE). Default 30000-32767. */
  serviceNodePortRange: { base: number; size: number };
  /** How long Events live (EVENT_TTL_SECONDS). Default 3600. */
  eventTTLSeconds: number;
  /** Read-only requests served at once (MAX_REQUESTS_INFLIGHT). Default 400; 0 means no limit. */
  maxRequestsInflight: number;
  /** Mutating requests served at once (MAX_MUTATING_REQUESTS_INFLIGHT). Default 200; 0 means no limit. */
  maxMutatingRequestsInflight: number;
  /** Deadline of a request that is not long-running (REQUEST_TIMEOUT_SECONDS). Default 60. */
  requestTimeoutSeconds: number;
  /**
   * Bytes that list answers in flight may hold at once (LIST_MEMORY_BUDGET_BYTES; each list counts its objects'
   * bytes up to 1 MB, as kube's APF for streamed lists). Default 512 MiB; beyond it a list is refused with 429.
   */
  listMemoryBudgetBytes: number;
  /**
   * The address the `kubernetes` Endpoints list for this replica (ADVERTISE_ADDRESS, kube-apiserver's
   * --advertise-address). Unset: HOST if it is a reachable address, else the host's default-route address.
   */
  advertiseAddress?: string;
  /**
   * How long a replica's identity Lease (`kube-system/apiserver-<hash>`) counts without renewal
   * (IDENTITY_LEASE_DURATION_SECONDS): a replica that stops renewing leaves the `kubernetes` Endpoints then.
   * Default 15 (kube's endpoint reconciler TTL); renewed every two thirds of it.
   */
  identityLeaseDurationSeconds: number;
  /** The OIDC_* settings (kube-apiserver's --oidc-* flags); unset without OIDC_ISSUER_URL. */
  oidc?: OidcSettings;
  /** Absolute path of an AuthenticationConfiguration file (AUTHENTICATION_CONFIG, kube's --authentication-config). */
  authenticationConfigFile?: string;
}

/** kube-apiserver's --oidc-* flags, read from OIDC_* variables. */
export interface OidcSettings {
  issuerURL: string;
  /** OIDC_CLIENT_ID: the audience tokens must carry. */
  clientID: string;
  /** OIDC_USERNAME_CLAIM, default `sub`. */
  usernameClaim: string;
  /** OIDC_USERNAME_PREFIX: unset means kube's default (`<issuer>#` unless the claim is `email`); `-` disables. */
  usernamePrefix?: string;
  groupsClaim?: string;
  groupsPrefix?: string;
  /** OIDC_REQUIRED_CLAIMS: `key=value` pairs, comma-separated. */
  requiredClaims: [string, string][];
  /** OIDC_CA_FILE, resolved to an absolute path. */
  caFile?: string;
  /** OIDC_SIGNING_ALGS, default [RS256]. */
  signingAlgs: string[];
}

export type Env = Readonly<Record<string, string | undefined>>;

export const DEFAULT_PORT = 6443;
export const DEFAULT_HOST = "0.0.0.0";
export const DEFAULT_DATA_DIR = "./data";
export const DEFAULT_COMPACTION_WINDOW_SECONDS = 300;
export const DEFAULT_HISTORY_REVISIONS = 50;
export const DEFAULT_HISTORY_DAYS = 7;
export const DEFAULT_SERVICE_CLUSTER_IP_RANGE = "10.96.0.0/12";
export const DEFAULT_SERVICE_NODE_PORT_RANGE = "30000-32767";
export const DEFAULT_EVENT_TTL_SECONDS = 3600;
export const DEFAULT_MAX_REQUESTS_INFLIGHT = 400;
export const DEFAULT_LIST_MEMORY_BUDGET_BYTES = 512 * 2 ** 20;
export const DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT = 200;
export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 60;
export const DEFAULT_IDENTITY_LEASE_DURATION_SECONDS = 15;

/** An IPv4 or IPv6 CIDR as kube-apiserver accepts for --service-cluster-ip-range (one range). */
function parseCidr(name: string, value: string): string {
  const m = /^([0-9a-fA-F:.]+)\/(\d{1,3})$/.exec(value);
  const v4 = m && /^\d{1,3}(\.\d{1,3}){3}$/.test(m[1]) && m[1].split(".").every((o) => Number(o) <= 255) && Number(m[2]) <= 32;
  const v6 = m && m[1].includes(":") && Number(m[2]) <= 128;
  if (!m || !(v4 || v6)) throw new Error(`${name} must be a CIDR such as 10.96.0.0/12, got ${JSON.stringify(value)}`);
  return value;
}

/** `30000-32767` or `30000+2768` (kube's PortRange forms). */
function parsePortRange(name: string, value: string): { base: number; size: number } {
  const m = /^(\d{1,5})(?:([-+])(\d{1,5}))?$/.exec(value);
  if (m) {
    const base = Number(m[1]);
    const size = m[2] === "+" ? Number(m[3]) : m[2] === "-" ? Number(m[3]) - base + 1 : 1;
    if (base >= 1 && size >= 1 && base + size - 1 <= 65535) return { base, size };
  }
  throw new Error(`${name} must be a port range such as 30000-32767, got ${JSON.stringify(value)}`);
}

/** Reads a variable; unset, empty and whitespace-only all count as "not set". */
function read(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined) return undefined;
  const value = raw.trim();
  return value === "" ? undefined : value;
}

function parseInteger(name: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value)) {
    throw new Error(`${name} must be a whole number between ${min} and ${max}, got ${JSON.stringify(value)}`);
  }
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new Error(`${name} must be a whole number between ${min} and ${max}, got ${JSON.stringify(value)}`);
  }
  return n;
}

function parseBoolean(name: string, value: string | undefined): boolean {
  if (value === undefined) return false;
  switch (value.toLowerCase()) {
    case "1": case "true": case "yes": case "on": return true;
    case "0": case "false": case "no": case "off": return false;
    default:
      throw new Error(`${name} must be 1/true/yes/on or 0/false/no/off, got ${JSON.stringify(value)}`);
  }
}

/** Whether an IP literal is one others can reach: not unspecified, loopback or link-local (kube's ValidateNonSpecialIP). */
function isReachableIP(ip: string): boolean {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number);
    if ([a, b, c, d].some((o) => o > 255)) return false;
    return !(a === 0 && b === 0 && c === 0 && d === 0) && a !== 127 && !(a === 169 && b === 254) && !(a === 224 && b === 0 && c === 0);
  }
  if (!ip.includes(":")) return false;
  let canonical: string;
  try {
    // The WHATWG URL parser validates and compresses IPv6 without any I/O.
    canonical = new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  } catch {
    return false;
  }
  return canonical !== "::" && canonical !== "::1" && !/^fe[89ab]/.test(canonical) && !/^ff[0-9a-f]2:/.test(canonical);
}

/** An address other replicas and pods can reach: an IP literal, neither unspecified, loopback nor link-local. */
function parseAdvertiseAddress(value: string): string {
  const ip = value.startsWith("[") && value.endsWith("]") ? value.slice(1, -1) : value;
  if (!isReachableIP(ip)) {
    throw new Error(`ADVERTISE_ADDRESS must be an IP address the cluster can reach (not unspecified, loopback or link-local), got ${JSON.stringify(value)}`);
  }
  return ip;
}

function parseHost(value: string): string {
  // Accept "[::1]" as well as "::1"; listen() wants the bare address.
  const host = value.startsWith("[") && value.endsWith("]") ? value.slice(1, -1) : value;
  if (host === "" || /[\s/\\?#@]/.test(host)) {
    throw new Error(`HOST must be an IP address or host name, got ${JSON.stringify(value)}`);
  }
  return host;
}

// Bearer tokens travel in an HTTP header, so only visible ASCII without spaces can work.
function parseToken(value: string): string {
  if (!/^[\x21-\x7e]+$/.test(value)) {
    // The message must not contain the token itself.
    throw new Error("CLUSTER_ADMIN_TOKEN must contain only visible ASCII characters without spaces");
  }
  return value;
}

/**
 * Builds the server configuration from environment variables.
 * Throws an Error with a message naming the offending variable on any invalid value.
 */
export function loadServerConfig(env: Env = process.env): ServerConfig {
  const portRaw = read(env, "PORT");
  const port = portRaw === undefined ? DEFAULT_PORT : parseInteger("PORT", portRaw, 1, 65535);

  const hostRaw = read(env, "HOST");
  const host = hostRaw === undefined ? DEFAULT_HOST : parseHost(hostRaw);

  const dataDir = path.resolve(read(env, "DATA_DIR") ?? DEFAULT_DATA_DIR);
  const databaseUrl = read(env, "DATABASE_URL") ?? `file:${path.join(dataDir, "cluster-core.db")}`;

  const tokenRaw = read(env, "CLUSTER_ADMIN_TOKEN");
  const adminToken = tokenRaw === undefined ? undefined : parseToken(tokenRaw);

  const certRaw = read(env, "TLS_CERT_FILE");
  const keyRaw = read(env, "TLS_KEY_FILE");
  if ((certRaw === undefined) !== (keyRaw === undefined)) {
    const [set, missing] = certRaw === undefined ? ["TLS_KEY_FILE", "TLS_CERT_FILE"] : ["TLS_CERT_FILE", "TLS_KEY_FILE"];
    throw new Error(`${set} is set but ${missing} is not: set both to serve your own certificate, or neither to use the generated one`);
  }

  const caRaw = read(env, "TLS_CA_FILE");
  if (caRaw !== undefined && certRaw === undefined) {
    throw new Error("TLS_CA_FILE names the CA that issued TLS_CERT_FILE: set TLS_CERT_FILE and TLS_KEY_FILE too, or unset TLS_CA_FILE");
  }

  const insecureHttp = parseBoolean("INSECURE_HTTP", read(env, "INSECURE_HTTP"));

  const windowRaw = read(env, "COMPACTION_WINDOW_SECONDS");
  const compactionWindowSeconds = windowRaw === undefined
    ? DEFAULT_COMPACTION_WINDOW_SECONDS
    : parseInteger("COMPACTION_WINDOW_SECONDS", windowRaw, 1, 365 * 24 * 3600);

  const revisionsRaw = read(env, "HISTORY_REVISIONS");
  const historyRevisions = revisionsRaw === undefined ? DEFAULT_HISTORY_REVISIONS : parseInteger("HISTORY_REVISIONS", revisionsRaw, 1, 100_000);
  const daysRaw = read(env, "HISTORY_DAYS");
  const historyDays = daysRaw === undefined ? DEFAULT_HISTORY_DAYS : parseInteger("HISTORY_DAYS", daysRaw, 0, 3650);

  const config: ServerConfig = {
    host, port, dataDir, databaseUrl, insecureHttp, compactionWindowSeconds, historyRevisions, historyDays,
    serviceClusterIPRange: DEFAULT_SERVICE_CLUSTER_IP_RANGE, serviceNodePortRange: { base: 30000, size: 2768 },
    eventTTLSeconds: DEFAULT_EVENT_TTL_SECONDS,
    maxRequestsInflight: DEFAULT_MAX_REQUESTS_INFLIGHT,
    maxMutatingRequestsInflight: DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT,
    requestTimeoutSeconds: DEFAULT_REQUEST_TIMEOUT_SECONDS,
    listMemoryBudgetBytes: DEFAULT_LIST_MEMORY_BUDGET_BYTES,
    identityLeaseDurationSeconds: DEFAULT_IDENTITY_LEASE_DURATION_SECONDS,
  };
  if (adminToken !== undefined) config.adminToken = adminToken;
  config.serviceClusterIPRange = parseCidr("SERVICE_CLUSTER_IP_RANGE", read(env, "SERVICE_CLUSTER_IP_RANGE") ?? DEFAULT_SERVICE_CLUSTER_IP_RANGE);
  config.serviceNodePortRange = parsePortRange("SERVICE_NODE_PORT_RANGE", read(env, "SERVICE_NODE_PORT_RANGE") ?? DEFAULT_SERVICE_NODE_PORT_RANGE);
  const ttl = read(env, "EVENT_TTL_SECONDS");
  config.eventTTLSeconds = ttl === undefined ? DEFAULT_EVENT_TTL_SECONDS : parseInteger("EVENT_TTL_SECONDS", ttl, 1, 365 * 24 * 3600);
  const inflight = (name: string, fallback: number) => {
    const v = read(env, name);
    return v === undefined ? fallback : parseInteger(name, v, 0, 1_000_000);
  };
  config.maxRequestsInflight = inflight("MAX_REQUESTS_INFLIGHT", DEFAULT_MAX_REQUESTS_INFLIGHT);
  config.maxMutatingRequestsInflight = inflight("MAX_MUTATING_REQUESTS_INFLIGHT", DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT);
  const timeout = read(env, "REQUEST_TIMEOUT_SECONDS");
  config.requestTimeoutSeconds = timeout === undefined ? DEFAULT_REQUEST_TIMEOUT_SECONDS : parseInteger("REQUEST_TIMEOUT_SECONDS", timeout, 1, 24 * 3600);
  const budget = read(env, "LIST_MEMORY_BUDGET_BYTES");
  if (budget !== undefined) config.listMemoryBudgetBytes = parseInteger("LIST_MEMORY_BUDGET_BYTES", budget, 1, Number.MAX_SAFE_INTEGER);
  const advertise = read(env, "ADVERTISE_ADDRESS");
  if (advertise !== undefined) config.advertiseAddress = parseAdvertiseAddress(advertise);
  const leaseSeconds = read(env, "IDENTITY_LEASE_DURATION_SECONDS");
  if (leaseSeconds !== undefined) config.identityLeaseDurationSeconds = parseInteger("IDENTITY_LEASE_DURATION_SECONDS", leaseSeconds, 2, 24 * 3600);
  const tokenFile = read(env, "TOKEN_AUTH_FILE");
  if (tokenFile !== undefined) config.tokenAuthFile = path.resolve(tokenFile);
  const signingKey = read(env, "SERVICE_ACCOUNT_SIGNING_KEY_FILE");
  if (signingKey !== undefined) config.serviceAccountSigningKeyFile = path.resolve(signingKey);
  readAuthentication(env, config);
  if (certRaw !== undefined && keyRaw !== undefined) {
    config.tlsCertFile = path.resolve(certRaw);
    config.tlsKeyFile = path.resolve(keyRaw);
    if (caRaw !== undefined) config.tlsCaFile = path.resolve(caRaw);
  }
  return config;
}

const OIDC_VARIABLES = [
  "OIDC_ISSUER_URL", "OIDC_CLIENT_ID", "OIDC_USERNAME_CLAIM", "OIDC_USERNAME_PREFIX", "OIDC_GROUPS_CLAIM",
  "OIDC_GROUPS_PREFIX", "OIDC_REQUIRED_CLAIMS", "OIDC_CA_FILE", "OIDC_SIGNING_ALGS",
];

/** kube's mapStringString flag: `a=b,c=d`; later keys replace earlier ones. */
function parseRequiredClaims(value: string): [string, string][] {
  const out = new Map<string, string>();
  for (const pair of value.split(",")) {
    const item = pair.trim();
    if (item === "") continue;
    const eq = item.indexOf("=");
    if (eq < 0) throw new Error(`OIDC_REQUIRED_CLAIMS: ${JSON.stringify(item)} must be formatted as key=value`);
    out.set(item.slice(0, eq).trim(), item.slice(eq + 1).trim());
  }
  return [...out];
}

/** OIDC_* and AUTHENTICATION_CONFIG, with kube's refusals when they are combined or incomplete. */
function readAuthentication(env: Env, config: ServerConfig): void {
  const authConfig = read(env, "AUTHENTICATION_CONFIG");
  const anyOidc = OIDC_VARIABLES.some((name) => read(env, name) !== undefined);
  if (authConfig !== undefined) {
    if (anyOidc) throw new Error("authentication-config file and oidc-* flags are mutually exclusive (AUTHENTICATION_CONFIG and OIDC_* are both set)");
    config.authenticationConfigFile = path.resolve(authConfig);
    return;
  }
  if (!anyOidc) return;
  const issuerURL = read(env, "OIDC_ISSUER_URL");
  const clientID = read(env, "OIDC_CLIENT_ID");
  if (issuerURL === undefined || clientID === undefined) {
    throw new Error("oidc-issuer-url and oidc-client-id must be specified together when any oidc-* flags are set (OIDC_ISSUER_URL and OIDC_CLIENT_ID)");
  }
  const oidc: OidcSettings = {
    issuerURL, clientID,
    usernameClaim: read(env, "OIDC_USERNAME_CLAIM") ?? "sub",
    requiredClaims: parseRequiredClaims(read(env, "OIDC_REQUIRED_CLAIMS") ?? ""),
    signingAlgs: (read(env, "OIDC_SIGNING_ALGS") ?? "RS256").split(",").map((a) => a.trim()).filter(Boolean),
  };
  const usernamePrefix = read(env, "OIDC_USERNAME_PREFIX");
  if (usernamePrefix !== undefined) oidc.usernamePrefix = usernamePrefix;
  const groupsClaim = read(env, "OIDC_GROUPS_CLAIM");
  if (groupsClaim !== undefined) oidc.groupsClaim = groupsClaim;
  const groupsPrefix = read(env, "OIDC_GROUPS_PREFIX");
  if (groupsPrefix !== undefined) oidc.groupsPrefix = groupsPrefix;
  const caFile = read(env, "OIDC_CA_FILE");
  if (caFile !== undefined) oidc.caFile = path.resolve(caFile);
  config.oidc = oidc;
}

/** A copy safe to print or log: the admin token is replaced by "<redacted>". */
export function redactServerConfig(config: ServerConfig): Omit<ServerConfig, "adminToken"> & { adminToken?: string } {
  return config.adminToken === undefined ? { ...config } : { ...config, adminToken: "<redacted>" };
}
