import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, it, expect } from "vitest";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { parse } from "yaml";
import { ensureServingCertificate } from "../tls/certificates";
import { kubeconfigServerUrl, renderKubeconfig, writeKubeconfig } from "./kubeconfig";

const CA = "-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n";
const KUBECTL = "/usr/bin/kubectl";

let dir: string;
beforeEach(() => { dir = mkdtempSync(path.join(tmpdir(), "cc-kubeconfig-")); });
afterEach(() => { rmSync(dir, { recursive: true, force: true }); });

describe("kubeconfigServerUrl", () => {
  it("maps wildcard binds to 127.0.0.1 and brackets IPv6", () => {
    expect(kubeconfigServerUrl("0.0.0.0", 6443)).toBe("https://127.0.0.1:6443");
    expect(kubeconfigServerUrl("::", 6443)).toBe("https://127.0.0.1:6443");
    expect(kubeconfigServerUrl("", 1)).toBe("https://127.0.0.1:1");
    expect(kubeconfigServerUrl("::1", 8443)).toBe("https://[::1]:8443");
    expect(kubeconfigServerUrl("[::1]", 8443)).toBe("https://[::1]:8443");
    expect(kubeconfigServerUrl("cc.example", 443)).toBe("https://cc.example:443");
    expect(kubeconfigServerUrl("127.0.0.1", 8080, "http")).toBe("http://127.0.0.1:8080");
  });
});

describe("renderKubeconfig", () => {
  it("round-trips through the yaml parser", () => {
    const text = renderKubeconfig({ server: "https://127.0.0.1:6443", caPem: CA, token: "tok_123-abc" });
    const doc = parse(text);
    expect(doc).toEqual({
      apiVersion: "v1",
      kind: "Config",
      clusters: [{ name: "cluster-core", cluster: { server: "https://127.0.0.1:6443", "certificate-authority-data": Buffer.from(CA).toString("base64") } }],
      users: [{ name: "admin", user: { token: "tok_123-abc" } }],
      contexts: [{ name: "admin@cluster-core", context: { cluster: "cluster-core", user: "admin", namespace: "default" } }],
      "current-context": "admin@cluster-core",
      preferences: {},
    });
    expect(Buffer.from(doc.clusters[0].cluster["certificate-authority-data"], "base64").toString()).toBe(CA);
  });

  it("honours the optional names and keeps YAML 1.1 look-alikes as strings", () => {
    const doc = parse(renderKubeconfig({ server: "https://h:1", caPem: CA, token: "on", clusterName: "yes", user: "no", namespace: "null" }), { version: "1.1" });
    expect(doc.users[0]).toEqual({ name: "no", user: { token: "on" } });
    expect(doc.clusters[0].name).toBe("yes");
    expect(doc.contexts[0].context.namespace).toBe("null");
  });

  it("allows a plain-HTTP server without a CA", () => {
    const doc = parse(renderKubeconfig({ server: "http://127.0.0.1:8080", token: "t" }));
    expect(doc.clusters[0].cluster).toEqual({ server: "http://127.0.0.1:8080" });
  });

  it("rejects bad input", () => {
    expect(() => renderKubeconfig({ server: "127.0.0.1:6443", caPem: CA, token: "t" })).toThrow(/absolute URL|http or https/);
    expect(() => renderKubeconfig({ server: "ftp://x", caPem: CA, token: "t" })).toThrow(/http or https/);
    expect(() => renderKubeconfig({ server: "https://x", token: "t" })).toThrow(/CA certificate/);
    expect(() => renderKubeconfig({ server: "https://x", caPem: CA, token: "" })).toThrow(/token/);
  });
});

describe("writeKubeconfig", () => {
  it("writes with mode 0600, also over a looser existing file", () => {
    const file = path.join(dir, "nested", "kubeconfig");
    writeKubeconfig(file, "a: 1\n");
    expect(readFileSync(file, "utf8")).toBe("a: 1\n");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    chmodSync(file, 0o644);
    writeKubeconfig(file, "a: 2\n");
    expect(readFileSync(file, "utf8")).toBe("a: 2\n");
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it.skipIf(!existsSync(KUBECTL))("is read by kubectl", () => {
    const file = path.join(dir, "kubeconfig");
    const token = "kubectl-reads-this_token";
    writeKubeconfig(file, renderKubeconfig({ server: "https://127.0.0.1:6443", caPem: CA, token }));
    const env = { ...process.env, HOME: dir, KUBECONFIG: "" };
    const run = (jsonpath: string) =>
      execFileSync(KUBECTL, ["config", "view", "--kubeconfig", file, "--raw", "-o", `jsonpath=${jsonpath}`], { env, encoding: "utf8" });
    expect(run("{.users[0].user.token}")).toBe(token);
    expect(run("{.current-context}")).toBe("admin@cluster-core");
    expect(run("{.clusters[0].cluster.server}")).toBe("https://127.0.0.1:6443");
    expect(run("{.contexts[0].context.namespace}")).toBe("default");
    expect(Buffer.from(run("{.clusters[0].cluster.certificate-authority-data}"), "base64").toString()).toBe(CA);
  });

  it.skipIf(!existsSync(KUBECTL))("lets kubectl verify the generated serving certificate and send the token", async () => {
    const tls = await ensureServingCertificate({ dataDir: path.join(dir, "data") });
    const token = "e2e-token_abc";
    let seenAuth: string | undefined;
    const server = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
      seenAuth = req.headers.authorization;
      res.setHeader("Content-Type", "text/plain");
      res.end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const file = path.join(dir, "kubeconfig");
      writeKubeconfig(file, renderKubeconfig({ server: kubeconfigServerUrl("0.0.0.0", port), caPem: tls.ca, token }));
      const out = await new Promise<string>((resolve, reject) => {
        execFile(KUBECTL, ["get", "--raw", "/healthz", "--kubeconfig", file, "--cache-dir", path.join(dir, "cache")],
          { env: { ...process.env, HOME: dir, KUBECONFIG: "" }, encoding: "utf8" },
          (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout)));
      });
      expect(out.trim()).toBe("ok");
      expect(seenAuth).toBe(`Bearer ${token}`);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
