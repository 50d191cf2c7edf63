// How the sidebar groups the kinds and which key jumps to each (after `g`). Grouping is how users think
// about a cluster, which is a console decision, so it lives here rather than in the kind declarations; a
// kind missing from the table still appears, under "Other".
import { kinds, type AnyKind } from "../kinds";

interface GroupSpec {
  title: string;
  plurals: string[];
}

const groupSpecs: GroupSpec[] = [
  { title: "Workloads", plurals: ["pods"] },
  { title: "Networking", plurals: ["services", "endpoints"] },
  { title: "Config", plurals: ["configmaps", "secrets"] },
  { title: "Storage", plurals: ["persistentvolumeclaims", "persistentvolumes"] },
  { title: "Policy", plurals: ["resourcequotas", "limitranges"] },
  { title: "Access", plurals: ["serviceaccounts", "securitycontextconstraints"] },
  { title: "Events", plurals: ["events"] },
];

/** `g` + key → kind. Mnemonic where possible; shown in the sidebar and the shortcut help. */
export const jumpKeys: Record<string, string> = {
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

export interface NavGroup {
  title: string;
  kinds: AnyKind[];
}

export function navigationGroups(): NavGroup[] {
  const byPlural = new Map(kinds.map((k) => [k.plural, k]));
  const placed = new Set<string>();
  const groups = groupSpecs.map((g) => ({
    title: g.title,
    kinds: g.plurals.flatMap((p) => {
      const kind = byPlural.get(p);
      if (!kind) return [];
      placed.add(p);
      return [kind];
    }),
  }));
  const other = kinds.filter((k) => !placed.has(k.plural));
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
