import path from "node:path";
import { describe, it, expect } from "vitest";
import { loadServerConfig, redactServerConfig } from "./server-config";

describe("loadServerConfig", () => {
  it("applies defaults", () => {
    const c = loadServerConfig({});
    expect(c.port).toBe(6443);
    expect(c.host).toBe("0.0.0.0");
    expect(c.dataDir).toBe(path.resolve("./data"));
    expect(path.isAbsolute(c.dataDir)).toBe(true);
    expect(c.databaseUrl).toBe(`file:${path.join(c.dataDir, "cluster-core.db")}`);
    expect(c.adminToken).toBeUndefined();
    expect(c.tlsCertFile).toBeUndefined();
    expect(c.tlsKeyFile).toBeUndefined();
    expect(c.insecureHttp).toBe(false);
    expect(c.compactionWindowSeconds).toBe(300);
    expect([c.historyRevisions, c.historyDays]).toEqual([50, 7]);
    expect("adminToken" in c).toBe(false);
  });

  it("takes an ADVERTISE_ADDRESS others can reach, and a lease duration of at least 2 s", () => {
    expect(loadServerConfig({}).identityLeaseDurationSeconds).toBe(15);
    expect(loadServerConfig({ ADVERTISE_ADDRESS: "[2001:db8::7]" }).advertiseAddress).toBe("2001:db8::7");
    for (const bad of ["127.0.0.1", "0.0.0.0", "169.254.1.1", "::1", "::", "fe80::1", "host.example", "10.0.0.256", "1:2:3"]) {
      expect(() => loadServerConfig({ ADVERTISE_ADDRESS: bad }), bad).toThrow(/^ADVERTISE_ADDRESS must be an IP address the cluster can reach/);
    }
    expect(() => loadServerConfig({ IDENTITY_LEASE_DURATION_SECONDS: "1" })).toThrow(/IDENTITY_LEASE_DURATION_SECONDS/);
  });

  it("reads every variable", () => {
    const c = loadServerConfig({
      PORT: "8443", HOST: "127.0.0.1", DATA_DIR: "/srv/cc", DATABASE_URL: "postgresql://u@localhost/cc",
      CLUSTER_ADMIN_TOKEN: "s3cr3t-token", TLS_CERT_FILE: "/etc/cc/tls.crt", TLS_KEY_FILE: "/etc/cc/tls.key",
      INSECURE_HTTP: "1", COMPACTION_WINDOW_SECONDS: "60", TOKEN_AUTH_FILE: "/etc/cc/tokens.csv",
      SERVICE_CLUSTER_IP_RANGE: "10.0.0.0/24", SERVICE_NODE_PORT_RANGE: "31000-31009", EVENT_TTL_SECONDS: "600",
      MAX_REQUESTS_INFLIGHT: "800", MAX_MUTATING_REQUESTS_INFLIGHT: "0", REQUEST_TIMEOUT_SECONDS: "30",
      HISTORY_REVISIONS: "10", HISTORY_DAYS: "0", SERVICE_ACCOUNT_SIGNING_KEY_FILE: "/etc/cc/sa.key",
      ADVERTISE_ADDRESS: "10.1.2.3", IDENTITY_LEASE_DURATION_SECONDS: "5", LIST_MEMORY_BUDGET_BYTES: "1048576",
    });
    expect(c).toEqual({
      port: 8443, host: "127.0.0.1", dataDir: "/srv/cc", databaseUrl: "postgresql://u@localhost/cc",
      adminToken: "s3cr3t-token", tlsCertFile: "/etc/cc/tls.crt", tlsKeyFile: "/etc/cc/tls.key",
      insecureHttp: true, compactionWindowSeconds: 60, tokenAuthFile: "/etc/cc/tokens.csv",
      serviceClusterIPRange: "10.0.0.0/24", serviceNodePortRange: { base: 31000, size: 10 }, eventTTLSeconds: 600,
      maxRequestsInflight: 800, maxMutatingRequestsInflight: 0, requestTimeoutSeconds: 30,
      historyRevisions: 10, historyDays: 0, serviceAccountSigningKeyFile: "/etc/cc/sa.key",
      advertiseAddress: "10.1.2.3", identityLeaseDurationSeconds: 5, listMemoryBudgetBytes: 1048576,
    });
    expect(() => loadServerConfig({ HISTORY_REVISIONS: "0" })).toThrow(/HISTORY_REVISIONS/);
    expect(() => loadServerConfig({ HISTORY_DAYS: "-1" })).toThrow(/HISTORY_DAYS/);
  });

  it("defaults the flow-control settings as kube-apiserver does and names a bad one", () => {
    const c = loadServerConfig({});
    expect([c.maxRequestsInflight, c.maxMutatingRequestsInflight, c.requestTimeoutSeconds]).toEqual([400, 200, 60]);
    expect(c.listMemoryBudgetBytes).toBe(512 * 2 ** 20);
    expect(() => loadServerConfig({ MAX_REQUESTS_INFLIGHT: "-1" })).toThrow(/MAX_REQUESTS_INFLIGHT/);
    expect(() => loadServerConfig({ LIST_MEMORY_BUDGET_BYTES: "0" })).toThrow(/LIST_MEMORY_BUDGET_BYTES/);
    expect(() => loadServerConfig({ REQUEST_TIMEOUT_SECONDS: "0" })).toThrow(/REQUEST_TIMEOUT_SECONDS/);
  });

  it("defaults the service ranges and event TTL as kubeadm does, and names a bad one", () => {
    const c = loadServerConfig({});
    expect(c.serviceClusterIPRange).toBe("10.96.0.0/12");
    expect(c.serviceNodePortRange).toEqual({ base: 30000, size: 2768 });
    expect(c.eventTTLSeconds).toBe(3600);
    expect(() => loadServerConfig({ SERVICE_CLUSTER_IP_RANGE: "10.96.0.0" })).toThrow(/SERVICE_CLUSTER_IP_RANGE/);
    expect(() => loadServerConfig({ SERVICE_NODE_PORT_RANGE: "40000-30000" })).toThrow(/SERVICE_NODE_PORT_RANGE/);
  });

  it("derives the database URL from DATA_DIR and resolves relative paths", () => {
    const c = loadServerConfig({ DATA_DIR: "var/x", TLS_CERT_FILE: "a.crt", TLS_KEY_FILE: "a.key" });
    expect(c.dataDir).toBe(path.resolve("var/x"));
    expect(c.databaseUrl).toBe(`file:${path.resolve("var/x")}/cluster-core.db`);
    expect(c.tlsCertFile).toBe(path.resolve("a.crt"));
    expect(c.tlsKeyFile).toBe(path.resolve("a.key"));
  });

  it("treats empty values as unset", () => {
    const c = loadServerConfig({ PORT: "", HOST: "  ", CLUSTER_ADMIN_TOKEN: "", INSECURE_HTTP: "" });
    expect(c.port).toBe(6443);
    expect(c.host).toBe("0.0.0.0");
    expect(c.adminToken).toBeUndefined();
    expect(c.insecureHttp).toBe(false);
  });

  it("accepts bracketed IPv6 hosts", () => {
    expect(loadServerConfig({ HOST: "[::1]" }).host).toBe("::1");
    expect(loadServerConfig({ HOST: "::" }).host).toBe("::");
  });

  it.each(["abc", "0", "65536", "-1", "12.5", "1e3", "0x10", "80 80"])("rejects PORT=%s", (port) => {
    expect(() => loadServerConfig({ PORT: port })).toThrow(/^PORT must be a whole number between 1 and 65535/);
  });

  it.each(["abc", "0", "-5", "1.5"])("rejects COMPACTION_WINDOW_SECONDS=%s", (v) => {
    expect(() => loadServerConfig({ COMPACTION_WINDOW_SECONDS: v })).toThrow(/COMPACTION_WINDOW_SECONDS must be a whole number/);
  });

  it("parses INSECURE_HTTP strictly", () => {
    for (const v of ["1", "true", "TRUE", "yes", "on"]) expect(loadServerConfig({ INSECURE_HTTP: v }).insecureHttp).toBe(true);
    for (const v of ["0", "false", "no", "off"]) expect(loadServerConfig({ INSECURE_HTTP: v }).insecureHttp).toBe(false);
    expect(() => loadServerConfig({ INSECURE_HTTP: "maybe" })).toThrow(/INSECURE_HTTP must be/);
  });

  it("takes TLS_CA_FILE, the CA that issued TLS_CERT_FILE, only together with it", () => {
    const c = loadServerConfig({ TLS_CERT_FILE: "a.crt", TLS_KEY_FILE: "a.key", TLS_CA_FILE: "ca.crt" });
    expect(c.tlsCaFile).toBe(path.resolve("ca.crt"));
    expect(loadServerConfig({ TLS_CERT_FILE: "a.crt", TLS_KEY_FILE: "a.key" }).tlsCaFile).toBeUndefined();
    expect(() => loadServerConfig({ TLS_CA_FILE: "/ca.crt" })).toThrow(/TLS_CA_FILE names the CA that issued TLS_CERT_FILE/);
  });

  it("requires TLS_CERT_FILE and TLS_KEY_FILE together", () => {
    expect(() => loadServerConfig({ TLS_CERT_FILE: "/x.crt" })).toThrow(/TLS_CERT_FILE is set but TLS_KEY_FILE is not/);
    expect(() => loadServerConfig({ TLS_KEY_FILE: "/x.key" })).toThrow(/TLS_KEY_FILE is set but TLS_CERT_FILE is not/);
  });

  it("rejects a bad HOST", () => {
    expect(() => loadServerConfig({ HOST: "http://x" })).toThrow(/HOST must be/);
  });

  it("rejects an unusable admin token without echoing it", () => {
    let message = "";
    try { loadServerConfig({ CLUSTER_ADMIN_TOKEN: "has space-SECRETVALUE" }); } catch (e) { message = (e as Error).message; }
    expect(message).toMatch(/CLUSTER_ADMIN_TOKEN must contain only visible ASCII/);
    expect(message).not.toContain("SECRETVALUE");
  });

  it("defaults to process.env", () => {
    const before = process.env.PORT;
    process.env.PORT = "7443";
    try { expect(loadServerConfig().port).toBe(7443); } finally {
      if (before === undefined) delete process.env.PORT; else process.env.PORT = before;
    }
  });

  it("redacts the token for logging", () => {
    const c = loadServerConfig({ CLUSTER_ADMIN_TOKEN: "tok-123" });
    expect(redactServerConfig(c).adminToken).toBe("<redacted>");
    expect(JSON.stringify(redactServerConfig(c))).not.toContain("tok-123");
    expect(c.adminToken).toBe("tok-123");
    expect(redactServerConfig(loadServerConfig({})).adminToken).toBeUndefined();
  });
});

describe("OIDC_* and AUTHENTICATION_CONFIG", () => {
  it("reads the OIDC_* settings with kube's defaults", () => {
    expect(loadServerConfig({}).oidc).toBeUndefined();
    expect(loadServerConfig({ OIDC_ISSUER_URL: "https://idp.example", OIDC_CLIENT_ID: "cc" }).oidc).toEqual({
      issuerURL: "https://idp.example", clientID: "cc", usernameClaim: "sub", requiredClaims: [], signingAlgs: ["RS256"],
    });
    const full = loadServerConfig({
      OIDC_ISSUER_URL: "https://idp.example", OIDC_CLIENT_ID: "cc", OIDC_USERNAME_CLAIM: "email", OIDC_USERNAME_PREFIX: "-",
      OIDC_GROUPS_CLAIM: "groups", OIDC_GROUPS_PREFIX: "oidc:", OIDC_REQUIRED_CLAIMS: "hd=example.com, tier=gold",
      OIDC_CA_FILE: "ca.pem", OIDC_SIGNING_ALGS: "RS256,ES256",
    }).oidc;
    expect(full).toEqual({
      issuerURL: "https://idp.example", clientID: "cc", usernameClaim: "email", usernamePrefix: "-", groupsClaim: "groups",
      groupsPrefix: "oidc:", requiredClaims: [["hd", "example.com"], ["tier", "gold"]], caFile: path.resolve("ca.pem"), signingAlgs: ["RS256", "ES256"],
    });
  });

  it("stops the start with kube's messages for incomplete or conflicting settings", () => {
    expect(() => loadServerConfig({ OIDC_ISSUER_URL: "https://idp.example" })).toThrow(
      "oidc-issuer-url and oidc-client-id must be specified together when any oidc-* flags are set (OIDC_ISSUER_URL and OIDC_CLIENT_ID)");
    expect(() => loadServerConfig({ OIDC_GROUPS_CLAIM: "groups" })).toThrow(/must be specified together/);
    expect(() => loadServerConfig({ AUTHENTICATION_CONFIG: "auth.yaml", OIDC_CLIENT_ID: "cc" })).toThrow(
      "authentication-config file and oidc-* flags are mutually exclusive (AUTHENTICATION_CONFIG and OIDC_* are both set)");
    expect(() => loadServerConfig({ OIDC_ISSUER_URL: "https://i", OIDC_CLIENT_ID: "c", OIDC_REQUIRED_CLAIMS: "hd" })).toThrow(
      'OIDC_REQUIRED_CLAIMS: "hd" must be formatted as key=value');
    expect(loadServerConfig({ AUTHENTICATION_CONFIG: "auth.yaml" }).authenticationConfigFile).toBe(path.resolve("auth.yaml"));
  });
});
