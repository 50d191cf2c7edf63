// How the bootstrap tables spell a PolicyRule. Each list is sorted, as kube's rule builder (RuleOrDie)
// stores it, so a table can be written in kube's words and still compare equal to what kube creates.
import type { PolicyRule } from "./rule-matching";

export const CORE = "";
export const READ = ["get", "list", "watch"];
export const READ_WRITE = ["get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"];
export const WRITE = ["create", "update", "patch", "delete", "deletecollection"];

const sorted = (values: readonly string[]) => [...values].sort();

export function rule(verbs: readonly string[], apiGroups: readonly string[], resources: readonly string[], resourceNames?: readonly string[]): PolicyRule {
  const out: PolicyRule = { apiGroups: sorted(apiGroups), resources: sorted(resources), verbs: sorted(verbs) };
  if (resourceNames?.length) out.resourceNames = sorted(resourceNames);
  return out;
}

export function urls(verbs: readonly string[], nonResourceURLs: readonly string[]): PolicyRule {
  return { nonResourceURLs: sorted(nonResourceURLs), verbs: sorted(verbs) };
}

/** kube's eventsRule(): every component that records events gets it, in both event groups. */
export function eventsRule(): PolicyRule {
  return rule(["create", "update", "patch"], [CORE, "events.k8s.io"], ["events"]);
}
