import { execFileSync } from "node:child_process";
import { KeyObject, X509Certificate as NodeX509Certificate, createPrivateKey, webcrypto } from "node:crypto";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { X509Certificate, X509CertificateGenerator } from "@peculiar/x509";
import { afterEach, beforeEach, describe, it, expect } from "vitest";
import { ensureServingCertificate, loadServingCertificate, pkiPaths, servingCertificateHosts, type ServingCertificate } from "./certificates";

let dir: string;
beforeEach(() => { dir = mkdtempSync(path.join(tmpdir(), "cc-tls-")); });
afterEach(() => { rmSync(dir, { recursive: true, force: true }); });

const DAY = 24 * 60 * 60 * 1000;

function openssl(args: string[]): string {
  return execFileSync("openssl", args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** Serves `tls` on 127.0.0.1 and makes one request to https://127.0.0.1 trusting only `ca` (IP SAN check). */
async function handshake(tls: ServingCertificate, ca: string): Promise<string> {
  const host = "127.0.0.1";
  const server = https.createServer({ key: tls.key, cert: tls.cert }, (_req, res) => res.end("ok"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  try {
    return await new Promise<string>((resolve, reject) => {
      const req = https.request(
        { host, port, path: "/", ca, agent: false },
        (res) => {
          let body = "";
          res.on("data", (c) => (body += c));
          res.on("end", () => resolve(body));
        },
      );
      req.on("error", reject);
      req.end();
    });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

/** Like handshake(), but verifies the name `host` (sent as SNI, checked against the DNS SAN) instead of the IP. */
async function handshakeAs(tls: ServingCertificate, ca: string, host: string): Promise<string> {
  const server = https.createServer({ key: tls.key, cert: tls.cert }, (_req, res) => res.end("ok"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  try {
    return await new Promise<string>((resolve, reject) => {
      const req = https.request(
        { host: "127.0.0.1", servername: host, port, path: "/", ca, agent: false },
        (res) => {
          let body = "";
          res.on("data", (c) => (body += c));
          res.on("end", () => resolve(body));
        },
      );
      req.on("error", reject);
      req.end();
    });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe("servingCertificateHosts", () => {
  it("always covers the loopback names and the hostname, plus extras without duplicates", () => {
    const hosts = servingCertificateHosts(["CC.Example", "10.0.0.1", "[fd00::1]", "0.0.0.0", "::", "localhost", "127.0.0.1"]);
    expect(hosts.slice(0, 3)).toEqual(["localhost", "127.0.0.1", "::1"]);
    expect(hosts).toContain(hostname().toLowerCase());
    expect(hosts).toContain("cc.example");
    expect(hosts).toContain("10.0.0.1");
    expect(hosts).toContain("fd00::1");
    expect(hosts).not.toContain("0.0.0.0");
    expect(hosts).not.toContain("::");
    expect(new Set(hosts).size).toBe(hosts.length);
  });

  it("rejects hosts that cannot go into a certificate", () => {
    expect(() => servingCertificateHosts(["bad host"])).toThrow(/cannot put "bad host" in a certificate/);
    expect(() => servingCertificateHosts(["https://x"])).toThrow(/cannot put/);
  });
});

describe("ensureServingCertificate", () => {
  it("creates a CA and a CA-signed EC P-256 serving certificate with the right files and modes", async () => {
    const tls = await ensureServingCertificate({ dataDir: dir, hosts: ["cc.example", "10.9.8.7"] });
    const p = pkiPaths(dir);
    expect(readdirSync(p.dir).sort()).toEqual(["apiserver.crt", "apiserver.key", "ca.crt", "ca.key"]);
    expect(statSync(p.caKey).mode & 0o777).toBe(0o600);
    expect(statSync(p.servingKey).mode & 0o777).toBe(0o600);
    expect(statSync(p.dir).mode & 0o777).toBe(0o700);
    expect(readFileSync(p.caCert, "utf8")).toBe(tls.ca);
    expect(readFileSync(p.servingCert, "utf8")).toBe(tls.cert);
    expect(readFileSync(p.servingKey, "utf8")).toBe(tls.key);

    const ca = new NodeX509Certificate(tls.ca);
    expect(ca.ca).toBe(true);
    expect(ca.checkIssued(ca)).toBe(true);
    const caText = openssl(["x509", "-in", p.caCert, "-noout", "-text"]);
    expect(caText).toMatch(/CA:TRUE/);
    expect(caText).toMatch(/Certificate Sign, CRL Sign/);
    const caDays = (new X509Certificate(tls.ca).notAfter.getTime() - Date.now()) / DAY;
    expect(caDays).toBeGreaterThan(3649);
    expect(caDays).toBeLessThan(3651);

    const leaf = new NodeX509Certificate(tls.cert);
    expect(leaf.ca).toBe(false);
    expect(leaf.checkIssued(ca)).toBe(true);
    expect(leaf.verify(ca.publicKey)).toBe(true);
    expect(leaf.checkPrivateKey(createPrivateKey(tls.key))).toBe(true);
    expect(leaf.publicKey.asymmetricKeyType).toBe("ec");
    expect(leaf.publicKey.asymmetricKeyDetails?.namedCurve).toBe("prime256v1");
    expect(leaf.keyUsage).toEqual(["1.3.6.1.5.5.7.3.1"]); // Node reports extKeyUsage here: serverAuth only
    for (const name of ["localhost", hostname(), "cc.example"]) expect(leaf.checkHost(name, { subject: "never" })).toBe(name);
    for (const ip of ["127.0.0.1", "::1", "10.9.8.7"]) expect(leaf.checkIP(ip)).toBe(ip);
    expect(leaf.checkHost("other.example", { subject: "never" })).toBeUndefined();
    const leafDays = (new X509Certificate(tls.cert).notAfter.getTime() - Date.now()) / DAY;
    expect(leafDays).toBeGreaterThan(364);
    expect(leafDays).toBeLessThanOrEqual(365);
  });

  it("passes openssl verify against the CA", async () => {
    await ensureServingCertificate({ dataDir: dir });
    const p = pkiPaths(dir);
    expect(openssl(["verify", "-CAfile", p.caCert, p.servingCert]).trim()).toBe(`${p.servingCert}: OK`);
    expect(openssl(["verify", "-CAfile", p.caCert, "-purpose", "sslserver", "-x509_strict", p.servingCert]).trim()).toBe(`${p.servingCert}: OK`);
    const other = mkdtempSync(path.join(tmpdir(), "cc-tls-other-"));
    try {
      await ensureServingCertificate({ dataDir: other });
      expect(() => openssl(["verify", "-CAfile", pkiPaths(other).caCert, p.servingCert])).toThrow();
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it("completes a TLS handshake that trusts only the CA", async () => {
    const tls = await ensureServingCertificate({ dataDir: dir, hosts: ["api.cc.example"] });
    expect(await handshake(tls, tls.ca)).toBe("ok");
    expect(await handshakeAs(tls, tls.ca, "localhost")).toBe("ok");
    expect(await handshakeAs(tls, tls.ca, "api.cc.example")).toBe("ok");
    await expect(handshakeAs(tls, tls.ca, "not-in-san.example")).rejects.toThrow(/altnames|Hostname/i);
  });

  it("fails the handshake with a different CA", async () => {
    const tls = await ensureServingCertificate({ dataDir: dir });
    const other = mkdtempSync(path.join(tmpdir(), "cc-tls-other-"));
    try {
      const stranger = await ensureServingCertificate({ dataDir: other });
      await expect(handshake(tls, stranger.ca)).rejects.toMatchObject({ code: expect.stringMatching(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT/) });
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it("reuses the stored files byte for byte", async () => {
    const first = await ensureServingCertificate({ dataDir: dir, hosts: ["cc.example"] });
    const second = await ensureServingCertificate({ dataDir: dir, hosts: ["cc.example"] });
    expect(second).toEqual(first);
    const third = await ensureServingCertificate({ dataDir: dir }); // a subset of the SAN is still covered
    expect(third).toEqual(first);
  });

  it("reissues the serving certificate, keeping the CA, when a wanted host is missing", async () => {
    const first = await ensureServingCertificate({ dataDir: dir });
    const second = await ensureServingCertificate({ dataDir: dir, hosts: ["new.example"] });
    expect(second.ca).toBe(first.ca);
    expect(second.cert).not.toBe(first.cert);
    expect(new NodeX509Certificate(second.cert).checkHost("new.example", { subject: "never" })).toBe("new.example");
  });

  it("reissues a serving certificate that expires within 30 days", async () => {
    const short = await ensureServingCertificate({ dataDir: dir, servingValidityDays: 10 });
    const again = await ensureServingCertificate({ dataDir: dir });
    expect(again.ca).toBe(short.ca);
    expect(again.cert).not.toBe(short.cert);
    expect(new X509Certificate(again.cert).notAfter.getTime() - Date.now()).toBeGreaterThan(300 * DAY);
    expect(await ensureServingCertificate({ dataDir: dir })).toEqual(again);
  });

  it("reissues a missing or damaged serving certificate, keeping the CA", async () => {
    const first = await ensureServingCertificate({ dataDir: dir });
    const p = pkiPaths(dir);
    unlinkSync(p.servingCert);
    const second = await ensureServingCertificate({ dataDir: dir });
    expect(second.ca).toBe(first.ca);
    expect(second.cert).not.toBe(first.cert);
    writeFileSync(p.servingKey, "garbage");
    const third = await ensureServingCertificate({ dataDir: dir });
    expect(third.ca).toBe(first.ca);
    expect(third.key).not.toBe("garbage");
    expect(new NodeX509Certificate(third.cert).checkPrivateKey(createPrivateKey(third.key))).toBe(true);
  });

  it("reissues a serving certificate signed by another CA", async () => {
    await ensureServingCertificate({ dataDir: dir });
    const other = mkdtempSync(path.join(tmpdir(), "cc-tls-other-"));
    try {
      const stranger = await ensureServingCertificate({ dataDir: other });
      const p = pkiPaths(dir);
      writeFileSync(p.servingCert, stranger.cert);
      writeFileSync(p.servingKey, stranger.key);
      const fixed = await ensureServingCertificate({ dataDir: dir });
      expect(fixed.cert).not.toBe(stranger.cert);
      expect(new NodeX509Certificate(fixed.cert).checkIssued(new NodeX509Certificate(fixed.ca))).toBe(true);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it("refuses to silently replace a CA whose key is gone or damaged", async () => {
    await ensureServingCertificate({ dataDir: dir });
    const p = pkiPaths(dir);
    const caKey = readFileSync(p.caKey, "utf8");
    unlinkSync(p.caKey);
    await expect(ensureServingCertificate({ dataDir: dir })).rejects.toThrow(/ca\.key is missing.*delete/);
    writeFileSync(p.caKey, "not a key", { mode: 0o600 });
    await expect(ensureServingCertificate({ dataDir: dir })).rejects.toThrow(/cannot read the CA/);
    writeFileSync(p.caKey, caKey);
    await expect(ensureServingCertificate({ dataDir: dir })).resolves.toBeTruthy();
  });

  it("starts over when only ca.key exists (an interrupted first start)", async () => {
    const p = pkiPaths(dir);
    await ensureServingCertificate({ dataDir: dir });
    unlinkSync(p.caCert);
    const tls = await ensureServingCertificate({ dataDir: dir });
    expect(openssl(["verify", "-CAfile", p.caCert, p.servingCert]).trim()).toMatch(/OK$/);
    expect(await handshake(tls, tls.ca)).toBe("ok");
  });
});

describe("loadServingCertificate", () => {
  it("loads a self-signed pair and uses the certificate as its own CA", async () => {
    const p = pkiPaths(dir);
    const generated = await ensureServingCertificate({ dataDir: dir });
    const loaded = loadServingCertificate(p.caCert, p.caKey);
    expect(loaded.cert).toBe(generated.ca);
    expect(loaded.ca.trim()).toBe(generated.ca.trim());
  });

  it("loads a chain file and hands out the rest of the chain as the CA", async () => {
    const p = pkiPaths(dir);
    const generated = await ensureServingCertificate({ dataDir: dir });
    const chainFile = path.join(dir, "chain.pem");
    writeFileSync(chainFile, generated.cert + generated.ca);
    const loaded = loadServingCertificate(chainFile, p.servingKey);
    expect(loaded.key).toBe(generated.key);
    expect(loaded.cert).toBe(generated.cert + generated.ca);
    expect(loaded.ca.trim()).toBe(generated.ca.trim());
    expect(await handshake(loaded, loaded.ca)).toBe("ok");
  });

  it("with a CA file (TLS_CA_FILE) hands out that CA, which Node's TLS accepts; without one, warns about the bare certificate", async () => {
    const p = pkiPaths(dir);
    const generated = await ensureServingCertificate({ dataDir: dir });
    const loaded = loadServingCertificate(p.servingCert, p.servingKey, p.caCert);
    expect(loaded.ca.trim()).toBe(generated.ca.trim());
    expect(loaded.caWarning).toBeUndefined();
    expect(await handshake(loaded, loaded.ca)).toBe("ok");
    const bare = loadServingCertificate(p.servingCert, p.servingKey);
    expect(bare.ca.trim()).toBe(generated.cert.trim());
    expect(bare.caWarning).toMatch(/TLS_CA_FILE is not set: .*Node\.js clients refuse/);
    // What the issue saw: Node refuses a CA-issued certificate given as its own trust anchor.
    await expect(handshake(bare, bare.ca)).rejects.toThrow(/unable to verify/);
  });

  it("refuses a CA file that did not issue the certificate, or holds no certificate", async () => {
    const p = pkiPaths(dir);
    await ensureServingCertificate({ dataDir: dir });
    const other = path.join(dir, "other");
    const stranger = await ensureServingCertificate({ dataDir: other });
    const strangerCa = path.join(dir, "stranger-ca.crt");
    writeFileSync(strangerCa, stranger.ca);
    expect(() => loadServingCertificate(p.servingCert, p.servingKey, strangerCa)).toThrow(/was not issued by the CA in .*stranger-ca\.crt/);
    const junk = path.join(dir, "junk-ca.pem");
    writeFileSync(junk, "hello");
    expect(() => loadServingCertificate(p.servingCert, p.servingKey, junk)).toThrow(/junk-ca\.pem contains no PEM certificate/);
    expect(() => loadServingCertificate(p.servingCert, p.servingKey, path.join(dir, "none.crt"))).toThrow(/cannot read the TLS CA file .*none\.crt: ENOENT/);
  });

  it("reports missing files, garbage, encrypted keys and mismatched keys clearly", async () => {
    const p = pkiPaths(dir);
    await ensureServingCertificate({ dataDir: dir });
    expect(() => loadServingCertificate(path.join(dir, "nope.crt"), p.servingKey)).toThrow(/cannot read the TLS certificate file .*nope\.crt: ENOENT/);
    expect(() => loadServingCertificate(p.servingCert, path.join(dir, "nope.key"))).toThrow(/cannot read the TLS key file .*nope\.key: ENOENT/);
    const junk = path.join(dir, "junk.pem");
    writeFileSync(junk, "hello");
    expect(() => loadServingCertificate(junk, p.servingKey)).toThrow(/contains no PEM certificate/);
    expect(() => loadServingCertificate(p.servingCert, junk)).toThrow(/not a PEM private key/);
    expect(() => loadServingCertificate(p.servingCert, p.caKey)).toThrow(/does not match/);
    const encrypted = path.join(dir, "enc.key");
    writeFileSync(encrypted, createPrivateKey(readFileSync(p.servingKey)).export({ type: "pkcs8", format: "pem", cipher: "aes-256-cbc", passphrase: "pw" }));
    expect(() => loadServingCertificate(p.servingCert, encrypted)).toThrow(/encrypted/);
  });

  it("refuses an expired certificate", async () => {
    const crypto = webcrypto as unknown as Crypto;
    const keys = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
    const old = await X509CertificateGenerator.createSelfSigned({
      name: "CN=old", notBefore: new Date("2020-01-01T00:00:00Z"), notAfter: new Date("2020-01-02T00:00:00Z"),
      signingAlgorithm: { name: "ECDSA", hash: "SHA-256" } as EcdsaParams, keys,
    }, crypto);
    const crt = path.join(dir, "old.crt");
    const key = path.join(dir, "old.key");
    writeFileSync(crt, old.toString("pem"));
    writeFileSync(key, KeyObject.from(keys.privateKey).export({ type: "pkcs8", format: "pem" }));
    expect(() => loadServingCertificate(crt, key)).toThrow(/expired on 2020-01-02T00:00:00.000Z/);
  });
});

describe("lib/tls sources", () => {
  it("never write to the console", () => {
    const here = path.dirname(fileURLToPath(import.meta.url));
    for (const f of readdirSync(here).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))) {
      expect(readFileSync(path.join(here, f), "utf8"), f).not.toMatch(/\bconsole\s*\.|process\.(stdout|stderr)/);
    }
  });
});
