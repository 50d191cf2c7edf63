// Renders and writes a kubeconfig (v1 Config) for the admin user.
// Never prints anything: the output contains a bearer token.
import { isIPv6 } from "node:net";
import { stringify } from "yaml";
import { PRIVATE_MODE, writeFileAtomic } from "../fs/atomic-file";

export interface KubeconfigOptions {
  /** API server URL, e.g. https://127.0.0.1:6443. */
  server: string;
  /** PEM of the CA that signed the serving certificate; omit only for a plain-HTTP server. */
  caPem?: string;
  token: string;
  clusterName?: string;
  user?: string;
  namespace?: string;
}

const WILDCARD_HOSTS = new Set(["", "0.0.0.0", "::", "[::]", "0:0:0:0:0:0:0:0"]);

/**
 * The URL clients should use for a server listening on host:port. A wildcard bind address becomes
 * 127.0.0.1, which the generated serving certificate always covers; IPv6 literals get brackets.
 */
export function kubeconfigServerUrl(host: string, port: number, scheme: "https" | "http" = "https"): string {
  let h = host.trim();
  if (WILDCARD_HOSTS.has(h)) h = "127.0.0.1";
  else if (h.startsWith("[") && h.endsWith("]")) h = h.slice(1, -1);
  return `${scheme}://${isIPv6(h) ? `[${h}]` : h}:${port}`;
}

/** Returns the kubeconfig as YAML (YAML 1.1-safe quoting, so kubectl reads strings such as "yes" back as strings). */
export function renderKubeconfig({
  server,
  caPem,
  token,
  clusterName = "cluster-core",
  user = "admin",
  namespace = "default",
}: KubeconfigOptions): string {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new Error(`kubeconfig server must be an absolute URL, got ${JSON.stringify(server)}`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new Error(`kubeconfig server must be an http or https URL, got ${JSON.stringify(server)}`);
  }
  if (token === "") throw new Error("kubeconfig token must not be empty");
  if (url.protocol === "https:" && (caPem === undefined || !caPem.includes("-----BEGIN CERTIFICATE-----"))) {
    throw new Error("an https kubeconfig needs the CA certificate PEM");
  }

  const contextName = `${user}@${clusterName}`;
  const cluster: Record<string, string> = { server };
  if (caPem !== undefined) cluster["certificate-authority-data"] = Buffer.from(caPem, "utf8").toString("base64");

  const config = {
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name: clusterName, cluster }],
    users: [{ name: user, user: { token } }],
    contexts: [{ name: contextName, context: { cluster: clusterName, user, namespace } }],
    "current-context": contextName,
    preferences: {},
  };
  return stringify(config, { version: "1.1", lineWidth: 0 });
}

/** Writes a kubeconfig atomically with mode 0600 (creating parent directories with 0700). */
export function writeKubeconfig(path: string, yaml: string): void {
  writeFileAtomic(path, yaml, PRIVATE_MODE);
}
