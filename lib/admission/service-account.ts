// ServiceAccount (kube-apiserver's admission plug-in of that name), for pods being created: the `default`
// account when none is named, a refusal when the named account does not exist, the account's image pull
// secrets when the pod names none, and unless automounting is turned off (pod first, then account) the
// projected `kube-api-access-xxxxx` volume (bound token, cluster CA, namespace) mounted read-only in every
// container. Mirror pods are never changed, only held to referencing no account, secret or token.
import { errors } from "../status";
import type { KubeObject } from "../kinds/types";
import type { AdmissionPlugin, AdmissionRequest } from "./admission-chain";
import { admissionForbidden } from "./forbidden";

export const DEFAULT_SERVICE_ACCOUNT = "default";
export const TOKEN_VOLUME_PREFIX = "kube-api-access-";
export const TOKEN_MOUNT_PATH = "/var/run/secrets/kubernetes.io/serviceaccount";
export const ROOT_CA_CONFIG_MAP = "kube-root-ca.crt";
/** One hour and seven seconds: kube's marker for tokens that only warn when used after the hour. */
export const TOKEN_EXPIRATION_SECONDS = 3607;
const MIRROR_POD_ANNOTATION = "kubernetes.io/config.mirror";
const ENFORCE_MOUNTABLE_SECRETS_ANNOTATION = "kubernetes.io/enforce-mountable-secrets";
/** strconv.ParseBool's spellings of true. */
const PARSE_BOOL_TRUE = new Set(["1", "t", "T", "TRUE", "true", "True"]);
/** The default account is made by a controller just after its namespace: look a little longer for it. */
const DEFAULT_ACCOUNT_ATTEMPTS = 10;
/** names.SimpleNameGenerator's alphabet (no vowels, no look-alikes). */
const NAME_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

type Json = Record<string, unknown>;
interface VolumeMount { name?: string; mountPath?: string; readOnly?: boolean }
interface Container extends Json { name?: string; volumeMounts?: VolumeMount[]; env?: { name?: string; valueFrom?: { secretKeyRef?: { name?: string } } }[] }
interface PodSpec extends Json {
  serviceAccountName?: string;
  serviceAccount?: string;
  automountServiceAccountToken?: boolean;
  containers?: Container[];
  initContainers?: Container[];
  ephemeralContainers?: Container[];
  volumes?: Json[];
  imagePullSecrets?: { name?: string }[];
}
type ServiceAccount = KubeObject & { automountServiceAccountToken?: boolean; imagePullSecrets?: { name?: string }[]; secrets?: { name?: string }[] };

/** A ServiceAccount as the server's cache holds it (undefined when it does not exist). */
export type ServiceAccountLookup = (namespace: string, name: string) => KubeObject | undefined;

export interface ServiceAccountAdmissionOptions {
  /** Brings the cache up to the latest committed write (kube's live GET after a lister miss). */
  catchUp?: () => Promise<void>;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const listOf = <T>(v: unknown): T[] => (Array.isArray(v) ? v.filter(isObject) as T[] : []);

export class ServiceAccountAdmission implements AdmissionPlugin {
  readonly name = "ServiceAccount";
  private readonly catchUp: () => Promise<void>;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;

  constructor(private readonly lookup: ServiceAccountLookup, opts: ServiceAccountAdmissionOptions = {}) {
    this.catchUp = opts.catchUp ?? (async () => {});
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.random = opts.random ?? Math.random;
  }

  async admit(req: AdmissionRequest): Promise<void> {
    if (!applies(req)) return;
    const pod = req.object!;
    if (isMirror(pod)) return this.validate(req);
    const spec = (isObject(pod.spec) ? pod.spec : (pod.spec = {})) as PodSpec;
    if (!spec.serviceAccountName) spec.serviceAccountName = DEFAULT_SERVICE_ACCOUNT;
    // v1 keeps the deprecated field in step; defaulting ran before admission, so mirror it here.
    spec.serviceAccount = spec.serviceAccountName;
    const sa = await this.account(req, spec.serviceAccountName);
    if (shouldAutomount(sa, spec)) this.mountToken(spec);
    if (!spec.imagePullSecrets?.length && sa.imagePullSecrets?.length) {
      spec.imagePullSecrets = sa.imagePullSecrets.map((s) => ({ name: s.name ?? "" }));
    }
  }

  async validate(req: AdmissionRequest): Promise<void> {
    if (!applies(req)) return;
    const pod = req.object!;
    const spec = (isObject(pod.spec) ? pod.spec : {}) as PodSpec;
    if (isMirror(pod)) {
      if (spec.serviceAccountName) throw admissionForbidden(req, "a mirror pod may not reference service accounts");
      if (referencesSecrets(spec)) throw admissionForbidden(req, "a mirror pod may not reference secrets");
      for (const v of listOf<Json>(spec.volumes)) {
        const sources = isObject(v.projected) ? listOf<Json>(v.projected.sources) : [];
        if (sources.some((s) => s.serviceAccountToken)) {
          throw admissionForbidden(req, "a mirror pod may not use ServiceAccountToken volume projections");
        }
      }
      return;
    }
    const sa = await this.account(req, spec.serviceAccountName ?? "");
    if (PARSE_BOOL_TRUE.has(sa.metadata.annotations?.[ENFORCE_MOUNTABLE_SECRETS_ANNOTATION] ?? "")) {
      const why = secretReferenceError(sa, spec);
      if (why) throw admissionForbidden(req, why);
    }
  }

  /** The pod's account, or the 403 kube answers when it does not exist (after kube's retries for `default`). */
  private async account(req: AdmissionRequest, name: string): Promise<ServiceAccount> {
    const found = this.lookup(req.namespace, name);
    if (found) return found as ServiceAccount;
    const attempts = name === DEFAULT_SERVICE_ACCOUNT ? DEFAULT_ACCOUNT_ATTEMPTS : 1;
    const interval = 100 + Math.floor(this.random() * 100);
    for (let i = 0; i < attempts; i++) {
      if (i) await this.sleep(interval);
      await this.catchUp();
      const sa = this.lookup(req.namespace, name);
      if (sa) return sa as ServiceAccount;
    }
    const notFound = errors.notFound("serviceaccount", name).message;
    throw admissionForbidden(req, `error looking up service account ${req.namespace}/${name}: ${notFound}`);
  }

  private mountToken(spec: PodSpec): void {
    const volumes = listOf<Json>(spec.volumes);
    const existing = volumes.find((v) => typeof v.name === "string" && v.name.startsWith(TOKEN_VOLUME_PREFIX));
    const volumeName = (existing?.name as string | undefined) ?? this.generateName(TOKEN_VOLUME_PREFIX);
    let needsVolume = false;
    for (const c of [...listOf<Container>(spec.initContainers), ...listOf<Container>(spec.containers)]) {
      const mounts = listOf<VolumeMount>(c.volumeMounts);
      // A mount the user put at the token path wins; kube never adds a second one there.
      if (mounts.some((m) => m.mountPath === TOKEN_MOUNT_PATH)) continue;
      c.volumeMounts = [...mounts, { name: volumeName, readOnly: true, mountPath: TOKEN_MOUNT_PATH }];
      needsVolume = true;
    }
    if (!existing && needsVolume) spec.volumes = [...volumes, tokenVolume(volumeName)];
  }

  private generateName(prefix: string): string {
    let suffix = "";
    for (let i = 0; i < 5; i++) suffix += NAME_ALPHABET[Math.floor(this.random() * NAME_ALPHABET.length)];
    return prefix + suffix;
  }
}

/** kube's TokenVolumeSource, as a v1 pod reads back with it. */
export function tokenVolume(name: string): Json {
  return {
    name,
    projected: {
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { expirationSeconds: TOKEN_EXPIRATION_SECONDS, path: "token" } },
        { configMap: { name: ROOT_CA_CONFIG_MAP, items: [{ key: "ca.crt", path: "ca.crt" }] } },
        { downwardAPI: { items: [{ path: "namespace", fieldRef: { apiVersion: "v1", fieldPath: "metadata.namespace" } }] } },
      ],
    },
  };
}

const applies = (req: AdmissionRequest) =>
  req.operation === "CREATE" && !req.subresource && req.kind.kind === "Pod" && !req.kind.group && isObject(req.object);

const isMirror = (pod: KubeObject) => !!pod.metadata.annotations && MIRROR_POD_ANNOTATION in pod.metadata.annotations;

function shouldAutomount(sa: ServiceAccount, spec: PodSpec): boolean {
  if (typeof spec.automountServiceAccountToken === "boolean") return spec.automountServiceAccountToken;
  if (typeof sa.automountServiceAccountToken === "boolean") return sa.automountServiceAccountToken;
  return true;
}

const allContainers = (spec: PodSpec) => [
  ...listOf<Container>(spec.initContainers), ...listOf<Container>(spec.containers), ...listOf<Container>(spec.ephemeralContainers),
];

/** Whether the pod names any Secret (volumes, projections, env, envFrom, image pull secrets). */
function referencesSecrets(spec: PodSpec): boolean {
  if (listOf(spec.imagePullSecrets).length) return true;
  for (const v of listOf<Json>(spec.volumes)) {
    if (v.secret) return true;
    for (const key of ["azureFile", "cephfs", "cinder", "flexVolume", "rbd", "scaleIO", "iscsi", "csi"]) {
      const src = v[key];
      if (isObject(src) && (src.secretRef || src.secretName || src.nodePublishSecretRef)) return true;
    }
    if (isObject(v.projected) && listOf<Json>(v.projected.sources).some((s) => s.secret)) return true;
  }
  for (const c of allContainers(spec)) {
    if (listOf<Json>(c.envFrom).some((e) => e.secretRef)) return true;
    if (listOf<Json>(c.env).some((e) => isObject(e.valueFrom) && e.valueFrom.secretKeyRef)) return true;
  }
  return false;
}

/** limitSecretReferences: with the enforce annotation, a pod may use only the Secrets its account lists. */
function secretReferenceError(sa: ServiceAccount, spec: PodSpec): string | undefined {
  const account = sa.metadata.name;
  const mountable = new Set(listOf<{ name?: string }>(sa.secrets).map((s) => s.name));
  for (const v of listOf<Json>(spec.volumes)) {
    const name = isObject(v.secret) ? v.secret.secretName as string | undefined : undefined;
    if (isObject(v.secret) && !mountable.has(name)) {
      return `volume with secret.secretName="${name ?? ""}" is not allowed because service account ${account} does not reference that secret`;
    }
  }
  for (const [label, list] of [["init container", spec.initContainers], ["container", spec.containers]] as const) {
    for (const c of listOf<Container>(list)) {
      for (const e of listOf<NonNullable<Container["env"]>[number]>(c.env)) {
        const ref = e.valueFrom?.secretKeyRef;
        if (ref && !mountable.has(ref.name)) {
          return `${label} ${c.name ?? ""} with envVar ${e.name ?? ""} referencing secret.secretName="${ref.name ?? ""}" is not allowed because service account ${account} does not reference that secret`;
        }
      }
    }
  }
  const pullable = new Set(listOf<{ name?: string }>(sa.imagePullSecrets).map((s) => s.name));
  const pulls = listOf<{ name?: string }>(spec.imagePullSecrets);
  for (let i = 0; i < pulls.length; i++) {
    if (!pullable.has(pulls[i].name)) {
      return `imagePullSecrets[${i}].name="${pulls[i].name ?? ""}" is not allowed because service account ${account} does not reference that imagePullSecret`;
    }
  }
  return undefined;
}
