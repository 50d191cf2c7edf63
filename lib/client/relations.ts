// Reverse relations the console shows on an object page: which pods use this Secret, ConfigMap,
// ServiceAccount or claim, and which pods a Service selects. These are console questions about specific
// kinds, so the kinds are named here (by their `kind` string) rather than in the generic views.
import type { KubeObject } from "../kinds";

type Loose = Record<string, any>;

export interface PodReferences {
  secrets: Set<string>;
  configMaps: Set<string>;
  claims: Set<string>;
  serviceAccount: string;
}

export interface PodUsage {
  kind: "ServiceAccount" | "ConfigMap" | "Secret" | "PersistentVolumeClaim";
  name: string;
  /** How the pod uses it, e.g. `volume "config"`, `env DB_PASSWORD in app`, `envFrom in app`, `image pull secret`. */
  via: string[];
}

const usageOrder: PodUsage["kind"][] = ["ServiceAccount", "ConfigMap", "Secret", "PersistentVolumeClaim"];

/** Every object a pod refers to by name in its own namespace, with how it uses each (volumes, env, envFrom, pull secrets). */
export function podUsages(pod: KubeObject): PodUsage[] {
  const spec = (pod.spec ?? {}) as Loose;
  const found = new Map<string, PodUsage>();
  const add = (kind: PodUsage["kind"], name: unknown, via: string) => {
    if (typeof name !== "string" || !name) return;
    const key = `${kind}/${name}`;
    const usage = found.get(key) ?? { kind, name, via: [] };
    if (!usage.via.includes(via)) usage.via.push(via);
    found.set(key, usage);
  };
  add("ServiceAccount", spec.serviceAccountName || spec.serviceAccount || "default", "runs as");
  for (const volume of (spec.volumes ?? []) as Loose[]) {
    const via = `volume ${volume.name}`;
    add("Secret", volume.secret?.secretName, via);
    add("ConfigMap", volume.configMap?.name, via);
    add("PersistentVolumeClaim", volume.persistentVolumeClaim?.claimName, via);
    for (const source of (volume.projected?.sources ?? []) as Loose[]) {
      add("Secret", source.secret?.name, via);
      add("ConfigMap", source.configMap?.name, via);
    }
  }
  for (const container of [...((spec.initContainers ?? []) as Loose[]), ...((spec.containers ?? []) as Loose[]), ...((spec.ephemeralContainers ?? []) as Loose[])]) {
    for (const env of (container.env ?? []) as Loose[]) {
      add("Secret", env.valueFrom?.secretKeyRef?.name, `env ${env.name} in ${container.name}`);
      add("ConfigMap", env.valueFrom?.configMapKeyRef?.name, `env ${env.name} in ${container.name}`);
    }
    for (const from of (container.envFrom ?? []) as Loose[]) {
      add("Secret", from.secretRef?.name, `envFrom in ${container.name}`);
      add("ConfigMap", from.configMapRef?.name, `envFrom in ${container.name}`);
    }
  }
  for (const pull of (spec.imagePullSecrets ?? []) as Loose[]) add("Secret", pull.name, "image pull secret");
  return [...found.values()].sort((a, b) => usageOrder.indexOf(a.kind) - usageOrder.indexOf(b.kind) || a.name.localeCompare(b.name));
}

/** Everything a pod refers to by name in its own namespace, by kind. */
export function podReferences(pod: KubeObject): PodReferences {
  const refs: PodReferences = { secrets: new Set(), configMaps: new Set(), claims: new Set(), serviceAccount: "default" };
  for (const u of podUsages(pod)) {
    if (u.kind === "ServiceAccount") refs.serviceAccount = u.name;
    else (u.kind === "Secret" ? refs.secrets : u.kind === "ConfigMap" ? refs.configMaps : refs.claims).add(u.name);
  }
  return refs;
}

/** Whether a Service's selector picks this pod (a Service without a selector selects nothing by itself). */
export function selects(service: KubeObject, pod: KubeObject): boolean {
  const selector = ((service.spec as Loose | undefined)?.selector ?? {}) as Record<string, string>;
  const keys = Object.keys(selector);
  if (keys.length === 0) return false;
  const labels = pod.metadata?.labels ?? {};
  return keys.every((k) => labels[k] === selector[k]);
}

export interface PodRelation {
  /** "uses" for references, "selects" for a Service. */
  verb: "uses" | "selects";
  pods: KubeObject[];
}

/** Kinds whose objects have a pod relation; the page lists pods only for these. */
export const kindsWithPodRelations = new Set(["Secret", "ConfigMap", "ServiceAccount", "PersistentVolumeClaim", "Service"]);

export function relatedPods(obj: KubeObject, kind: string, pods: Iterable<KubeObject>): PodRelation | undefined {
  if (!kindsWithPodRelations.has(kind)) return undefined;
  const name = obj.metadata?.name ?? "";
  const namespace = obj.metadata?.namespace;
  const out: KubeObject[] = [];
  for (const pod of pods) {
    if (pod.metadata?.namespace !== namespace) continue;
    if (kind === "Service") {
      if (selects(obj, pod)) out.push(pod);
      continue;
    }
    const refs = podReferences(pod);
    const hit =
      (kind === "Secret" && refs.secrets.has(name)) ||
      (kind === "ConfigMap" && refs.configMaps.has(name)) ||
      (kind === "PersistentVolumeClaim" && refs.claims.has(name)) ||
      (kind === "ServiceAccount" && refs.serviceAccount === name);
    if (hit) out.push(pod);
  }
  out.sort((a, b) => (a.metadata.name ?? "").localeCompare(b.metadata.name ?? ""));
  return { verb: kind === "Service" ? "selects" : "uses", pods: out };
}

/** The Services of the pod's namespace whose selector picks it, by name. */
export function servicesSelecting(pod: KubeObject, services: Iterable<KubeObject>): KubeObject[] {
  const out: KubeObject[] = [];
  for (const service of services) if (service.metadata?.namespace === pod.metadata?.namespace && selects(service, pod)) out.push(service);
  return out.sort((a, b) => (a.metadata.name ?? "").localeCompare(b.metadata.name ?? ""));
}

export interface ObjectLink {
  kind: string;
  namespace?: string;
  name: string;
  why: string;
}

/** Forward links worth showing besides owner references: a claim's volume, a volume's claim. */
export function forwardLinks(obj: KubeObject, kind: string): ObjectLink[] {
  const spec = (obj.spec ?? {}) as Loose;
  if (kind === "PersistentVolumeClaim" && spec.volumeName) return [{ kind: "PersistentVolume", name: spec.volumeName, why: "Bound volume" }];
  if (kind === "PersistentVolume" && spec.claimRef?.name) return [{ kind: "PersistentVolumeClaim", namespace: spec.claimRef.namespace, name: spec.claimRef.name, why: "Bound claim" }];
  if (kind === "Endpoints") return [{ kind: "Service", namespace: obj.metadata.namespace, name: obj.metadata.name ?? "", why: "Service" }];
  if (kind === "Service") return [{ kind: "Endpoints", namespace: obj.metadata.namespace, name: obj.metadata.name ?? "", why: "Endpoints" }];
  return [];
}

/** The legacy token Secrets of a ServiceAccount: type service-account-token, annotated with its name (and uid, when set). */
export function tokenSecretsOf(serviceAccount: KubeObject, secrets: Iterable<KubeObject>): KubeObject[] {
  const out: KubeObject[] = [];
  for (const secret of secrets) {
    const a = secret.metadata?.annotations ?? {};
    if ((secret as Loose).type !== "kubernetes.io/service-account-token" || secret.metadata?.namespace !== serviceAccount.metadata?.namespace) continue;
    if (a["kubernetes.io/service-account.name"] !== serviceAccount.metadata?.name) continue;
    const uid = a["kubernetes.io/service-account.uid"];
    if (uid && serviceAccount.metadata?.uid && uid !== serviceAccount.metadata.uid) continue;
    out.push(secret);
  }
  return out.sort((a, b) => (a.metadata.name ?? "").localeCompare(b.metadata.name ?? ""));
}
