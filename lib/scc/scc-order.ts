// OpenShift's SCC order (sccsort.ByPriority): higher priority first; among equal priorities the most
// restrictive first, by a point score in which each weaker restriction outweighs every combination of the
// stronger ones; then by name.
import { listOf, stringOf, type JsonObject } from "../validation/zero-values";

const PRIVILEGED = 1_600_000;
const HOST_PORTS = 800_000;
const HOST_NETWORK = 400_000;
const HOST_VOLUME = 200_000;
const NON_TRIVIAL_VOLUME = 100_000;
/** Scored for both runAsUser.type and seLinuxContext.type (the names are shared). */
const STRATEGY_POINTS: Record<string, number> = { RunAsAny: 40_000, MustRunAsNonRoot: 30_000, MustRunAsRange: 20_000, MustRunAs: 10_000 };
const CAP_DEFAULT = 5000;
const CAP_ADD_ONE = 300;
const CAP_ALLOW_ALL = 4000;
const CAP_ALLOW_ONE = 10;
const CAP_DROP_ALL = -3000;
const CAP_DROP_ONE = -50;
const CAP_MAX = 9999;

/** Volume types that grant nothing beyond the pod's own data. */
const TRIVIAL_VOLUMES = new Set(["secret", "configMap", "emptyDir", "downwardAPI", "projected", "none"]);

function volumePoints(scc: JsonObject): number {
  let nonTrivial = false;
  for (const v of listOf(scc.volumes).map(stringOf)) {
    if (v === "hostPath" || v === "*") return HOST_VOLUME;
    if (!TRIVIAL_VOLUMES.has(v)) nonTrivial = true;
  }
  return nonTrivial ? NON_TRIVIAL_VOLUME : 0;
}

const hasCap = (name: string, caps: unknown) => listOf(caps).some((c) => stringOf(c).toUpperCase() === name);

function capabilityPoints(scc: JsonObject): number {
  let p = CAP_DEFAULT + CAP_ADD_ONE * listOf(scc.defaultAddCapabilities).length;
  if (hasCap("*", scc.allowedCapabilities) || hasCap("ALL", scc.allowedCapabilities)) p += CAP_ALLOW_ALL;
  else p += CAP_ALLOW_ONE * listOf(scc.allowedCapabilities).length;
  if (hasCap("ALL", scc.requiredDropCapabilities)) p += CAP_DROP_ALL;
  else p += CAP_DROP_ONE * listOf(scc.requiredDropCapabilities).length;
  return Math.min(CAP_MAX, Math.max(0, p));
}

/** How permissive an SCC is: the lower, the more restrictive. */
export function pointValue(scc: JsonObject): number {
  let p = 0;
  if (scc.allowPrivilegedContainer === true) p += PRIVILEGED;
  p += volumePoints(scc);
  if (scc.allowHostNetwork === true) p += HOST_NETWORK;
  if (scc.allowHostPorts === true) p += HOST_PORTS;
  p += capabilityPoints(scc);
  p += STRATEGY_POINTS[stringOf((scc.seLinuxContext as JsonObject | undefined)?.type)] ?? 0;
  p += STRATEGY_POINTS[stringOf((scc.runAsUser as JsonObject | undefined)?.type)] ?? 0;
  return p;
}

const priorityOf = (scc: JsonObject) => (typeof scc.priority === "number" ? scc.priority : 0);
const nameOf = (scc: JsonObject) => stringOf((scc.metadata as JsonObject | undefined)?.name);

/** Negative when `a` is tried before `b`. */
export function compareSCCs(a: JsonObject, b: JsonObject): number {
  const byPriority = priorityOf(b) - priorityOf(a);
  if (byPriority) return byPriority;
  const byPoints = pointValue(a) - pointValue(b);
  if (byPoints) return byPoints;
  const an = nameOf(a);
  const bn = nameOf(b);
  return an < bn ? -1 : an > bn ? 1 : 0;
}

/** A sorted copy, in the order admission tries them. */
export function sortSCCs<T extends JsonObject>(sccs: readonly T[]): T[] {
  return [...sccs].sort(compareSCCs);
}
