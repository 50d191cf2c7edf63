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

/** Everything a pod refers to by name in its own namespace (volumes, env, envFrom, pull secrets). */
export function podReferences(pod: KubeObject): PodReferences {
  const spec = (pod.spec ?? {}) as Loose;
  const refs: PodReferences = { secrets: new Set(), configMaps: new Set(), claims: new Set(), serviceAccount: spec.serviceAccountName || spec.serviceAccount || "default" };
  const add = (set: Set<string>, name: unknown) => {
    if (typeof name === "string" && name) set.add(name);
  };
  for (const volume of (spec.volumes ?? []) as Loose[]) {
    add(refs.secrets, volume.secret?.secretName);
    add(refs.configMaps, volume.configMap?.name);
    add(refs.claims, volume.persistentVolumeClaim?.claimName);
    for (const source of (volume.projected?.sources ?? []) as Loose[]) {
      add(refs.secrets, source.secret?.name);
      add(refs.configMaps, source.configMap?.name);
    }
  }
  for (const container of [...((spec.initContainers ?? []) as Loose[]), ...((spec.containers ?? []) as Loose[]), ...((spec.ephemeralContainers ?? []) as Loose[])]) {
    for (const env of (container.env ?? []) as Loose[]) {
      add(refs.secrets, env.valueFrom?.secretKeyRef?.name);
      add(refs.configMaps, env.valueFrom?.configMapKeyRef?.name);
    }
    for (const from of (container.envFrom ?? []) as Loose[]) {
      add(refs.secrets, from.secretRef?.name);
      add(refs.configMaps, from.configMapRef?.name);
    }
  }
  for (const pull of (spec.imagePullSecrets ?? []) as Loose[]) add(refs.secrets, pull.name);
  return refs;
}

/** Whether a Service's selector picks this pod (a Service without a selector selects nothing by itself). */
function selects(service: KubeObject, pod: KubeObject): boolean {
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
