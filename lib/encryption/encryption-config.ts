// Reads and validates kube-apiserver's EncryptionConfiguration (apiserver.config.k8s.io/v1), the file
// ENCRYPTION_CONFIG names, with kube's rules and field paths. Every problem is reported at once; key material
// never appears in a message (kube's "REDACTED").
import { readFileSync } from "node:fs";
import { parse } from "yaml";

export type CipherName = "aesgcm" | "aescbc" | "secretbox";

export interface NamedKey {
  name: string;
  secret: Buffer;
}

export type Provider = { type: "identity" } | { type: CipherName; keys: NamedKey[] };

/** One `resources[i]` entry: the group-resources it covers (`secrets`, `roles.rbac.authorization.k8s.io`, `*.`, `*.*`) and its providers in order. */
export interface ResourceRule {
  resources: GroupResource[];
  providers: Provider[];
}

export interface GroupResource {
  group: string;
  resource: string;
}

export class EncryptionConfigError extends Error {}

const API_VERSION = "apiserver.config.k8s.io/v1";
const KIND = "EncryptionConfiguration";
const KEY_SIZES: Record<CipherName, number[]> = { aesgcm: [16, 24, 32], aescbc: [16, 24, 32], secretbox: [32] };
const PROVIDER_NAMES = ["kms", "aesgcm", "aescbc", "secretbox", "identity"];
const NON_REST = new Set(["apiserveripinfo", "serviceipallocations", "servicenodeportallocations"]);

/** kube's schema.ParseGroupResource: `roles.rbac.authorization.k8s.io` -> roles in rbac.authorization.k8s.io. */
export function parseGroupResource(text: string): GroupResource {
  const dot = text.indexOf(".");
  return dot < 0 ? { group: "", resource: text } : { group: text.slice(dot + 1), resource: text.slice(0, dot) };
}

/** How kube prints a group-resource in its masking message (`*.` for every core resource). */
const grText = (gr: GroupResource) => (gr.group === "" && gr.resource === "*" ? "*." : gr.group ? `${gr.resource}.${gr.group}` : gr.resource);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const show = (v: unknown) => JSON.stringify(v);

/** Reads `file` and returns its rules, or throws EncryptionConfigError naming the file and every problem. */
export function loadEncryptionConfiguration(file: string): ResourceRule[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new EncryptionConfigError(`ENCRYPTION_CONFIG: error opening encryption provider configuration file ${show(file)}: ${(err as NodeJS.ErrnoException).code ?? "unreadable"}`);
  }
  if (text.trim() === "") throw new EncryptionConfigError(`ENCRYPTION_CONFIG: encryption provider configuration file ${show(file)} is empty`);
  try {
    return parseEncryptionConfiguration(text);
  } catch (err) {
    if (err instanceof EncryptionConfigError) throw new EncryptionConfigError(`ENCRYPTION_CONFIG ${file}: ${err.message}`);
    throw err;
  }
}

/** Parses the YAML or JSON text of an EncryptionConfiguration; throws EncryptionConfigError listing every problem. */
export function parseEncryptionConfiguration(text: string): ResourceRule[] {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    // The YAML parser's message quotes the offending line, which may hold a key: say only where.
    const pos = (err as { linePos?: { line: number; col: number }[] }).linePos?.[0];
    throw new EncryptionConfigError(`error while parsing file: not valid YAML or JSON${pos ? ` (line ${pos.line}, column ${pos.col})` : ""}`);
  }
  if (!isObject(doc)) throw new EncryptionConfigError("error while parsing file: expected an EncryptionConfiguration object");
  if (doc.kind !== KIND || doc.apiVersion !== API_VERSION) {
    throw new EncryptionConfigError(`error while parsing file: expected kind ${KIND} and apiVersion ${API_VERSION}, got kind ${show(doc.kind ?? "")} and apiVersion ${show(doc.apiVersion ?? "")}`);
  }
  const errors: string[] = [];
  const rules: ResourceRule[] = [];
  const resources = doc.resources;
  if (!Array.isArray(resources) || resources.length === 0) {
    throw new EncryptionConfigError("error while parsing file: resources: Required value: at least one resources is required");
  }
  resources.forEach((entry, i) => {
    const at = `resources[${i}]`;
    if (!isObject(entry)) { errors.push(`${at}: Invalid value: expected an object with resources and providers`); return; }
    const names = Array.isArray(entry.resources) ? entry.resources : [];
    if (names.length === 0) errors.push(`${at}.resources: Required value: at least one ${at}.resources is required`);
    const good: string[] = [];
    names.forEach((n, j) => {
      if (typeof n !== "string") errors.push(`${at}.resources[${j}]: Invalid value: ${show(n)}: must be a string`);
      else { const problem = resourceNameProblem(n); if (problem) errors.push(`${at}.resources[${j}]: Invalid value: ${show(n)}: ${problem}`); else good.push(n); }
    });
    errors.push(...overlapProblems(good, `${at}.resources`));
    const providers = Array.isArray(entry.providers) ? entry.providers : [];
    if (providers.length === 0) errors.push(`${at}.providers: Required value: at least one ${at}.providers is required`);
    const parsed: Provider[] = [];
    providers.forEach((p, j) => {
      const provider = parseProvider(p, `${at}.providers[${j}]`, errors);
      if (provider) parsed.push(provider);
    });
    rules.push({ resources: good.map(parseGroupResource), providers: parsed });
  });
  if (errors.length === 0) errors.push(...maskingProblems(rules));
  if (errors.length) throw new EncryptionConfigError(`error while parsing file: ${errors.join("; ")}`);
  return rules;
}

/** kube's validateResourceNames. */
function resourceNameProblem(name: string): string | undefined {
  if (name.toLowerCase() !== name) return "resource name should not contain capital letters";
  if (name === "*") return "use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources";
  if (NON_REST.has(name)) return "resources which do not have REST API/s cannot be encrypted";
  const gr = parseGroupResource(name);
  if (gr.group === "events.k8s.io") return "'*.events.k8s.io' objects are stored using the 'events' API group in etcd. Use 'events' instead in the config file";
  if (gr.group === "extensions") return "'extensions' group has been removed and cannot be used for encryption";
  if (gr.group === "*" && gr.resource !== "*") return "encrypting the same resource across groups is not supported";
  if (gr.resource === "") return "resource name must not be empty";
  return undefined;
}

/** kube's validateResourceOverlap (within one entry). */
function overlapProblems(names: string[], at: string): string[] {
  const grs = names.map(parseGroupResource);
  let duplicate = false, overlap = false;
  grs.forEach((a, i) => grs.forEach((b, j) => {
    if (i === j) return;
    if (a.group === b.group && a.resource === b.resource) { duplicate = true; return; }
    if (a.group === "*" && a.resource === "*") overlap = true;
    else if (a.group === b.group && (a.resource === "*" || b.resource === "*")) overlap = true;
  }));
  const out: string[] = [];
  if (duplicate) out.push(`${at}: Invalid value: ${show(names)}: the same resource cannot be specified multiple times`);
  if (overlap) out.push(`${at}: Invalid value: ${show(names)}: using overlapping resources such as 'secrets' and '*.' in the same resource list is not allowed as they will be masked`);
  return out;
}

/** kube refuses a rule that an earlier `*.group` or `*.*` rule masks. */
function maskingProblems(rules: ResourceRule[]): string[] {
  const seen = new Set<string>();
  for (const rule of rules) {
    for (const gr of rule.resources) {
      for (const mask of [{ group: gr.group, resource: "*" }, { group: "*", resource: "*" }]) {
        if (seen.has(`${mask.group}/${mask.resource}`)) return [`resource ${show(grText(gr))} is masked by earlier rule ${show(grText(mask))}`];
      }
    }
    for (const gr of rule.resources) seen.add(`${gr.group}/${gr.resource}`);
  }
  return [];
}

function parseProvider(p: unknown, at: string, errors: string[]): Provider | undefined {
  if (!isObject(p)) { errors.push(`${at}: Invalid value: provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity`); return undefined; }
  const unknown = Object.keys(p).filter((k) => !PROVIDER_NAMES.includes(k));
  if (unknown.length) { errors.push(`${at}: Invalid value: unknown provider ${show(unknown[0])} (expected one of aesgcm, aescbc, secretbox, identity)`); return undefined; }
  const present = PROVIDER_NAMES.filter((k) => p[k] !== undefined && p[k] !== null);
  if (present.length === 0) { errors.push(`${at}: Invalid value: provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity`); return undefined; }
  if (present.length > 1) { errors.push(`${at}: Invalid value: more than one provider specified in a single element, should split into different list elements`); return undefined; }
  const type = present[0];
  if (type === "identity") return { type: "identity" };
  if (type === "kms") { errors.push(`${at}.kms: Unsupported value: KMS providers need a KMS plugin, which this server does not run; use aesgcm, aescbc or secretbox`); return undefined; }
  const cipher = type as CipherName;
  const config = p[cipher];
  const keysAt = `${at}.${cipher}.keys`;
  const keys = isObject(config) && Array.isArray(config.keys) ? config.keys : [];
  if (keys.length === 0) { errors.push(`${keysAt}: Required value: at least one keys is required`); return undefined; }
  const parsed: NamedKey[] = [];
  keys.forEach((k, i) => {
    const key = parseKey(k, `${keysAt}[${i}]`, KEY_SIZES[cipher], errors);
    if (key) parsed.push(key);
  });
  return parsed.length === keys.length ? { type: cipher, keys: parsed } : undefined;
}

function parseKey(k: unknown, at: string, sizes: number[], errors: string[]): NamedKey | undefined {
  const o = isObject(k) ? k : {};
  const name = typeof o.name === "string" ? o.name : "";
  const secret = typeof o.secret === "string" ? o.secret : "";
  let ok = true;
  if (name === "") { errors.push(`${at}.name: Required value: name is a mandatory field for a key`); ok = false; }
  if (secret === "") { errors.push(`${at}.secret: Required value: secret is a mandatory field for a key`); return undefined; }
  // Go's base64.StdEncoding: the standard alphabet with padding, nothing else.
  if (secret.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(secret)) {
    errors.push(`${at}.secret: Invalid value: "REDACTED": secrets must be base64 encoded`);
    return undefined;
  }
  const bytes = Buffer.from(secret, "base64");
  if (!sizes.includes(bytes.length)) {
    errors.push(`${at}.secret: Invalid value: "REDACTED": secret is not of the expected length, got ${bytes.length}, expected one of [${sizes.join(" ")}]`);
    return undefined;
  }
  return ok ? { name, secret: bytes } : undefined;
}
