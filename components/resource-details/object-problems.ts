// What is wrong with an object, for the top of its page: its conditions that report trouble and its Warning
// Events, newest first. Conditions differ in polarity: for the usual "good" types (Ready, Available,
// PodScheduled...) anything but True is trouble; for any other type, a True condition is trouble when its type
// or reason says so (NamespaceDeletionContentFailure, a ...Pressure, FailedMount...).
import type { KubeObject } from "@/lib/kinds";
import { eventLastSeen } from "@/lib/client/event-time";

export interface Condition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

/** Condition types whose True is the healthy state (kube's pods, deployments, nodes, API services, CRDs...). */
const GOOD_WHEN_TRUE = new Set([
  "Ready",
  "ContainersReady",
  "Initialized",
  "PodScheduled",
  "PodReadyToStartContainers",
  "Available",
  "Established",
  "NamesAccepted",
  "Complete",
  "Bound",
  "Healthy",
]);

/** A type or reason that names a failure. */
const TROUBLE = /fail|error|invalid|unavailable|pressure|backoff|mismatch|lost|denied|forbidden|unschedulable|conflict|exceeded|notready|notfound/i;

export function isTroubleCondition(c: Condition): boolean {
  if (!c.type) return false;
  if (GOOD_WHEN_TRUE.has(c.type)) return c.status !== "True";
  return c.status === "True" && (TROUBLE.test(c.type) || TROUBLE.test(c.reason ?? ""));
}

export function troubleConditions(obj: KubeObject): Condition[] {
  const conditions = (obj.status as { conditions?: unknown } | undefined)?.conditions;
  return Array.isArray(conditions) ? (conditions as Condition[]).filter(isTroubleCondition) : [];
}

/** The object's Warning Events, newest first. */
export function warningEvents(events: Iterable<KubeObject>): KubeObject[] {
  return [...events].filter((e) => (e as { type?: string }).type === "Warning").sort((a, b) => (eventLastSeen(b) || 0) - (eventLastSeen(a) || 0));
}
