// Quota for Pods (kube's pod evaluator, 1.32): the pod counts and the compute a pod asks for (requests and
// limits of cpu, memory, ephemeral storage, hugepages, extended resources), with sidecar init containers and
// pod overhead summed as the scheduler sums them. Finished pods keep `count/pods` but no longer use compute.
import { computeQosClass, type Pod } from "../kinds/pod";
import type { Container } from "../kinds/shared/container";
import type { KubeObject } from "../kinds/types";
import { compareQuantities } from "../validation/quantity";
import { objectCountName, type Evaluator, type QuotaOperation, type ScopeRequirement } from "./evaluator";
import { add, addQuantities, count, fromResourceList, type QuantityList } from "./resource-list";

const COUNT = objectCountName("pods");
const RESOURCES = [
  COUNT, "cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory", "requests.ephemeral-storage",
  "limits.cpu", "limits.memory", "limits.ephemeral-storage", "pods",
];
const HUGEPAGES = "hugepages-";
const REQUESTS = "requests.";
/**
 * kube's backward-compatibility rule: a quota on cpu or memory makes every container declare it. Other
 * resources never became mandatory.
 */
const MUST_DECLARE = new Set(["cpu", "memory", "requests.cpu", "requests.memory", "limits.cpu", "limits.memory"]);

/** Names without a `/`, or under `kubernetes.io/`, belong to Kubernetes itself. */
const isNative = (name: string) => !name.includes("/") || name.includes("kubernetes.io/");
const QUALIFIED = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const isExtended = (name: string) => !isNative(name) && !name.startsWith(REQUESTS) && QUALIFIED.test(REQUESTS + name);
/** Extended resources can only be quota'd as `requests.<name>` (they cannot be overcommitted). */
const isExtendedForQuota = (name: string) => !isNative(name) && name.startsWith(REQUESTS);

const containersOf = (pod: Pod) => (pod.spec?.containers ?? []) as Container[];
const initContainersOf = (pod: Pod) => (pod.spec?.initContainers ?? []) as Container[];
const isSidecar = (c: Container) => (c as { restartPolicy?: string }).restartPolicy === "Always";

/** maxResourceList: the larger value per name, in place. */
function raiseTo(list: QuantityList, other: QuantityList): void {
  for (const [name, q] of Object.entries(other)) {
    if (!(name in list) || compareQuantities(q, list[name]) > 0) list[name] = q;
  }
}

/**
 * What the pod needs at most at any time (resourcehelper.PodRequests/PodLimits): the app containers and
 * sidecars run together; each regular init container runs alone beside the sidecars started before it.
 */
function podTotal(pod: Pod, pick: "requests" | "limits"): QuantityList {
  const of = (c: Container) => fromResourceList(c.resources?.[pick]);
  let total: QuantityList = {};
  for (const c of containersOf(pod)) total = add(total, of(c));
  let sidecars: QuantityList = {};
  const init: QuantityList = {};
  for (const c of initContainersOf(pod)) {
    let own = of(c);
    if (isSidecar(c)) {
      total = add(total, own);
      sidecars = add(sidecars, own);
      own = sidecars;
    } else {
      own = add(own, sidecars);
    }
    raiseTo(init, own);
  }
  raiseTo(total, init);
  const overhead = fromResourceList((pod.spec as { overhead?: Record<string, string> } | undefined)?.overhead);
  if (pick === "requests") return add(total, overhead);
  // Overhead only raises limits the pod set; an unlimited resource stays unlimited.
  for (const name of Object.keys(overhead)) if (name in total) total[name] = addQuantities(total[name], overhead[name]);
  return total;
}

/** podComputeUsageHelper: requests and limits as quota names. */
function computeUsage(requests: QuantityList, limits: QuantityList): QuantityList {
  const out: QuantityList = { pods: count(1) };
  for (const r of ["cpu", "memory", "ephemeral-storage"]) {
    if (r in requests) { out[r] = requests[r]; out[REQUESTS + r] = requests[r]; }
    if (r in limits) out[`limits.${r}`] = limits[r];
  }
  for (const [name, q] of Object.entries(requests)) {
    if (name.startsWith(HUGEPAGES)) { out[name] = q; out[REQUESTS + name] = q; }
    if (isExtended(name)) out[REQUESTS + name] = q;
  }
  return out;
}

/**
 * Whether a pod still uses compute: not when finished, nor when its deletion is overdue (a lost node must not
 * keep a namespace from starting replacements).
 */
export function podUsesCompute(pod: Pod, now: number): boolean {
  const phase = pod.status?.phase;
  if (phase === "Succeeded" || phase === "Failed") return false;
  const { deletionTimestamp, deletionGracePeriodSeconds } = pod.metadata;
  if (deletionTimestamp && deletionGracePeriodSeconds !== undefined && deletionGracePeriodSeconds !== null) {
    if (now > Date.parse(deletionTimestamp) + deletionGracePeriodSeconds * 1000) return false;
  }
  return true;
}

const isTerminating = (pod: Pod) => typeof pod.spec?.activeDeadlineSeconds === "number" && pod.spec.activeDeadlineSeconds >= 0;
const isBestEffort = (pod: Pod) => (pod.status?.qosClass || computeQosClass(pod)) === "BestEffort";

function usesCrossNamespaceAffinity(pod: Pod): boolean {
  const affinity = pod.spec?.affinity as Record<string, Record<string, unknown[]> | undefined> | undefined;
  const crosses = (term: unknown) => {
    const t = (term ?? {}) as { namespaces?: string[]; namespaceSelector?: unknown };
    return (t.namespaces?.length ?? 0) > 0 || (t.namespaceSelector !== undefined && t.namespaceSelector !== null);
  };
  return ["podAffinity", "podAntiAffinity"].some((k) => {
    const rules = affinity?.[k];
    return !!rules && ((rules.requiredDuringSchedulingIgnoredDuringExecution ?? []).some(crosses)
      || (rules.preferredDuringSchedulingIgnoredDuringExecution ?? []).some((w) => crosses((w as { podAffinityTerm?: unknown }).podAffinityTerm)));
  });
}

/** The PriorityClass scope as a label selector over one label, `PriorityClass=<the pod's class>`. */
function matchesPriorityClass(pod: Pod, r: ScopeRequirement): boolean {
  const cls = pod.spec?.priorityClassName ?? "";
  const present = cls !== "";
  switch (r.operator) {
    case "Exists": return present;
    case "DoesNotExist": return !present;
    case "In": return present && (r.values ?? []).includes(cls);
    case "NotIn": return !present || !(r.values ?? []).includes(cls);
    default: return false;
  }
}

export class PodEvaluator implements Evaluator {
  readonly groupResource = "pods";

  /** Pod resources cannot change after creation (in-place resize is off by default in 1.32). */
  handles(operation: QuotaOperation): boolean {
    return operation === "CREATE";
  }

  matchingResources(names: string[]): string[] {
    return [...new Set(names.filter((n) => RESOURCES.includes(n) || n.startsWith(HUGEPAGES)
      || n.startsWith(REQUESTS + HUGEPAGES) || isExtendedForQuota(n)))].sort();
  }

  matchesScope(r: ScopeRequirement, obj: KubeObject): boolean {
    const pod = obj as Pod;
    switch (r.scopeName) {
      case "Terminating": return isTerminating(pod);
      case "NotTerminating": return !isTerminating(pod);
      case "BestEffort": return isBestEffort(pod);
      case "NotBestEffort": return !isBestEffort(pod);
      case "PriorityClass": return matchesPriorityClass(pod, r);
      case "CrossNamespacePodAffinity": return usesCrossNamespaceAffinity(pod);
      default: return false;
    }
  }

  /** `count/pods` for every stored pod; `pods` and compute only while it runs or may run. */
  usage(obj: KubeObject, now: number): QuantityList {
    const pod = obj as Pod;
    const out: QuantityList = { [COUNT]: count(1) };
    if (!podUsesCompute(pod, now)) return out;
    return add(out, computeUsage(podTotal(pod, "requests"), podTotal(pod, "limits")));
  }

  constraints(required: string[], obj: KubeObject): string | undefined {
    const pod = obj as Pod;
    const needed = required.filter((r) => MUST_DECLARE.has(r));
    if (needed.length === 0) return undefined;
    const missing = new Map<string, Set<string>>();
    for (const c of [...containersOf(pod), ...initContainersOf(pod)]) {
      const has = computeUsage(fromResourceList(c.resources?.requests), fromResourceList(c.resources?.limits));
      for (const r of needed) {
        if (r in has) continue;
        if (!missing.has(r)) missing.set(r, new Set());
        missing.get(r)!.add(c.name);
      }
    }
    if (missing.size === 0) return undefined;
    const parts = [...missing.keys()].sort().map((r) => `${r} for: ${[...missing.get(r)!].sort().join(",")}`);
    return `must specify ${parts.join("; ")}`;
  }
}
