// The storage transformer built from an EncryptionConfiguration, with kube's semantics: each resource's
// providers are tried in order on read (a prefix picks the provider and key), the first provider and its first
// key write, and a value read by any other provider or key is "stale" (an unchanged update still rewrites it).
//
// Stored text: `k8s:enc:<provider>:v1:<key name>:` then the base64 of kube's binary payload (see ciphers.ts).
// The database columns are text, so the payload is base64 where kube-apiserver writes raw bytes to etcd.
// The identity provider stores the JSON as it is.
import type { ObjectKey, ValueTransformer } from "../storage/types";
import { cipherFor, type Cipher } from "./ciphers";
import type { CipherName, ResourceRule } from "./encryption-config";

const ENCRYPTED = "k8s:enc:";

type Step =
  | { type: "identity" }
  | { type: CipherName; prefix: string; keys: { name: string; cipher: Cipher }[] };

/**
 * The group-resources (kube's names: group, plural) a store resource is served as, or undefined for internal
 * records (never encrypted).
 */
export type GroupsOf = (resource: string) => { group: string; resource: string }[] | undefined;

/** kube's storage key for an object, used as AES-GCM's authenticated data: a value cannot be moved to another object. */
export const storageKeyOf = (key: ObjectKey): string =>
  `/registry/${key.resource}/${key.namespace ? `${key.namespace}/` : ""}${key.name}`;

const describeKey = (key: ObjectKey) => `${key.resource} ${key.namespace ? `${key.namespace}/` : ""}${key.name}`;

/** `k8s:enc:aescbc:v1:key1` of a stored value (names the provider and key, never any of the value). */
export function storedPrefix(stored: string): string | undefined {
  if (!stored.startsWith(ENCRYPTED)) return undefined;
  return stored.split(":", 5).join(":");
}

export class EncryptionTransformer implements ValueTransformer {
  private readonly chains = new Map<string, Step[] | null>();
  private readonly byGroupResource = new Map<string, Step[]>();

  constructor(rules: ResourceRule[], private readonly groupsOf: GroupsOf) {
    for (const rule of rules) {
      const steps: Step[] = rule.providers.map((p) => p.type === "identity" ? { type: "identity" } : {
        type: p.type,
        prefix: `${ENCRYPTED}${p.type}:v1:`,
        keys: p.keys.map((k) => ({ name: k.name, cipher: cipherFor(p.type, k.secret) })),
      });
      // As kube: a group-resource named in several entries gets their providers in order.
      for (const gr of rule.resources) {
        const id = `${gr.group}/${gr.resource}`;
        this.byGroupResource.set(id, [...(this.byGroupResource.get(id) ?? []), ...steps]);
      }
    }
  }

  /** The providers for a store resource: exact group-resource first, then `*.<group>`, then `*.*` (kube's lookup). */
  private chain(resource: string): Step[] | null {
    if (this.chains.has(resource)) return this.chains.get(resource)!;
    const groups = this.groupsOf(resource);
    let found: Step[] | null = null;
    if (groups) {
      const candidates = [...groups.map((g) => `${g.group}/${g.resource}`), ...groups.map((g) => `${g.group}/*`), "*/*"];
      for (const c of candidates) if ((found = this.byGroupResource.get(c) ?? null)) break;
    }
    this.chains.set(resource, found);
    return found;
  }

  /** Whether objects of this store resource are written encrypted (the first provider is not identity). */
  encrypts(resource: string): boolean {
    const first = this.chain(resource)?.[0];
    return !!first && first.type !== "identity";
  }

  toStorage(key: ObjectKey, json: string): string {
    const first = this.chain(key.resource)?.[0];
    if (!first || first.type === "identity") return json;
    const k = first.keys[0];
    return `${first.prefix}${k.name}:${k.cipher.seal(Buffer.from(json, "utf8"), Buffer.from(storageKeyOf(key))).toString("base64")}`;
  }

  fromStorage(key: ObjectKey, stored: string): { json: string; stale: boolean } {
    const chain = this.chain(key.resource);
    if (!chain) {
      if (stored.startsWith(ENCRYPTED)) {
        throw new Error(`cannot read ${describeKey(key)}: it is stored encrypted (${storedPrefix(stored)}) but ENCRYPTION_CONFIG has no providers for ${key.resource}`);
      }
      return { json: stored, stale: false };
    }
    const problems: string[] = [];
    for (let i = 0; i < chain.length; i++) {
      const step = chain[i];
      if (step.type === "identity") {
        // kube's identity provider refuses encrypted data and lets the next provider try.
        if (stored.startsWith(ENCRYPTED)) continue;
        return { json: stored, stale: i !== 0 };
      }
      if (!stored.startsWith(step.prefix)) continue;
      const rest = stored.slice(step.prefix.length);
      for (let j = 0; j < step.keys.length; j++) {
        const k = step.keys[j];
        if (!rest.startsWith(`${k.name}:`)) continue;
        try {
          const plain = k.cipher.open(Buffer.from(rest.slice(k.name.length + 1), "base64"), Buffer.from(storageKeyOf(key))).toString("utf8");
          if (!plain.startsWith("{")) throw new Error("the decrypted value is not an object (wrong key?)");
          return { json: plain, stale: i !== 0 || j !== 0 };
        } catch (err) {
          problems.push(`${step.type} key ${JSON.stringify(k.name)}: ${(err as Error).message}`);
        }
      }
    }
    const what = storedPrefix(stored);
    if (!what) throw new Error(`cannot read ${describeKey(key)}: it is stored unencrypted and ENCRYPTION_CONFIG lists no identity provider for ${key.resource}`);
    throw new Error(`cannot read ${describeKey(key)}, stored as ${what}: ${problems.length ? problems.join("; ") : "ENCRYPTION_CONFIG lists no such provider and key"}`);
  }
}
