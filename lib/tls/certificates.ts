// Serving certificates: a private CA plus a CA-signed API server certificate kept in <dataDir>/pki,
// or an operator-supplied certificate/key pair. Built on @peculiar/x509 with Node's WebCrypto.
// Never prints anything.
import { X509Certificate as NodeX509Certificate, createPrivateKey, KeyObject, randomBytes, webcrypto, type KeyObject as KeyObjectType } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { hostname as osHostname } from "node:os";
import { isIP } from "node:net";
import path from "node:path";
import {
  AuthorityKeyIdentifierExtension,
  BasicConstraintsExtension,
  ExtendedKeyUsage,
  ExtendedKeyUsageExtension,
  KeyUsageFlags,
  KeyUsagesExtension,
  SubjectAlternativeNameExtension,
  SubjectKeyIdentifierExtension,
  X509Certificate,
  X509CertificateGenerator,
} from "@peculiar/x509";
import { PRIVATE_MODE, PUBLIC_MODE, writeFileAtomic } from "../fs/atomic-file";

export interface ServingCertificate {
  /** PEM private key of the serving certificate. */
  key: string;
  /** PEM serving certificate (followed by any intermediates when loaded from a file). */
  cert: string;
  /** PEM certificate(s) clients should trust (kubeconfig certificate-authority-data). */
  ca: string;
  /**
   * Set when `ca` is a CA-issued serving certificate itself (no chain in the file, no CA file): kubectl
   * accepts such a kubeconfig, Node.js clients refuse it. For the caller to print.
   */
  caWarning?: string;
}

export interface EnsureServingCertificateOptions {
  /** Data directory; files go to <dataDir>/pki. */
  dataDir: string;
  /** Extra DNS names or IP addresses for the SAN, besides localhost, 127.0.0.1, ::1 and the hostname. */
  hosts?: string[];
  /** Validity of a newly issued serving certificate. Default 365 days. */
  servingValidityDays?: number;
  /** Reissue the serving certificate (and the CA) when it expires within this many days. Default 30. */
  renewBeforeDays?: number;
}

export const CA_VALIDITY_DAYS = 3650;
export const DEFAULT_SERVING_VALIDITY_DAYS = 365;
export const DEFAULT_RENEW_BEFORE_DAYS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;
const CLOCK_SKEW_MS = 5 * 60 * 1000;
const crypto = webcrypto as unknown as Crypto;
const EC_KEY: EcKeyGenParams = { name: "ECDSA", namedCurve: "P-256" };
const EC_SIGN: EcdsaParams = { name: "ECDSA", hash: "SHA-256" };

export interface PkiPaths {
  dir: string;
  caCert: string;
  caKey: string;
  servingCert: string;
  servingKey: string;
}

export function pkiPaths(dataDir: string): PkiPaths {
  const dir = path.join(path.resolve(dataDir), "pki");
  return {
    dir,
    caCert: path.join(dir, "ca.crt"),
    caKey: path.join(dir, "ca.key"),
    servingCert: path.join(dir, "apiserver.crt"),
    servingKey: path.join(dir, "apiserver.key"),
  };
}

// ---------------------------------------------------------------------------------------------
// Host names for the SAN

interface SanEntry { type: "dns" | "ip"; value: string }

const DNS_NAME = /^(\*\.)?[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*\.?$/;
const WILDCARD_BINDS = new Set(["0.0.0.0", "::"]);

function canonicalIp(ip: string): string {
  return isIP(ip) === 6 ? new URL(`http://[${ip}]/`).hostname.slice(1, -1) : ip;
}

type Classified = SanEntry | "wildcard" | "invalid";

function classifyHost(raw: string): Classified {
  let h = raw.trim().toLowerCase();
  if (h.startsWith("[") && h.endsWith("]")) h = h.slice(1, -1);
  if (isIP(h)) return WILDCARD_BINDS.has(canonicalIp(h)) ? "wildcard" : { type: "ip", value: canonicalIp(h) };
  if (h === "" || h.length > 253 || !DNS_NAME.test(h)) return "invalid";
  return { type: "dns", value: h.replace(/\.$/, "") };
}

/**
 * The SAN entries of a generated serving certificate: localhost, 127.0.0.1, ::1, this machine's hostname and
 * `extra`. Wildcard bind addresses (0.0.0.0, ::) are skipped; an unusable extra host throws.
 */
export function servingCertificateHosts(extra: readonly string[] = []): string[] {
  return sanEntries(extra).map((e) => e.value);
}

function sanEntries(extra: readonly string[]): SanEntry[] {
  const out: SanEntry[] = [];
  const add = (c: Classified) => {
    if (typeof c === "object" && !out.some((e) => e.type === c.type && e.value === c.value)) out.push(c);
  };
  for (const h of ["localhost", "127.0.0.1", "::1"]) add(classifyHost(h));
  add(classifyHost(osHostname())); // skipped when the hostname is not a valid DNS name
  for (const h of extra) {
    const c = classifyHost(h);
    if (c === "invalid") throw new Error(`cannot put ${JSON.stringify(h)} in a certificate: expected a DNS name or an IP address`);
    add(c);
  }
  return out;
}

function certificateSans(cert: X509Certificate): Set<string> {
  const ext = cert.getExtension(SubjectAlternativeNameExtension);
  const names = new Set<string>();
  for (const n of ext?.names.items ?? []) {
    if (n.type === "dns") names.add(`dns:${n.value.toLowerCase()}`);
    else if (n.type === "ip") names.add(`ip:${canonicalIp(n.value)}`);
  }
  return names;
}

// ---------------------------------------------------------------------------------------------
// Keys and certificate generation

function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] & 0x7f) | 0x40; // positive, no leading zero byte, full 16 bytes
  return bytes.toString("hex");
}

function pemOf(cert: X509Certificate): string {
  return `${cert.toString("pem").trim()}\n`;
}

function privateKeyPem(key: CryptoKey): string {
  return KeyObject.from(key).export({ type: "pkcs8", format: "pem" }).toString();
}

/** Imports a PEM private key for signing, choosing the matching signature algorithm. */
async function importSigningKey(keyObject: KeyObjectType): Promise<{ key: CryptoKey; algorithm: Algorithm | EcdsaParams }> {
  const der = keyObject.export({ type: "pkcs8", format: "der" });
  if (keyObject.asymmetricKeyType === "ec") {
    const curve = ({ prime256v1: "P-256", secp384r1: "P-384", secp521r1: "P-521" } as Record<string, string>)[
      keyObject.asymmetricKeyDetails?.namedCurve ?? ""
    ];
    if (!curve) throw new Error(`unsupported CA key curve ${keyObject.asymmetricKeyDetails?.namedCurve}`);
    const hash = curve === "P-256" ? "SHA-256" : curve === "P-384" ? "SHA-384" : "SHA-512";
    const key = await crypto.subtle.importKey("pkcs8", der, { name: "ECDSA", namedCurve: curve }, false, ["sign"]);
    return { key, algorithm: { name: "ECDSA", hash } as EcdsaParams };
  }
  if (keyObject.asymmetricKeyType === "rsa") {
    const algorithm = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" };
    const key = await crypto.subtle.importKey("pkcs8", der, algorithm, false, ["sign"]);
    return { key, algorithm };
  }
  throw new Error(`unsupported CA key type ${keyObject.asymmetricKeyType}`);
}

interface CaMaterial { certPem: string; keyPem: string }

async function generateCa(now: Date): Promise<CaMaterial> {
  const keys = (await crypto.subtle.generateKey(EC_KEY, true, ["sign", "verify"])) as CryptoKeyPair;
  const cert = await X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: serialNumber(),
      name: `CN=cluster-core-ca@${Math.floor(now.getTime() / 1000)}`,
      notBefore: new Date(now.getTime() - CLOCK_SKEW_MS),
      notAfter: new Date(now.getTime() + CA_VALIDITY_DAYS * DAY_MS),
      signingAlgorithm: EC_SIGN,
      keys,
      extensions: [
        new BasicConstraintsExtension(true, 0, true),
        new KeyUsagesExtension(KeyUsageFlags.keyCertSign | KeyUsageFlags.cRLSign | KeyUsageFlags.digitalSignature, true),
        await SubjectKeyIdentifierExtension.create(keys.publicKey, false, crypto),
      ],
    },
    crypto,
  );
  return { certPem: pemOf(cert), keyPem: privateKeyPem(keys.privateKey) };
}

async function issueServingCertificate(
  ca: CaMaterial,
  sans: readonly SanEntry[],
  validityDays: number,
  now: Date,
): Promise<{ certPem: string; keyPem: string }> {
  const caCert = new X509Certificate(ca.certPem);
  const signer = await importSigningKey(createPrivateKey(ca.keyPem));
  const keys = (await crypto.subtle.generateKey(EC_KEY, true, ["sign", "verify"])) as CryptoKeyPair;
  const caKeyId = caCert.getExtension(SubjectKeyIdentifierExtension)?.keyId;
  const notAfter = Math.min(now.getTime() + validityDays * DAY_MS, caCert.notAfter.getTime());
  const cert = await X509CertificateGenerator.create(
    {
      serialNumber: serialNumber(),
      subject: "CN=cluster-core-apiserver",
      issuer: caCert.subjectName,
      notBefore: new Date(now.getTime() - CLOCK_SKEW_MS),
      notAfter: new Date(notAfter),
      signingAlgorithm: signer.algorithm,
      publicKey: keys.publicKey,
      signingKey: signer.key,
      extensions: [
        new BasicConstraintsExtension(false, undefined, true),
        new KeyUsagesExtension(KeyUsageFlags.digitalSignature, true),
        new ExtendedKeyUsageExtension([ExtendedKeyUsage.serverAuth], false),
        new SubjectAlternativeNameExtension(sans.map((e) => ({ ...e })), false),
        await SubjectKeyIdentifierExtension.create(keys.publicKey, false, crypto),
        caKeyId
          ? new AuthorityKeyIdentifierExtension(caKeyId, false)
          : await AuthorityKeyIdentifierExtension.create(caCert.publicKey, false, crypto),
      ],
    },
    crypto,
  );
  return { certPem: pemOf(cert), keyPem: privateKeyPem(keys.privateKey) };
}

// ---------------------------------------------------------------------------------------------
// Reuse checks

function expiresWithin(cert: X509Certificate, ms: number, now: Date): boolean {
  return cert.notAfter.getTime() - now.getTime() < ms;
}

/** Loads the stored CA; undefined when there is none yet. Throws when the stored CA is unusable. */
function loadStoredCa(paths: PkiPaths): CaMaterial | undefined {
  const hasCert = existsSync(paths.caCert);
  if (!hasCert) return undefined; // ca.crt is written last, so a lone ca.key is an interrupted first start
  const advice = `delete ${paths.dir} to create a new CA (kubeconfigs that trust the old CA will stop working)`;
  if (!existsSync(paths.caKey)) throw new Error(`${paths.caCert} exists but ${paths.caKey} is missing; restore it or ${advice}`);
  const certPem = readFileSync(paths.caCert, "utf8");
  const keyPem = readFileSync(paths.caKey, "utf8");
  let nodeCert: NodeX509Certificate;
  let keyObject: KeyObjectType;
  try {
    nodeCert = new NodeX509Certificate(certPem);
    keyObject = createPrivateKey(keyPem);
  } catch (err) {
    throw new Error(`cannot read the CA in ${paths.dir} (${(err as Error).message}); ${advice}`);
  }
  if (!nodeCert.ca) throw new Error(`${paths.caCert} is not a CA certificate; ${advice}`);
  if (!nodeCert.checkPrivateKey(keyObject)) throw new Error(`${paths.caKey} does not belong to ${paths.caCert}; ${advice}`);
  return { certPem, keyPem };
}

function servingCertificateUsable(
  certPem: string,
  keyPem: string,
  ca: CaMaterial,
  wanted: readonly SanEntry[],
  renewBeforeMs: number,
  now: Date,
): boolean {
  try {
    const nodeCert = new NodeX509Certificate(certPem);
    const caCert = new NodeX509Certificate(ca.certPem);
    if (!nodeCert.checkPrivateKey(createPrivateKey(keyPem))) return false;
    if (!nodeCert.checkIssued(caCert) || !nodeCert.verify(caCert.publicKey)) return false;
    const cert = new X509Certificate(certPem);
    if (expiresWithin(cert, renewBeforeMs, now) || cert.notBefore.getTime() > now.getTime() + CLOCK_SKEW_MS) return false;
    const have = certificateSans(cert);
    return wanted.every((e) => have.has(`${e.type}:${e.value}`));
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Public API

/**
 * Returns the serving key/certificate and the CA to trust, creating them in <dataDir>/pki on first use:
 * ca.crt + ca.key (0600): self-signed EC P-256 CA, 10 years;
 * apiserver.crt + apiserver.key (0600): EC P-256, serverAuth, signed by the CA, 1 year by default.
 * Later calls return the stored files unchanged. The serving certificate is reissued when it is missing,
 * unreadable, not signed by the CA, expiring within `renewBeforeDays`, or missing one of the wanted hosts.
 * The CA is replaced only when it expires within `renewBeforeDays`; a damaged CA is an error, not replaced.
 */
export async function ensureServingCertificate(options: EnsureServingCertificateOptions): Promise<ServingCertificate> {
  const { dataDir, hosts = [], servingValidityDays = DEFAULT_SERVING_VALIDITY_DAYS, renewBeforeDays = DEFAULT_RENEW_BEFORE_DAYS } = options;
  if (!(servingValidityDays > 0)) throw new Error("servingValidityDays must be positive");
  if (!(renewBeforeDays >= 0)) throw new Error("renewBeforeDays must not be negative");
  const now = new Date();
  const renewBeforeMs = renewBeforeDays * DAY_MS;
  const paths = pkiPaths(dataDir);
  const wanted = sanEntries(hosts);

  let ca = loadStoredCa(paths);
  let caIsNew = false;
  if (ca === undefined || expiresWithin(new X509Certificate(ca.certPem), renewBeforeMs, now)) {
    ca = await generateCa(now);
    writeFileAtomic(paths.caKey, ca.keyPem, PRIVATE_MODE);
    writeFileAtomic(paths.caCert, ca.certPem, PUBLIC_MODE); // last: its presence marks a complete CA
    caIsNew = true;
  }

  if (!caIsNew && existsSync(paths.servingCert) && existsSync(paths.servingKey)) {
    const certPem = readFileSync(paths.servingCert, "utf8");
    const keyPem = readFileSync(paths.servingKey, "utf8");
    if (servingCertificateUsable(certPem, keyPem, ca, wanted, renewBeforeMs, now)) {
      return { key: keyPem, cert: certPem, ca: ca.certPem };
    }
  }

  const serving = await issueServingCertificate(ca, wanted, servingValidityDays, now);
  writeFileAtomic(paths.servingKey, serving.keyPem, PRIVATE_MODE);
  writeFileAtomic(paths.servingCert, serving.certPem, PUBLIC_MODE);
  return { key: serving.keyPem, cert: serving.certPem, ca: ca.certPem };
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * Loads an operator-supplied certificate (optionally followed by its chain) and private key (unencrypted PEM),
 * and optionally the CA that issued it (`caFile`, TLS_CA_FILE: what replicas sharing one certificate give
 * their users to trust). `ca` is that CA; without `caFile`, the certificates after the first one when the file
 * holds a chain, otherwise the certificate itself (right for a self-signed certificate; for a CA-issued one
 * `caWarning` says why Node.js clients will refuse it). Throws a clear Error when a file is missing,
 * unreadable, expired, the key does not match the certificate, or the certificate was not issued by `caFile`.
 */
export function loadServingCertificate(certFile: string, keyFile: string, caFile?: string): ServingCertificate {
  const read = (file: string, what: string) => {
    try {
      return readFileSync(file, "utf8");
    } catch (err) {
      throw new Error(`cannot read the TLS ${what} file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  };
  const cert = read(certFile, "certificate");
  const key = read(keyFile, "key");

  const blocks: string[] = Array.from(cert.match(PEM_CERTIFICATE) ?? []);
  if (blocks.length === 0) throw new Error(`${certFile} contains no PEM certificate`);
  const parsed = blocks.map((block, i) => {
    try {
      return new NodeX509Certificate(block);
    } catch (err) {
      throw new Error(`certificate ${i + 1} in ${certFile} is not valid: ${(err as Error).message}`);
    }
  });

  let keyObject: KeyObjectType;
  try {
    keyObject = createPrivateKey(key);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const encrypted = code === "ERR_MISSING_PASSPHRASE" || /-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type:\s*4,ENCRYPTED/.test(key);
    const reason = encrypted ? "it is encrypted; supply an unencrypted key" : "it is not a PEM private key";
    throw new Error(`cannot use the TLS key file ${keyFile}: ${reason}`);
  }
  if (!parsed[0].checkPrivateKey(keyObject)) throw new Error(`the key in ${keyFile} does not match the first certificate in ${certFile}`);
  const notAfter = new X509Certificate(blocks[0]).notAfter;
  if (notAfter.getTime() <= Date.now()) throw new Error(`the certificate in ${certFile} expired on ${notAfter.toISOString()}`);

  if (caFile !== undefined) return { key, cert, ca: issuingCa(caFile, read(caFile, "CA"), certFile, parsed) };
  const ca = blocks.length > 1 ? `${blocks.slice(1).join("\n")}\n` : `${blocks[0]}\n`;
  const leaf = parsed[0];
  const selfSigned = leaf.checkIssued(leaf) && leaf.verify(leaf.publicKey);
  if (blocks.length === 1 && !selfSigned) {
    return {
      key, cert, ca,
      caWarning: `${certFile} holds only a certificate issued by ${oneLine(leaf.issuer)} and TLS_CA_FILE is not set: ` +
        "the kubeconfig trusts that certificate itself, which kubectl accepts but Node.js clients refuse; set TLS_CA_FILE to the issuing CA",
    };
  }
  return { key, cert, ca };
}

const oneLine = (dn: string) => dn.split("\n").join(", ");

/**
 * The CA certificates in `caFile` (PEM), after checking that they issued the served chain: the last
 * certificate of the chain is one of them or was signed by one of them.
 */
function issuingCa(caFile: string, pem: string, certFile: string, chain: NodeX509Certificate[]): string {
  const blocks: string[] = Array.from(pem.match(PEM_CERTIFICATE) ?? []);
  if (blocks.length === 0) throw new Error(`${caFile} contains no PEM certificate`);
  const cas = blocks.map((block, i) => {
    try {
      return new NodeX509Certificate(block);
    } catch (err) {
      throw new Error(`certificate ${i + 1} in ${caFile} is not valid: ${(err as Error).message}`);
    }
  });
  const top = chain[chain.length - 1];
  const issued = cas.some((ca) => ca.raw.equals(top.raw) || (top.checkIssued(ca) && top.verify(ca.publicKey)));
  if (!issued) {
    throw new Error(`the certificate in ${certFile} (issuer ${oneLine(top.issuer)}) was not issued by the CA in ${caFile} (${cas.map((c) => oneLine(c.subject)).join("; ")})`);
  }
  const expired = cas.find((c) => new Date(c.validTo).getTime() <= Date.now());
  if (expired) throw new Error(`the CA certificate ${oneLine(expired.subject)} in ${caFile} expired on ${new Date(expired.validTo).toISOString()}`);
  return `${blocks.join("\n")}\n`;
}
