// kube's RBAC escalation prevention (component-helpers rbac/validation Covers, pkg/registry/rbac/validation
// ConfirmNoEscalation and CompactRules, and the policy-based role/binding storage that calls them): a user
// may only write a role, or bind one, whose permissions they already hold, unless they are system:masters
// or hold `escalate` (roles) / `bind` (bindings).
import { MASTERS_GROUP, type UserInfo } from "../auth/user-info";
import type { Decision, ResourceAttributes } from "./attributes";
import { aggregateMessage, goQuote, goQuoteList } from "./go-format";
import { StatusError } from "../status";
import { newForbidden } from "./forbidden-message";
import { RBAC_GROUP, type RoleRef } from "./rbac-objects";
import type { RuleResolutionError } from "./rbac-authorizer";
import { trimTrailingStars, type PolicyRule } from "./rule-matching";

/** Splits a rule into rules of one verb, one group, one resource and at most one name (or one URL). */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs) {
        if (rule.resourceNames?.length) {
          for (const name of rule.resourceNames) {
            out.push({ verbs: [verb], apiGroups: [group], resources: [resource], resourceNames: [name] });
          }
        } else {
          out.push({ verbs: [verb], apiGroups: [group], resources: [resource] });
        }
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) {
    for (const verb of rule.verbs) out.push({ verbs: [verb], nonResourceURLs: [url] });
  }
  return out;
}

function hasAll(set: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  if (!wanted || wanted.length === 0) return true;
  if (!set) return false;
  for (const w of wanted) if (!set.includes(w)) return false;
  return true;
}

function resourceCoversAll(owner: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  if (owner?.includes("*") || hasAll(owner, wanted)) return true;
  for (const path of wanted ?? []) {
    if (owner?.includes(path)) continue;
    const slash = path.indexOf("/");
    if (slash < 0) return false;
    if (!owner?.includes("*/" + path.slice(slash + 1))) return false;
  }
  return true;
}

function nonResourceURLCovers(ownerPath: string, subPath: string): boolean {
  if (ownerPath === subPath) return true;
  return ownerPath.endsWith("*") && subPath.startsWith(trimTrailingStars(ownerPath));
}

/** Whether `owner` covers `sub`, a rule already broken down by breakdownRule. */
export function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = owner.verbs.includes("*") || hasAll(owner.verbs, sub.verbs);
  const groups = owner.apiGroups?.includes("*") || hasAll(owner.apiGroups, sub.apiGroups);
  const resources = resourceCoversAll(owner.resources, sub.resources);
  const urls = (sub.nonResourceURLs ?? []).every((p) => (owner.nonResourceURLs ?? []).some((o) => nonResourceURLCovers(o, p)));
  const ownerNames = owner.resourceNames ?? [];
  const names = sub.resourceNames?.length ? ownerNames.length === 0 || hasAll(ownerNames, sub.resourceNames) : ownerNames.length === 0;
  return verbs && !!groups && resources && urls && names;
}

/**
 * The parts of `requestedRules` that `userRules` do not cover, broken down to single verb/group/
 * resource/name (or verb/URL) rules; empty when the user may grant them. Note that kube's breakdown
 * yields nothing for a rule with resources but no apiGroups, so such a rule never counts as missing.
 */
export function confirmNoEscalation(userRules: readonly PolicyRule[], requestedRules: readonly PolicyRule[]): PolicyRule[] {
  const missing: PolicyRule[] = [];
  for (const requested of requestedRules) {
    for (const sub of breakdownRule(requested)) {
      if (!userRules.some((owner) => ruleCovers(owner, sub))) missing.push(sub);
    }
  }
  return missing;
}

/** Merges rules of one group, one resource and at most one name that differ only by verb (CompactRules). */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const compacted: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const isSimple =
      (rule.resourceNames?.length ?? 0) <= 1 &&
      !rule.nonResourceURLs?.length &&
      rule.apiGroups?.length === 1 &&
      rule.resources?.length === 1;
    if (!isSimple) {
      compacted.push(rule);
      continue;
    }
    const key = JSON.stringify([rule.apiGroups![0], rule.resources![0], rule.resourceNames?.[0] ?? null]);
    const existing = simple.get(key);
    if (existing) {
      for (const v of rule.verbs) if (!existing.verbs.includes(v)) existing.verbs.push(v);
    } else {
      simple.set(key, {
        ...rule,
        verbs: [...rule.verbs],
        apiGroups: [...rule.apiGroups!],
        resources: [...rule.resources!],
        ...(rule.resourceNames?.length ? { resourceNames: [...rule.resourceNames] } : {}),
      });
    }
  }
  return [...compacted, ...simple.values()];
}

/** rbac CompactString: `{APIGroups:[""], Resources:["pods"], Verbs:["get"]}`. */
export function compactString(rule: PolicyRule): string {
  const parts: string[] = [];
  if (rule.apiGroups?.length) parts.push(`APIGroups:${goQuoteList(rule.apiGroups)}`);
  if (rule.resources?.length) parts.push(`Resources:${goQuoteList(rule.resources)}`);
  if (rule.nonResourceURLs?.length) parts.push(`NonResourceURLs:${goQuoteList(rule.nonResourceURLs)}`);
  if (rule.resourceNames?.length) parts.push(`ResourceNames:${goQuoteList(rule.resourceNames)}`);
  if (rule.verbs.length) parts.push(`Verbs:${goQuoteList(rule.verbs)}`);
  return "{" + parts.join(", ") + "}";
}

/**
 * kube's escalation error text for the rules confirmNoEscalation found missing. `namespace` is not part
 * of kube's text; it is accepted so callers pass the same context they resolved rules in.
 * `ruleResolutionErrors` are the registry-worded messages of bindings whose roles were missing.
 */
export function escalationMessage(
  user: UserInfo,
  _namespace: string,
  missing: readonly PolicyRule[],
  ruleResolutionErrors: readonly string[] = [],
): string {
  const descriptions = [...new Set(compactRules(missing).map(compactString))].sort();
  let msg =
    `user ${goQuote(user.username)} (groups=${goQuoteList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n` +
    descriptions.join("\n");
  // kube prints a one-element []error holding the resolver's aggregate error.
  if (ruleResolutionErrors.length) msg += `; resolution errors: [${aggregateMessage(ruleResolutionErrors)}]`;
  return msg;
}

// ---- The checks kube's RBAC REST storage runs before writing a role or binding. ----

/** What the checks need from the authorizer; RbacAuthorizer provides it. */
export interface EscalationResolver {
  authorize(attrs: ResourceAttributes): Decision;
  policyRulesFor(user: UserInfo, namespace: string): { rules: PolicyRule[]; errors: RuleResolutionError[] };
  roleRefRules(roleRef: RoleRef, namespace: string): { rules: PolicyRule[]; error?: undefined } | { rules?: undefined; error: RuleResolutionError };
}

/** How a refused write is answered: 403 Forbidden, or 404/400 when the role ref cannot be resolved. */
export type EscalationRejection = StatusError;

const FULL_AUTHORITY: PolicyRule[] = [
  { verbs: ["*"], apiGroups: ["*"], resources: ["*"] },
  { verbs: ["*"], nonResourceURLs: ["*"] },
];

function forbidden(resource: string, name: string, text: string): EscalationRejection {
  return newForbidden(RBAC_GROUP, resource, name, text);
}

function missingRulesRejection(
  resolver: EscalationResolver,
  user: UserInfo,
  namespace: string,
  resource: string,
  name: string,
  rules: readonly PolicyRule[],
): EscalationRejection | undefined {
  const own = resolver.policyRulesFor(user, namespace);
  const missing = confirmNoEscalation(own.rules, rules);
  if (missing.length === 0) return undefined;
  const errors = own.errors.map((e) => e.registryMessage);
  return forbidden(resource, name, escalationMessage(user, namespace, missing, errors));
}

/**
 * Create or update of a Role ("roles") or ClusterRole ("clusterroles"). `namespace` is the request's
 * ("" for ClusterRoles); `hasAggregationRule` is true when the new or (on update) the old ClusterRole has
 * an aggregationRule with at least one selector. Returns undefined when the write may go ahead.
 * Skip the call on an update that only changes ownerReferences/finalizers (see onlyGCFieldsChanged).
 */
export function checkRoleWrite(
  resolver: EscalationResolver,
  req: {
    user: UserInfo;
    resource: "roles" | "clusterroles";
    namespace: string;
    name: string;
    rules: readonly PolicyRule[];
    hasAggregationRule?: boolean;
  },
): EscalationRejection | undefined {
  if (req.user.groups.includes(MASTERS_GROUP)) return undefined;
  const escalate = resolver.authorize({
    type: "resource",
    user: req.user,
    verb: "escalate",
    apiGroup: RBAC_GROUP,
    resource: req.resource,
    subresource: "",
    namespace: req.namespace,
    name: req.name,
  });
  if (escalate.allowed) return undefined;
  const rejection = missingRulesRejection(resolver, req.user, req.namespace, req.resource, req.name, req.rules);
  if (rejection) return rejection;
  if (req.resource === "clusterroles" && req.hasAggregationRule) {
    if (confirmNoEscalation(resolver.policyRulesFor(req.user, req.namespace).rules, FULL_AUTHORITY).length) {
      return forbidden(req.resource, req.name, "must have cluster-admin privileges to use the aggregationRule");
    }
  }
  return undefined;
}

/**
 * Create or update of a RoleBinding ("rolebindings", `namespace` = the binding's) or ClusterRoleBinding
 * ("clusterrolebindings", `namespace` = ""). Allowed for system:masters, for holders of `bind` on the
 * referenced role, or when the user already holds every rule of that role. A missing role is kube's
 * 404 NotFound (registry wording).
 */
export function checkBindingWrite(
  resolver: EscalationResolver,
  req: { user: UserInfo; resource: "rolebindings" | "clusterrolebindings"; namespace: string; name: string; roleRef: RoleRef },
): EscalationRejection | undefined {
  if (req.user.groups.includes(MASTERS_GROUP)) return undefined;
  const roleResource = req.roleRef.kind === "ClusterRole" ? "clusterroles" : req.roleRef.kind === "Role" ? "roles" : "";
  if (roleResource) {
    const bind = resolver.authorize({
      type: "resource",
      user: req.user,
      verb: "bind",
      apiGroup: req.roleRef.apiGroup,
      resource: roleResource,
      subresource: "",
      namespace: req.namespace,
      name: req.roleRef.name,
    });
    if (bind.allowed) return undefined;
  }
  const resolved = resolver.roleRefRules(req.roleRef, req.namespace);
  if (resolved.error) {
    const nf = resolved.error.notFound;
    if (nf) {
      return new StatusError(404, "NotFound", resolved.error.registryMessage, { name: nf.name, group: RBAC_GROUP, kind: nf.resource });
    }
    // kube answers 500 here (the check runs before validation); a client's mistake is a 4xx for us.
    return new StatusError(400, "BadRequest", resolved.error.registryMessage, {});
  }
  return missingRulesRejection(resolver, req.user, req.namespace, req.resource, req.name, resolved.rules);
}

// Go zero values and absent JSON fields are the same thing to kube's semantic equality.
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.length ? v.map(canonical) : undefined;
  if (v && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const c = canonical((v as Record<string, unknown>)[k]);
      if (c !== undefined) out[k] = c;
    }
    return Object.keys(out).length ? out : undefined;
  }
  if (v === null || v === "" || v === false || v === 0) return undefined;
  return v;
}

/** kube's IsOnlyMutatingGCFields: the update changes nothing but ownerReferences, finalizers, selfLink or managedFields. */
export function onlyGCFieldsChanged(newObj: unknown, oldObj: unknown): boolean {
  if (!oldObj || !newObj) return false;
  const n = structuredClone(newObj) as { metadata?: Record<string, unknown> };
  const o = oldObj as { metadata?: Record<string, unknown> };
  n.metadata = { ...(n.metadata ?? {}) };
  for (const f of ["ownerReferences", "finalizers", "selfLink", "managedFields"]) {
    if (o.metadata && f in o.metadata) n.metadata[f] = o.metadata[f];
    else delete n.metadata[f];
  }
  return JSON.stringify(canonical(n)) === JSON.stringify(canonical(oldObj));
}
