// How the sidebar groups the kinds and which key jumps to each (after `g`). Grouping is how users think
// about a cluster, which is a console decision, so it lives here rather than in the kind declarations.
// Core kinds are placed by plural; kinds of other API groups are placed by their group (every RBAC kind
// lands in "Access control" without being named); a kind nothing places still appears, under "Other".
import { kinds as allKinds, type AnyKind } from "../kinds";
import { consoleKinds } from "./console-kinds";
import { kindSegment } from "./custom-kinds";

/** Sidebar sections, in order, with the core (group "") kinds each holds. */
const coreSections: { title: string; plurals: string[] }[] = [
  { title: "Cluster", plurals: ["namespaces"] },
  { title: "Workloads", plurals: ["pods"] },
  { title: "Networking", plurals: ["services", "endpoints"] },
  { title: "Config", plurals: ["configmaps", "secrets"] },
  { title: "Storage", plurals: ["persistentvolumeclaims", "persistentvolumes"] },
  { title: "Policy", plurals: ["resourcequotas", "limitranges"] },
  { title: "Access control", plurals: ["serviceaccounts", "securitycontextconstraints"] },
  { title: "Events", plurals: ["events"] },
];

/** Section of every kind of an API group; a group missing here gets a section named after the group. */
const groupSections: Record<string, string> = {
  "rbac.authorization.k8s.io": "Access control",
  // CustomResourceDefinitions extend the cluster's API: next to Namespaces, not in a section of their own.
  "apiextensions.k8s.io": "Cluster",
};

/** `g` + key → kind. Mnemonic where possible; shown in the sidebar and the shortcut help. */
const jumpKeyTable: Record<string, string> = {
  N: "namespaces",
  p: "pods",
  s: "services",
  d: "endpoints",
  c: "configmaps",
  x: "secrets",
  l: "persistentvolumeclaims",
  v: "persistentvolumes",
  q: "resourcequotas",
  r: "limitranges",
  a: "serviceaccounts",
  t: "securitycontextconstraints",
  e: "events",
};

/** The jump keys of the kinds this build serves. */
export const jumpKeys: Record<string, string> = Object.fromEntries(
  Object.entries(jumpKeyTable).filter(([, plural]) => allKinds.some((k) => k.plural === plural)),
);

export interface NavGroup {
  title: string;
  kinds: AnyKind[];
}

function sectionOf(kind: AnyKind): string | undefined {
  if (kind.group) return groupSections[kind.group] ?? kind.group;
  return coreSections.find((s) => s.plurals.includes(kind.plural))?.title;
}

// Inside a section: core kinds in the table's order, then each other group's namespaced kinds before its
// cluster-scoped ones (Roles, RoleBindings, ClusterRoles, ClusterRoleBindings), alphabetically.
function order(kind: AnyKind): [number, string, number, string] {
  const core = coreSections.flatMap((s) => s.plurals).indexOf(kind.plural);
  if (!kind.group && core >= 0) return [0, "", core, ""];
  return [1, kind.group ?? "", kind.namespaced ? 0 : 1, kind.kind];
}

function compare(a: AnyKind, b: AnyKind): number {
  const [x, y] = [order(a), order(b)];
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
}

export function navigationGroups(list: readonly AnyKind[] = allKinds): NavGroup[] {
  const sections = new Map<string, AnyKind[]>(coreSections.map((s) => [s.title, []]));
  const other: AnyKind[] = [];
  for (const kind of list) {
    const title = sectionOf(kind);
    if (!title) other.push(kind);
    else sections.set(title, [...(sections.get(title) ?? []), kind]);
  }
  const groups = [...sections].map(([title, members]) => ({ title, kinds: members.sort(compare) }));
  if (other.length) groups.push({ title: "Other", kinds: other });
  return groups.filter((g) => g.kinds.length > 0);
}

export function jumpKeyFor(plural: string): string | undefined {
  return Object.entries(jumpKeys).find(([, p]) => p === plural)?.[0];
}

/** "ConfigMaps" from "ConfigMap": the sidebar label. */
export function kindTitle(kind: AnyKind): string {
  if (kind.kind.endsWith("s")) return kind.kind;
  if (kind.kind.endsWith("y")) return `${kind.kind.slice(0, -1)}ies`;
  return `${kind.kind}s`;
}

export interface Crumb {
  label: string;
  /** Absent for the current page (the last crumb) and for a scope that has no page of its own. */
  href?: string;
  /** What the crumb is, for screen readers: "Namespace", "Kind", ... */
  role: "namespace" | "scope" | "kind" | "object" | "action";
}

export interface Trail {
  crumbs: Crumb[];
  /** The list or object the page shows (pinnable). */
  target?: { plural: string; namespace?: string; name?: string };
}

const decode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/**
 * The breadcrumbs of a console URL: namespace › kind › object (or "All namespaces" / "Cluster" in place of
 * the namespace). Pages that are neither a list nor an object (the overview) have none.
 */
export function breadcrumbTrail(pathname: string, search: URLSearchParams, list: readonly AnyKind[] = consoleKinds()): Trail {
  const parts = pathname.split("/").filter(Boolean).map(decode);
  const byPlural = (p: string | undefined) => (p ? list.find((k) => kindSegment(k) === p) : undefined);
  const namespacesKind = byPlural("namespaces");
  const nsCrumb = (ns: string): Crumb => ({ label: ns, href: `/namespaces/${encodeURIComponent(ns)}`, role: "namespace" });
  const kindCrumb = (kind: AnyKind, ns: string | undefined, current: boolean): Crumb => ({
    label: kindTitle(kind),
    href: current ? undefined : kind.namespaced && ns ? `/namespaces/${encodeURIComponent(ns)}/${kindSegment(kind)}` : `/${kindSegment(kind)}`,
    role: "kind",
  });
  const scopeCrumb = (kind: AnyKind): Crumb => (kind.namespaced ? { label: "All namespaces", href: "/", role: "scope" } : { label: "Cluster", role: "scope" });

  if (parts[0] === "create" && parts[1]) {
    const kind = byPlural(parts[1]);
    if (!kind) return { crumbs: [] };
    const ns = kind.namespaced ? search.get("namespace") || undefined : undefined;
    return { crumbs: [ns ? nsCrumb(ns) : scopeCrumb(kind), kindCrumb(kind, ns, false), { label: "Create", role: "action" }] };
  }
  if (parts[0] === "namespaces" && parts.length >= 2 && namespacesKind) {
    const ns = parts[1];
    if (parts.length === 2) {
      return { crumbs: [scopeCrumb(namespacesKind), kindCrumb(namespacesKind, undefined, false), { label: ns, role: "object" }], target: { plural: "namespaces", name: ns } };
    }
    const kind = byPlural(parts[2]);
    if (!kind) return { crumbs: [] };
    if (parts.length === 3) return { crumbs: [nsCrumb(ns), kindCrumb(kind, ns, true)], target: { plural: kindSegment(kind), namespace: ns } };
    return { crumbs: [nsCrumb(ns), kindCrumb(kind, ns, false), { label: parts[3], role: "object" }], target: { plural: kindSegment(kind), namespace: ns, name: parts[3] } };
  }
  const kind = byPlural(parts[0]);
  if (!kind) return { crumbs: [] };
  if (parts.length === 1) return { crumbs: [scopeCrumb(kind), kindCrumb(kind, undefined, true)], target: { plural: kindSegment(kind) } };
  return { crumbs: [scopeCrumb(kind), kindCrumb(kind, undefined, false), { label: parts[1], role: "object" }], target: { plural: kindSegment(kind), name: parts[1] } };
}
