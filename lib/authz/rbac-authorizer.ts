// kube's RBAC authorizer (plugin/pkg/auth/authorizer/rbac + the default rule resolver), answering from an
// index that RBAC watch events keep current: subject -> bindings, role -> rules. A decision looks up the
// user's name and groups, takes the bindings found (ClusterRoleBindings, then RoleBindings of the request's
// namespace, each by name), and matches their roles' rules. The flattened list is cached per
// (namespace, user, groups) and the whole cache is dropped on any RBAC change, so a deleted binding
// revokes at once.
import { MASTERS_GROUP, type UserInfo } from "../auth/user-info";
import type { Attributes, Authorizer, Decision, ResourceAttributes } from "./attributes";
import { aggregate } from "./cluster-role-aggregation";
import { aggregateMessage, goQuote } from "./go-format";
import {
  RBAC_GROUP,
  readRoleRef,
  readRules,
  readSubjects,
  type ClusterRole,
  type RoleRef,
  type Subject,
} from "./rbac-objects";
import { ruleAllows, type PolicyRule } from "./rule-matching";

export interface RbacEventKey {
  resource: string;
  namespace: string;
  name: string;
}

export interface RbacEvent {
  type: "ADDED" | "MODIFIED" | "DELETED" | string;
  key: RbacEventKey;
  /** The rbac/v1 object as stored; ignored for DELETED. */
  object: unknown;
}

/** Why a binding's rules could not be read. Two wordings, because kube has two readers of roles. */
export interface RuleResolutionError {
  /** The authorizer's (informer lister) wording, e.g. `clusterrole.rbac.authorization.k8s.io "x" not found`. */
  message: string;
  /** The RBAC REST storage's (registry) wording, e.g. `clusterroles.rbac.authorization.k8s.io "x" not found`. */
  registryMessage: string;
  /** Set when the role does not exist: the registry answers 404 with this resource and name. */
  notFound?: { resource: "roles" | "clusterroles"; name: string };
}

export interface ResourceRuleInfo {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
}

export interface NonResourceRuleInfo {
  verbs: string[];
  nonResourceURLs: string[];
}

export interface SubjectRules {
  resourceRules: ResourceRuleInfo[];
  nonResourceRules: NonResourceRuleInfo[];
  incomplete: boolean;
  /** SelfSubjectRulesReview status.evaluationError; absent when every binding resolved. */
  evaluationError?: string;
}

interface Binding {
  kind: "ClusterRoleBinding" | "RoleBinding";
  name: string;
  namespace: string;
  roleRef: RoleRef;
  subjects: Subject[];
  subjectKeys: string[];
}

interface Grant {
  rules: readonly PolicyRule[];
  error?: RuleResolutionError;
  /** The binding and the subject of it that names the user: what the Decision reason says when one of the rules allows. */
  binding?: Binding;
  subject?: Subject;
  /** The reason, made the first time one of these rules allows (most grants a user has never allow a given request). */
  reason?: string;
}

function reasonOf(grant: Grant): string {
  return (grant.reason ??= `RBAC: allowed by ${describeBinding(grant.binding!, grant.subject!)}`);
}

const RBAC_RESOURCES = new Set(["roles", "clusterroles", "rolebindings", "clusterrolebindings"]);
const SA_PREFIX = "system:serviceaccount:";
const CACHE_LIMIT = 4096;

function userKey(name: string): string {
  return "u\0" + name;
}
function groupKey(name: string): string {
  return "g\0" + name;
}

/** Index keys a subject answers to; a ServiceAccount is indexed under its user name. */
function subjectKey(s: Subject, bindingNamespace: string): string | undefined {
  switch (s.kind) {
    case "User":
      return userKey(s.name);
    case "Group":
      return groupKey(s.name);
    case "ServiceAccount": {
      const ns = s.namespace || bindingNamespace;
      return ns ? userKey(`${SA_PREFIX}${ns}:${s.name}`) : undefined;
    }
    default:
      return undefined;
  }
}

function appliesToUser(user: UserInfo, s: Subject, namespace: string): boolean {
  switch (s.kind) {
    case "User":
      return user.username === s.name;
    case "Group":
      return user.groups.includes(s.name);
    case "ServiceAccount": {
      const ns = s.namespace || namespace;
      return ns !== "" && user.username === `${SA_PREFIX}${ns}:${s.name}`;
    }
    default:
      return false;
  }
}

function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === "ServiceAccount") return `${s.kind} ${goQuote(`${s.name}/${s.namespace || bindingNamespace}`)}`;
  return `${s.kind} ${goQuote(s.name)}`;
}

function describeBinding(b: Binding, s: Subject): string {
  const name = b.kind === "RoleBinding" ? `${b.name}/${b.namespace}` : b.name;
  return `${b.kind} ${goQuote(name)} of ${b.roleRef.kind} ${goQuote(b.roleRef.name)} to ${describeSubject(s, b.namespace)}`;
}

function byName(a: Binding, b: Binding): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function addToIndex(index: Map<string, Set<string>>, key: string, id: string): void {
  let set = index.get(key);
  if (!set) index.set(key, (set = new Set()));
  set.add(id);
}

function removeFromIndex(index: Map<string, Set<string>> | undefined, key: string, id: string): void {
  const set = index?.get(key);
  if (!set) return;
  set.delete(id);
  if (set.size === 0) index!.delete(key);
}

const DECISION_CACHE_MAX = 50_000;

/**
 * Who, as far as RBAC reads a user: the name and the groups (nothing else of a user changes a decision). Each
 * part is prefixed by its length, so no name or group (a SubjectAccessReview may name any) spells another
 * user's key: with a separator, user `x` in group `g` and a user named `x<separator>g` would share one.
 */
function whoKey(user: UserInfo): string {
  let key = `${user.username.length}:${user.username}`;
  for (const g of user.groups) key += `${g.length}:${g}`;
  return key;
}

/**
 * One user's decisions: resource requests by namespace, then name, then the rest (verb, group, resource,
 * subresource), so a lookup hashes the request's short strings instead of one long key made per request;
 * non-resource requests by verb and path.
 */
/** The object names of the rules with resourceNames that deciding read (undefined: none). */
interface NameUse { read: Set<string> | undefined }

/** A decision that holds for every name but those the rules it read name (which are decided one by one). */
interface AnyNameDecision { decision: Decision; except: Set<string> | undefined }

class UserDecisions {
  /** Decisions that hold for every name in the namespace but the ones rules read on the way name: by namespace, rest. */
  private anyName = new Map<string, Map<string, AnyNameDecision>>();
  private resource = new Map<string, Map<string, Map<string, Decision>>>();
  private nonResource = new Map<string, Map<string, Decision>>();

  get(a: Attributes): Decision | undefined {
    if (a.type !== "resource") return this.nonResource.get(a.verb)?.get(a.path);
    const rest = restKey(a);
    const any = this.anyName.get(a.namespace)?.get(rest);
    if (any && !any.except?.has(a.name)) return any.decision;
    return this.resource.get(a.namespace)?.get(a.name)?.get(rest);
  }

  set(a: Attributes, decision: Decision, named: NameUse): void {
    if (a.type !== "resource") {
      let byPath = this.nonResource.get(a.verb);
      if (!byPath) this.nonResource.set(a.verb, (byPath = new Map()));
      byPath.set(a.path, decision);
      return;
    }
    // Named by no rule read on the way: every other name so named takes the same way, to the same answer.
    if (!named.read?.has(a.name)) {
      let byRest = this.anyName.get(a.namespace);
      if (!byRest) this.anyName.set(a.namespace, (byRest = new Map()));
      byRest.set(restKey(a), { decision, except: named.read });
      return;
    }
    let byName = this.resource.get(a.namespace);
    if (!byName) this.resource.set(a.namespace, (byName = new Map()));
    let rest = byName.get(a.name);
    if (!rest) byName.set(a.name, (rest = new Map()));
    rest.set(restKey(a), decision);
  }
}

/**
 * Verb, group, resource and subresource joined by NUL. Two requests share a key only if a field of each holds a
 * NUL, and no served group, resource or subresource does: a request that reaches an object never shares one.
 */
function restKey(a: ResourceAttributes): string {
  return `${a.verb}\u0000${a.apiGroup}\u0000${a.resource}\u0000${a.subresource}`;
}

/**
 * A user object that cannot change: the token cache hands the same frozen one to every request with the same
 * token, so its decisions can be found by identity, without spelling out its name and groups per request.
 */
function immutable(user: UserInfo): boolean {
  return Object.isFrozen(user) && Object.isFrozen(user.groups);
}

export class RbacAuthorizer implements Authorizer {
  private roles = new Map<string, PolicyRule[]>(); // "<ns>/<name>"
  private clusterRoles = new Map<string, ClusterRole>();
  private clusterRoleRules = new Map<string, PolicyRule[]>();
  private aggregatedNames = new Set<string>();
  private clusterBindings = new Map<string, Binding>(); // name
  private clusterBindingIndex = new Map<string, Set<string>>(); // subject key -> names
  private roleBindings = new Map<string, Binding>(); // "<ns>/<name>"
  private roleBindingIndex = new Map<string, Map<string, Set<string>>>(); // ns -> subject key -> ids
  private cache = new Map<string, Grant[]>();
  /**
   * Whole decisions by user and request, so a repeated request is two map lookups: per user object when it is
   * frozen (identity), else per name and groups. Emptied by every RBAC change, and when it holds
   * DECISION_CACHE_MAX decisions.
   */
  private decisionsByUser = new WeakMap<UserInfo, UserDecisions>();
  private decisionsByWho = new Map<string, UserDecisions>();
  private decisionCount = 0;
  private loading = false;

  /** Replaces everything the index holds with these objects (the initial list). */
  load(objects: Iterable<{ key: RbacEventKey; object: unknown }>): void {
    this.roles.clear();
    this.clusterRoles.clear();
    this.clusterRoleRules.clear();
    this.aggregatedNames.clear();
    this.clusterBindings.clear();
    this.clusterBindingIndex.clear();
    this.roleBindings.clear();
    this.roleBindingIndex.clear();
    this.loading = true;
    try {
      for (const { key, object } of objects) this.apply({ type: "ADDED", key, object });
    } finally {
      this.loading = false;
    }
    this.recomputeClusterRoleRules();
    this.cache.clear();
    this.clearDecisions();
  }

  /** Folds one watch event in. Events for other resources return at once. */
  apply(event: RbacEvent): void {
    const { key } = event;
    if (!key || !RBAC_RESOURCES.has(key.resource)) return;
    const deleted = event.type === "DELETED";
    if (!deleted && event.type !== "ADDED" && event.type !== "MODIFIED") return;
    const obj = event.object;
    const meta = (obj as { metadata?: { name?: string; namespace?: string } } | null)?.metadata;
    const namespace = key.namespace || meta?.namespace || "";
    const name = key.name || meta?.name || "";
    switch (key.resource) {
      case "roles":
        if (deleted) this.roles.delete(`${namespace}/${name}`);
        else this.roles.set(`${namespace}/${name}`, readRules(obj));
        break;
      case "clusterroles":
        this.applyClusterRole(name, deleted ? undefined : (obj as ClusterRole));
        break;
      case "clusterrolebindings":
        this.removeClusterBinding(name);
        if (!deleted) this.addClusterBinding(name, obj);
        break;
      case "rolebindings":
        this.removeRoleBinding(namespace, name);
        if (!deleted) this.addRoleBinding(namespace, name, obj);
        break;
    }
    this.cache.clear();
    this.clearDecisions();
  }

  authorize(attrs: Attributes): Decision {
    // kube's privileged-group authorizer runs before RBAC and allows with an empty reason.
    const user = attrs.user;
    if (user.groups.includes(MASTERS_GROUP)) return { allowed: true, reason: "" };
    const frozen = immutable(user);
    const who = frozen ? undefined : whoKey(user);
    let mine = frozen ? this.decisionsByUser.get(user) : this.decisionsByWho.get(who!);
    const known = mine?.get(attrs);
    if (known) return known;
    const named: NameUse = { read: undefined };
    const decision = this.decide(attrs, named);
    if (this.decisionCount >= DECISION_CACHE_MAX) {
      this.clearDecisions();
      mine = undefined;
    }
    if (!mine) {
      mine = new UserDecisions();
      if (frozen) this.decisionsByUser.set(user, mine);
      else this.decisionsByWho.set(who!, mine);
    }
    mine.set(attrs, decision, named);
    this.decisionCount++;
    return decision;
  }

  private clearDecisions(): void {
    if (this.decisionCount === 0) return;
    this.decisionsByUser = new WeakMap();
    this.decisionsByWho.clear();
    this.decisionCount = 0;
  }

  /**
   * RBAC's answer, visiting the grants in order; `named.read` collects the names of the rules with resourceNames
   * read before the answer was found: only those names can take another way through the rules (to another
   * answer or another reason), every other name takes this one.
   */
  private decide(attrs: Attributes, named: NameUse = { read: undefined }): Decision {
    const namespace = attrs.type === "resource" ? attrs.namespace : "";
    const errors: string[] = [];
    for (const grant of this.grantsFor(attrs.user, namespace)) {
      if (grant.error) {
        errors.push(grant.error.message);
        continue;
      }
      for (const rule of grant.rules) {
        if (rule.resourceNames?.length) for (const n of rule.resourceNames) (named.read ??= new Set()).add(n);
        if (ruleAllows(attrs, rule)) return { allowed: true, reason: reasonOf(grant) };
      }
    }
    return { allowed: false, reason: errors.length ? `RBAC: ${aggregateMessage(errors)}` : "" };
  }

  /**
   * Every rule granted to the user in the namespace ("" = cluster bindings only), in visiting order,
   * and the bindings whose roles could not be read. The basis of escalation checks.
   */
  policyRulesFor(user: UserInfo, namespace: string): { rules: PolicyRule[]; errors: RuleResolutionError[] } {
    const rules: PolicyRule[] = [];
    const errors: RuleResolutionError[] = [];
    for (const grant of this.grantsFor(user, namespace)) {
      if (grant.error) errors.push(grant.error);
      else rules.push(...grant.rules);
    }
    return { rules, errors };
  }

  /** What a SelfSubjectRulesReview answers (RBAC's RuleResolver). */
  rulesFor(user: UserInfo, namespace: string): SubjectRules {
    const { rules, errors } = this.policyRulesFor(user, namespace);
    const resourceRules: ResourceRuleInfo[] = [];
    const nonResourceRules: NonResourceRuleInfo[] = [];
    for (const r of rules) {
      if (r.resources?.length) {
        const info: ResourceRuleInfo = { verbs: [...r.verbs] };
        if (r.apiGroups?.length) info.apiGroups = [...r.apiGroups];
        info.resources = [...r.resources];
        if (r.resourceNames?.length) info.resourceNames = [...r.resourceNames];
        resourceRules.push(info);
      }
      if (r.nonResourceURLs?.length) nonResourceRules.push({ verbs: [...r.verbs], nonResourceURLs: [...r.nonResourceURLs] });
    }
    const result: SubjectRules = { resourceRules, nonResourceRules, incomplete: false };
    if (errors.length) result.evaluationError = aggregateMessage(errors.map((e) => e.message));
    return result;
  }

  /**
   * The namespaces where a RoleBinding names `user` (by name, one of its groups, or as its ServiceAccount) and
   * its role grants at least one resource rule: where a user bound only inside namespaces may look. kube has
   * no such API (OpenShift's projects list is its nearest: the namespaces a user may get); a user cannot find
   * these by listing, as they may list neither namespaces nor RoleBindings cluster-wide. Sorted by name.
   */
  namespacesWithRules(user: UserInfo): string[] {
    const keys = [userKey(user.username), ...user.groups.map(groupKey)];
    const out: string[] = [];
    for (const [namespace, index] of this.roleBindingIndex) {
      const grants = keys.some((k) =>
        [...(index.get(k) ?? [])].some((id) => {
          const b = this.roleBindings.get(id);
          if (!b || !b.subjects.some((s) => appliesToUser(user, s, namespace))) return false;
          return !!this.roleRefRules(b.roleRef, namespace).rules?.some((r) => r.resources?.length);
        }),
      );
      if (grants) out.push(namespace);
    }
    return out.sort();
  }

  /** The rules a roleRef names, as a binding in `namespace` ("" for a ClusterRoleBinding) would get them. */
  roleRefRules(roleRef: RoleRef, namespace: string): { rules: PolicyRule[]; error?: undefined } | { rules?: undefined; error: RuleResolutionError } {
    switch (roleRef.kind) {
      case "Role": {
        const rules = namespace ? this.roles.get(`${namespace}/${roleRef.name}`) : undefined;
        return rules ? { rules } : { error: notFound("roles", roleRef.name) };
      }
      case "ClusterRole": {
        const rules = this.clusterRoleRules.get(roleRef.name);
        return rules ? { rules } : { error: notFound("clusterroles", roleRef.name) };
      }
      default: {
        const message = `unsupported role reference kind: ${goQuote(roleRef.kind)}`;
        return { error: { message, registryMessage: message } };
      }
    }
  }

  /** A ClusterRole's effective rules (aggregated ones computed from their selectors), or undefined if absent. */
  clusterRoleRulesOf(name: string): PolicyRule[] | undefined {
    return this.clusterRoleRules.get(name);
  }

  /** Aggregated rules as the clusterrole-aggregation controller would write them, for roles whose stored rules differ. */
  staleAggregatedClusterRoles(): { name: string; rules: PolicyRule[] }[] {
    const out: { name: string; rules: PolicyRule[] }[] = [];
    for (const name of this.aggregatedNames) {
      const stored = readRules(this.clusterRoles.get(name));
      const want = this.clusterRoleRules.get(name) ?? [];
      if (JSON.stringify(stored) !== JSON.stringify(want)) out.push({ name, rules: want });
    }
    return out;
  }

  private grantsFor(user: UserInfo, namespace: string): Grant[] {
    // Length-prefixed (whoKey): a namespace, name or group holding the separator cannot spell another's key.
    const cacheKey = `${namespace.length}:${namespace}${whoKey(user)}`;
    const hit = this.cache.get(cacheKey);
    if (hit) return hit;

    const keys = [userKey(user.username), ...user.groups.map(groupKey)];
    const grants: Grant[] = [];
    const clusterIds = new Set<string>();
    for (const k of keys) for (const id of this.clusterBindingIndex.get(k) ?? []) clusterIds.add(id);
    const cluster = [...clusterIds].map((id) => this.clusterBindings.get(id)!).sort(byName);
    for (const b of cluster) this.addGrant(grants, b, user, "");

    if (namespace) {
      const index = this.roleBindingIndex.get(namespace);
      if (index) {
        const ids = new Set<string>();
        for (const k of keys) for (const id of index.get(k) ?? []) ids.add(id);
        const local = [...ids].map((id) => this.roleBindings.get(id)!).sort(byName);
        for (const b of local) this.addGrant(grants, b, user, namespace);
      }
    }

    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(cacheKey, grants);
    return grants;
  }

  private addGrant(grants: Grant[], b: Binding, user: UserInfo, namespace: string): void {
    // kube names the first subject of the binding that matches, whichever index key found it.
    const subject = b.subjects.find((s) => appliesToUser(user, s, namespace));
    if (!subject) return;
    const resolved = this.roleRefRules(b.roleRef, namespace);
    if (resolved.error) grants.push({ rules: [], error: resolved.error });
    else grants.push({ rules: resolved.rules, binding: b, subject });
  }

  private applyClusterRole(name: string, obj: ClusterRole | undefined): void {
    const wasAggregated = this.aggregatedNames.has(name);
    if (obj) {
      const metadata = { ...(obj.metadata ?? {}), name };
      this.clusterRoles.set(name, { ...obj, metadata });
      if (obj.aggregationRule) this.aggregatedNames.add(name);
      else this.aggregatedNames.delete(name);
    } else {
      this.clusterRoles.delete(name);
      this.aggregatedNames.delete(name);
      this.clusterRoleRules.delete(name);
    }
    if (this.loading) return;
    if (obj && this.aggregatedNames.size === 0) {
      this.clusterRoleRules.set(name, readRules(obj));
      return;
    }
    if (!obj && !wasAggregated && this.aggregatedNames.size === 0) return;
    this.recomputeClusterRoleRules();
  }

  private recomputeClusterRoleRules(): void {
    this.clusterRoleRules.clear();
    for (const [name, cr] of this.clusterRoles) this.clusterRoleRules.set(name, readRules(cr));
    if (this.aggregatedNames.size === 0) return;
    for (const [name, rules] of aggregate(this.clusterRoles.values())) this.clusterRoleRules.set(name, rules);
  }

  private addClusterBinding(name: string, obj: unknown): void {
    const b = makeBinding("ClusterRoleBinding", name, "", obj);
    this.clusterBindings.set(name, b);
    for (const k of b.subjectKeys) addToIndex(this.clusterBindingIndex, k, name);
  }

  private removeClusterBinding(name: string): void {
    const b = this.clusterBindings.get(name);
    if (!b) return;
    this.clusterBindings.delete(name);
    for (const k of b.subjectKeys) removeFromIndex(this.clusterBindingIndex, k, name);
  }

  private addRoleBinding(namespace: string, name: string, obj: unknown): void {
    const id = `${namespace}/${name}`;
    const b = makeBinding("RoleBinding", name, namespace, obj);
    this.roleBindings.set(id, b);
    let index = this.roleBindingIndex.get(namespace);
    if (!index) this.roleBindingIndex.set(namespace, (index = new Map()));
    for (const k of b.subjectKeys) addToIndex(index, k, id);
  }

  private removeRoleBinding(namespace: string, name: string): void {
    const id = `${namespace}/${name}`;
    const b = this.roleBindings.get(id);
    if (!b) return;
    this.roleBindings.delete(id);
    const index = this.roleBindingIndex.get(namespace);
    for (const k of b.subjectKeys) removeFromIndex(index, k, id);
    if (index && index.size === 0) this.roleBindingIndex.delete(namespace);
  }
}

function makeBinding(kind: Binding["kind"], name: string, namespace: string, obj: unknown): Binding {
  const subjects = readSubjects(obj);
  const keys = new Set<string>();
  for (const s of subjects) {
    const k = subjectKey(s, namespace);
    if (k) keys.add(k);
  }
  return { kind, name, namespace, roleRef: readRoleRef(obj), subjects, subjectKeys: [...keys] };
}

function notFound(resource: "roles" | "clusterroles", name: string): RuleResolutionError {
  const singular = resource === "roles" ? "role" : "clusterrole";
  return {
    message: `${singular}.${RBAC_GROUP} ${goQuote(name)} not found`,
    registryMessage: `${resource}.${RBAC_GROUP} ${goQuote(name)} not found`,
    notFound: { resource, name },
  };
}
