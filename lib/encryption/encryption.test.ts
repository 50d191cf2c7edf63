import { createDecipheriv, randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import nacl from "tweetnacl";
import { describe, expect, it } from "vitest";
import { kinds } from "../kinds";
import { EncryptionConfigError, EncryptionTransformer, encryptionFromEnv, groupsOfKinds, parseEncryptionConfiguration, storageKeyOf } from "./index";

const groupsOf = groupsOfKinds(kinds);
const k32 = () => randomBytes(32).toString("base64");
const secretKey = { resource: "secrets", namespace: "default", name: "db" };
const secretJson = JSON.stringify({ apiVersion: "v1", kind: "Secret", metadata: { name: "db", namespace: "default" }, data: { password: Buffer.from("hunter2-VERY-SECRET").toString("base64") } });

function config(resources: string[], providers: unknown[]): string {
  return JSON.stringify({ apiVersion: "apiserver.config.k8s.io/v1", kind: "EncryptionConfiguration", resources: [{ resources, providers }] });
}
const transformer = (text: string) => new EncryptionTransformer(parseEncryptionConfiguration(text), groupsOf);
const errorOf = (text: string): string => {
  try { parseEncryptionConfiguration(text); } catch (e) { expect(e).toBeInstanceOf(EncryptionConfigError); return (e as Error).message; }
  throw new Error("expected the configuration to be refused");
};

describe("EncryptionConfiguration parsing", () => {
  it("accepts kube's documented YAML", () => {
    const key = k32();
    const rules = parseEncryptionConfiguration(`
apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources:
      - secrets
      - configmaps
    providers:
      - aescbc:
          keys:
            - name: key1
              secret: ${key}
      - identity: {}
`);
    expect(rules).toHaveLength(1);
    expect(rules[0].resources).toEqual([{ group: "", resource: "secrets" }, { group: "", resource: "configmaps" }]);
    expect(rules[0].providers.map((p) => p.type)).toEqual(["aescbc", "identity"]);
  });

  it.each([
    ["a wrong kind", JSON.stringify({ apiVersion: "v1", kind: "Secret", resources: [] }), /expected kind EncryptionConfiguration and apiVersion apiserver.config.k8s.io\/v1/],
    ["no resources", JSON.stringify({ apiVersion: "apiserver.config.k8s.io/v1", kind: "EncryptionConfiguration" }), /resources: Required value: at least one resources is required/],
    ["no providers", config(["secrets"], []), /resources\[0\].providers: Required value/],
    ["an unknown provider", config(["secrets"], [{ aescbcc: { keys: [] } }]), /resources\[0\].providers\[0\]: Invalid value: unknown provider "aescbcc"/],
    ["two providers in one element", config(["secrets"], [{ identity: {}, aescbc: { keys: [{ name: "k", secret: k32() }] } }]), /more than one provider specified in a single element/],
    ["a key of the wrong size", config(["secrets"], [{ aesgcm: { keys: [{ name: "k", secret: Buffer.alloc(10).toString("base64") }] } }]), /providers\[0\].aesgcm.keys\[0\].secret: Invalid value: "REDACTED": secret is not of the expected length, got 10, expected one of \[16 24 32\]/],
    ["a 16-byte secretbox key", config(["secrets"], [{ secretbox: { keys: [{ name: "k", secret: Buffer.alloc(16).toString("base64") }] } }]), /secretbox.keys\[0\].secret: Invalid value: "REDACTED": secret is not of the expected length, got 16, expected one of \[32\]/],
    ["a key that is not base64", config(["secrets"], [{ aescbc: { keys: [{ name: "k", secret: "not base64!" }] } }]), /aescbc.keys\[0\].secret: Invalid value: "REDACTED": secrets must be base64 encoded/],
    ["a key without a name", config(["secrets"], [{ aescbc: { keys: [{ secret: k32() }] } }]), /aescbc.keys\[0\].name: Required value: name is a mandatory field for a key/],
    ["no keys", config(["secrets"], [{ aescbc: { keys: [] } }]), /aescbc.keys: Required value: at least one keys is required/],
    ["a KMS provider", config(["secrets"], [{ kms: { name: "x", endpoint: "unix:///tmp/kms.sock" } }]), /providers\[0\].kms: Unsupported value/],
    ["a capital letter", config(["Secrets"], [{ identity: {} }]), /resource name should not contain capital letters/],
    ["'*'", config(["*"], [{ identity: {} }]), /use '\*\.' to encrypt all the resources from core API group/],
    ["an allocation record", config(["serviceipallocations"], [{ identity: {} }]), /resources which do not have REST API\/s cannot be encrypted/],
    ["a resource across groups", config(["secrets.*"], [{ identity: {} }]), /encrypting the same resource across groups is not supported/],
    ["overlapping resources", config(["secrets", "*."], [{ identity: {} }]), /overlapping resources such as 'secrets' and '\*\.'/],
    ["a duplicate", config(["secrets", "secrets"], [{ identity: {} }]), /the same resource cannot be specified multiple times/],
    ["YAML that does not parse", "resources: [\n  - {", /not valid YAML or JSON/],
  ])("refuses %s", (_what, text, message) => {
    expect(errorOf(text)).toMatch(message);
  });

  it("refuses a rule masked by an earlier wildcard, as kube does", () => {
    const text = JSON.stringify({ apiVersion: "apiserver.config.k8s.io/v1", kind: "EncryptionConfiguration", resources: [
      { resources: ["*."], providers: [{ identity: {} }] },
      { resources: ["secrets"], providers: [{ aescbc: { keys: [{ name: "k", secret: k32() }] } }] },
    ] });
    expect(errorOf(text)).toMatch(/resource "secrets" is masked by earlier rule "\*\."/);
  });

  it("never puts key material in its messages", () => {
    const key = Buffer.from("0123456789abcdefXYZ").toString("base64"); // 19 bytes: wrong size
    const msg = errorOf(`apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets]
    providers:
      - aescbc: {keys: [{name: k, secret: ${key}}]}
      - secretbox: {keys: [{name: k, secret: "${key}"
`);
    expect(msg).not.toContain(key);
    const msg2 = errorOf(config(["secrets"], [{ aescbc: { keys: [{ name: "k", secret: key }] } }]));
    expect(msg2).toMatch(/REDACTED/);
    expect(msg2).not.toContain(key);
  });

  it("names the file and the problem when ENCRYPTION_CONFIG is unusable", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cc-enc-"));
    expect(() => encryptionFromEnv({ ENCRYPTION_CONFIG: path.join(dir, "missing.yaml") }, groupsOf)).toThrow(/ENCRYPTION_CONFIG: error opening encryption provider configuration file ".*missing.yaml": ENOENT/);
    writeFileSync(path.join(dir, "empty.yaml"), "");
    expect(() => encryptionFromEnv({ ENCRYPTION_CONFIG: path.join(dir, "empty.yaml") }, groupsOf)).toThrow(/is empty/);
    writeFileSync(path.join(dir, "bad.yaml"), config(["secrets"], [{ aesgcm: { keys: [{ name: "k", secret: "AAAA" }] } }]));
    expect(() => encryptionFromEnv({ ENCRYPTION_CONFIG: path.join(dir, "bad.yaml") }, groupsOf)).toThrow(/ENCRYPTION_CONFIG .*bad.yaml: error while parsing file: resources\[0\].providers\[0\].aesgcm.keys\[0\].secret/);
    expect(encryptionFromEnv({}, groupsOf)).toBeUndefined();
  });
});

describe("EncryptionTransformer", () => {
  it.each(["aesgcm", "aescbc", "secretbox"] as const)("%s round-trips, stores no plaintext and uses kube's prefix", (provider) => {
    const t = transformer(config(["secrets"], [{ [provider]: { keys: [{ name: "key1", secret: k32() }] } }]));
    const stored = t.toStorage(secretKey, secretJson);
    expect(stored.startsWith(`k8s:enc:${provider}:v1:key1:`)).toBe(true);
    expect(stored).not.toContain("hunter2");
    expect(stored).not.toContain(Buffer.from("hunter2-VERY-SECRET").toString("base64"));
    expect(stored).not.toContain("password");
    expect(t.toStorage(secretKey, secretJson)).not.toBe(stored); // fresh nonce/IV every write
    expect(t.fromStorage(secretKey, stored)).toEqual({ json: secretJson, stale: false });
  });

  it("writes kube's byte layouts (checked with an independent decryption)", () => {
    const key = randomBytes(32);
    const b64 = key.toString("base64");
    const payload = (stored: string, prefix: string) => Buffer.from(stored.slice(prefix.length), "base64");

    const gcm = payload(transformer(config(["secrets"], [{ aesgcm: { keys: [{ name: "g", secret: b64 }] } }])).toStorage(secretKey, secretJson), "k8s:enc:aesgcm:v1:g:");
    const d1 = createDecipheriv("aes-256-gcm", key, gcm.subarray(0, 12));
    d1.setAAD(Buffer.from("/registry/secrets/default/db"));
    d1.setAuthTag(gcm.subarray(gcm.length - 16));
    expect(Buffer.concat([d1.update(gcm.subarray(12, gcm.length - 16)), d1.final()]).toString()).toBe(secretJson);

    const cbc = payload(transformer(config(["secrets"], [{ aescbc: { keys: [{ name: "c", secret: b64 }] } }])).toStorage(secretKey, secretJson), "k8s:enc:aescbc:v1:c:");
    expect((cbc.length - 16) % 16).toBe(0);
    const d2 = createDecipheriv("aes-256-cbc", key, cbc.subarray(0, 16));
    expect(Buffer.concat([d2.update(cbc.subarray(16)), d2.final()]).toString()).toBe(secretJson);

    const box = payload(transformer(config(["secrets"], [{ secretbox: { keys: [{ name: "s", secret: b64 }] } }])).toStorage(secretKey, secretJson), "k8s:enc:secretbox:v1:s:");
    const opened = nacl.secretbox.open(new Uint8Array(box.subarray(24)), new Uint8Array(box.subarray(0, 24)), new Uint8Array(key));
    expect(Buffer.from(opened!).toString()).toBe(secretJson);
  });

  it("accepts 16- and 24-byte AES keys", () => {
    for (const size of [16, 24]) {
      const t = transformer(config(["secrets"], [{ aesgcm: { keys: [{ name: "k", secret: randomBytes(size).toString("base64") }] } }, { aescbc: { keys: [{ name: "k", secret: randomBytes(size).toString("base64") }] } }]));
      expect(t.fromStorage(secretKey, t.toStorage(secretKey, secretJson)).json).toBe(secretJson);
    }
  });

  it("binds an AES-GCM value to its object (the storage key is authenticated data)", () => {
    const t = transformer(config(["secrets"], [{ aesgcm: { keys: [{ name: "k", secret: k32() }] } }]));
    const stored = t.toStorage(secretKey, secretJson);
    expect(storageKeyOf(secretKey)).toBe("/registry/secrets/default/db");
    expect(() => t.fromStorage({ ...secretKey, name: "other" }, stored)).toThrow(/cannot read secrets default\/other, stored as k8s:enc:aesgcm:v1:k: aesgcm key "k": message authentication failed/);
  });

  it("reads with every provider, writes with the first, and marks other reads stale (kube's rotation)", () => {
    const old = { name: "key1", secret: k32() };
    const fresh = { name: "key2", secret: k32() };
    const before = transformer(config(["secrets"], [{ aescbc: { keys: [old] } }]));
    expect(() => before.fromStorage(secretKey, secretJson)).toThrow(/stored unencrypted/); // no identity provider listed
    const v1 = before.toStorage(secretKey, secretJson);

    // Step 1: new key added second: still writes key1, reads both.
    const step1 = transformer(config(["secrets"], [{ aescbc: { keys: [old, fresh] } }]));
    expect(step1.fromStorage(secretKey, v1)).toEqual({ json: secretJson, stale: false });
    expect(step1.toStorage(secretKey, secretJson)).toMatch(/^k8s:enc:aescbc:v1:key1:/);
    // Step 2: new key first: writes key2, values under key1 are stale.
    const step2 = transformer(config(["secrets"], [{ aescbc: { keys: [fresh, old] } }]));
    expect(step2.fromStorage(secretKey, v1)).toEqual({ json: secretJson, stale: true });
    const v2 = step2.toStorage(secretKey, secretJson);
    expect(v2).toMatch(/^k8s:enc:aescbc:v1:key2:/);
    expect(step2.fromStorage(secretKey, v2)).toEqual({ json: secretJson, stale: false });
    // Step 4: old key removed: key2 values read, key1 values are refused with a message naming the key only.
    const step4 = transformer(config(["secrets"], [{ aescbc: { keys: [fresh] } }]));
    expect(step4.fromStorage(secretKey, v2).json).toBe(secretJson);
    let message = "";
    try { step4.fromStorage(secretKey, v1); } catch (e) { message = (e as Error).message; }
    expect(message).toBe("cannot read secrets default/db, stored as k8s:enc:aescbc:v1:key1: ENCRYPTION_CONFIG lists no such provider and key");
  });

  it("treats identity as kube does: plaintext is stale behind another provider, encrypted data is not identity's", () => {
    const key = { name: "k", secret: k32() };
    const encryptExisting = transformer(config(["secrets"], [{ aescbc: { keys: [key] } }, { identity: {} }]));
    expect(encryptExisting.fromStorage(secretKey, secretJson)).toEqual({ json: secretJson, stale: true });
    const encrypted = encryptExisting.toStorage(secretKey, secretJson);
    const decrypt = transformer(config(["secrets"], [{ identity: {} }, { aescbc: { keys: [key] } }]));
    expect(decrypt.toStorage(secretKey, secretJson)).toBe(secretJson);
    expect(decrypt.fromStorage(secretKey, encrypted)).toEqual({ json: secretJson, stale: true });
    expect(decrypt.fromStorage(secretKey, secretJson)).toEqual({ json: secretJson, stale: false });
    const onlyAes = transformer(config(["secrets"], [{ aescbc: { keys: [key] } }]));
    expect(() => onlyAes.fromStorage(secretKey, secretJson)).toThrow(/stored unencrypted and ENCRYPTION_CONFIG lists no identity provider for secrets/);
  });

  it("tries every provider sharing a prefix before giving up", () => {
    const a = { name: "same", secret: k32() };
    const b = { name: "same", secret: k32() };
    const v = transformer(config(["secrets"], [{ aesgcm: { keys: [b] } }])).toStorage(secretKey, secretJson);
    const t = transformer(config(["secrets"], [{ aesgcm: { keys: [a] } }, { aesgcm: { keys: [b] } }]));
    expect(t.fromStorage(secretKey, v)).toEqual({ json: secretJson, stale: true });
    const wrong = transformer(config(["secrets"], [{ aesgcm: { keys: [a] } }]));
    expect(() => wrong.fromStorage(secretKey, v)).toThrow(/aesgcm key "same": message authentication failed/);
  });

  it("matches resources like kube: exact, then *.<group>, then *.*; other resources stay plain", () => {
    const k = { name: "k", secret: k32() };
    const text = JSON.stringify({ apiVersion: "apiserver.config.k8s.io/v1", kind: "EncryptionConfiguration", resources: [
      { resources: ["configmaps", "roles.rbac.authorization.k8s.io", "securitycontextconstraints.security.openshift.io"], providers: [{ secretbox: { keys: [k] } }] },
      { resources: ["*.coordination.k8s.io"], providers: [{ aesgcm: { keys: [k] } }] },
    ] });
    const t = transformer(text);
    expect(t.encrypts("configmaps")).toBe(true);
    expect(t.encrypts("roles")).toBe(true);
    expect(t.encrypts("securitycontextconstraints")).toBe(true);
    expect(t.encrypts("leases")).toBe(true);
    expect(t.encrypts("secrets")).toBe(false);
    expect(t.encrypts("rolebindings")).toBe(false);
    const all = transformer(config(["*.*"], [{ aescbc: { keys: [k] } }]));
    expect(all.encrypts("secrets") && all.encrypts("roles") && all.encrypts("pods")).toBe(true);
    expect(all.encrypts("serviceipallocations")).toBe(false); // internal records are never encrypted (kube refuses to name them)
    const core = transformer(config(["*."], [{ aescbc: { keys: [k] } }]));
    expect(core.encrypts("secrets") && core.encrypts("pods")).toBe(true);
    expect(core.encrypts("roles")).toBe(false);
    // Custom resources, stored under <plural>.<group>: by name, by their group's wildcard, by *.*; never by *. (core).
    expect(all.encrypts("widgets.example.com")).toBe(true);
    const custom = transformer(config(["widgets.example.com", "*.tools.example.com"], [{ aescbc: { keys: [k] } }]));
    expect(custom.encrypts("widgets.example.com") && custom.encrypts("hammers.tools.example.com")).toBe(true);
    expect(custom.encrypts("gadgets.example.com") || custom.encrypts("widgets.example.org")).toBe(false);
    expect(core.encrypts("widgets.example.com")).toBe(false);
    const cr = { resource: "widgets.example.com", namespace: "a", name: "w" };
    const sealed = custom.toStorage(cr, secretJson);
    expect(sealed.startsWith("k8s:enc:aescbc:v1:k:")).toBe(true);
    expect(custom.fromStorage(cr, sealed)).toEqual({ json: secretJson, stale: false });
    // Plain resources still refuse a value that is encrypted, naming the provider and key only.
    const v = all.toStorage({ resource: "pods", namespace: "a", name: "p" }, secretJson);
    expect(() => t.fromStorage({ resource: "pods", namespace: "a", name: "p" }, v)).toThrow("cannot read pods a/p: it is stored encrypted (k8s:enc:aescbc:v1:k) but ENCRYPTION_CONFIG has no providers for pods");
  });

  it("refuses a damaged value without echoing it", () => {
    const t = transformer(config(["secrets"], [{ aescbc: { keys: [{ name: "k", secret: k32() }] } }]));
    const stored = t.toStorage(secretKey, secretJson);
    const prefix = "k8s:enc:aescbc:v1:k:";
    const damaged = prefix + Buffer.from(stored.slice(prefix.length), "base64").subarray(0, -3).toString("base64"); // no longer whole AES blocks
    let message = "";
    try { t.fromStorage(secretKey, damaged); } catch (e) { message = (e as Error).message; }
    expect(message).toBe('cannot read secrets default/db, stored as k8s:enc:aescbc:v1:k: aescbc key "k": the stored data is not a multiple of the block size');
    expect(message).not.toContain(damaged.slice(30, 60));
  });
});
