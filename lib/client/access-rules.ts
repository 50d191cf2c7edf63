// What the signed-in user may do, decided in the browser from the standard review APIs' answers, so the
// console can hide or disable actions before the server refuses them. The server stays the judge: a
// decision here only shapes buttons, and every write still goes through RBAC.
import type { AnyKind } from "../kinds";

/** `status.resourceRules[]` of a SelfSubjectRulesReview (authorization.k8s.io/v1). */
export interface ResourceRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
}

export interface RulesReviewStatus {
  resourceRules?: ResourceRule[];
  nonResourceRules?: { verbs: string[]; nonResourceURLs?: string[] }[];
  /** True when the server could not list every rule (e.g. a webhook authorizer): absence proves nothing. */
  incomplete?: boolean;
  evaluationError?: string;
}

export type Verb = "get" | "list" | "watch" | "create" | "update" | "patch" | "delete" | "deletecollection";

export interface AccessAttributes {
  verb: Verb;
  /** API group, "" for core. */
  group: string;
  /** Plural resource, e.g. `configmaps`. */
  resource: string;
  subresource?: string;
  /** Object name; absent for create, list and watch. */
  name?: string;
}

/** allowed / denied, or unknown when the answer cannot tell (incomplete rules, review unavailable). */
export type AccessDecision = "allowed" | "denied" | "unknown";

const has = (list: string[] | undefined, value: string) => !!list && (list.includes("*") || list.includes(value));

// kube's RBAC rule match: verbs, apiGroups and resources with `*` (and `*/<sub>` for a subresource), then resourceNames.
export function ruleAllows(rule: ResourceRule, attrs: AccessAttributes): boolean {
  if (!has(rule.verbs, attrs.verb)) return false;
  if (!has(rule.apiGroups, attrs.group)) return false;
  const combined = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  const resources = rule.resources ?? [];
  const resourceMatch = resources.some((r) => r === "*" || r === combined || (!!attrs.subresource && r === `*/${attrs.subresource}`));
  if (!resourceMatch) return false;
  const names = rule.resourceNames ?? [];
  // A name-restricted rule never covers a request without a name (create, list): kube matches names exactly.
  return names.length === 0 || (attrs.name !== undefined && names.includes(attrs.name));
}

export function decideFromRules(status: RulesReviewStatus | undefined, attrs: AccessAttributes): AccessDecision {
  if (!status) return "unknown";
  if ((status.resourceRules ?? []).some((rule) => ruleAllows(rule, attrs))) return "allowed";
  return status.incomplete ? "unknown" : "denied";
}

/**
 * The namespace a request about this object is authorized in: the object's namespace, none for
 * cluster-scoped kinds, and for a core Namespace its own name (kube's request info reads
 * `/api/v1/namespaces/<name>` as namespace `<name>`, so a RoleBinding there can grant get on it).
 */
export function authorizationNamespace(kind: AnyKind, namespace: string | undefined, name: string | undefined): string | undefined {
  if (!kind.group && kind.plural === "namespaces") return name || undefined;
  return kind.namespaced ? namespace || undefined : undefined;
}

export function accessAttributes(kind: AnyKind, verb: Verb, name?: string): AccessAttributes {
  return { verb, group: kind.group ?? "", resource: kind.plural, name };
}

// Every authenticated user may ask who they are and what they may do (system:basic-user); those rules say
// nothing about whether a namespace is theirs.
const selfReviewResources = new Set(["selfsubjectaccessreviews", "selfsubjectrulesreviews", "selfsubjectreviews"]);
const readVerbs = ["get", "list", "watch", "*"];

/** Whether the rules of a namespace let the user read anything in it (the namespace switcher's test). */
export function grantsAccessInNamespace(status: RulesReviewStatus | undefined): boolean {
  return (status?.resourceRules ?? []).some(
    (rule) => rule.verbs.some((v) => readVerbs.includes(v)) && (rule.resources ?? []).some((r) => !selfReviewResources.has(r)),
  );
}

/** Tooltip for an action the rules do not allow. */
export function deniedReason(kind: AnyKind, verb: Verb, namespace: string | undefined): string {
  const resource = kind.group ? `${kind.plural}.${kind.group}` : kind.plural;
  return `Your roles do not allow "${verb}" on ${resource}${namespace ? ` in namespace ${namespace}` : " (cluster-wide)"}.`;
}
