// The command palette's search, pure: a query is either text (matched against names, then against labels
// written `key=value`) or, when it reads as one, a label selector (`app=web`, `tier in (a,b)`, `!canary`).
// Results are grouped by kind, best first (the exact name, then a name prefix, then a name substring, then a
// label), a few per kind. `rank` is the one ranking every entry of the palette shares (objects, kinds,
// namespaces), so Enter on "kafka-2" opens the object named exactly that, not `kafka-2.unhealthy`.
import type { AnyKind, KubeObject } from "../kinds";
import { matchesLabels, parseLabelSelector, type LabelSelector } from "../selectors/label-selector";

export type PaletteQuery = { text: string; selector?: undefined } | { text: string; selector: LabelSelector };

/** `app=web` → a selector; anything else (or a selector that does not parse) → text. */
export function parsePaletteQuery(input: string): PaletteQuery {
  const text = input.trim();
  if (/[=!]|\s(in|notin)\s*\(/.test(text)) {
    try {
      const selector = parseLabelSelector(text);
      if (selector.length > 0) return { text, selector };
    } catch {
      // not a selector: searched as text
    }
  }
  return { text };
}

/** How well a typed text matches: exact (0), prefix (1), substring (2); label (3) and selector (4) for objects. */
export const Rank = { exact: 0, prefix: 1, substring: 2, label: 3, selector: 4 } as const;

/** The best rank of `text` (case-insensitive) among `candidates`, or undefined when none contains it. */
export function rank(text: string, ...candidates: (string | undefined)[]): number | undefined {
  const needle = text.trim().toLowerCase();
  let best: number | undefined;
  for (const c of candidates) {
    if (!c) continue;
    const hay = c.toLowerCase();
    const at = hay.indexOf(needle);
    const r = at < 0 ? undefined : hay.length === needle.length ? Rank.exact : at === 0 ? Rank.prefix : Rank.substring;
    if (r !== undefined && (best === undefined || r < best)) best = r;
  }
  return best;
}

/**
 * Groups in the order to show them: by their best entry's rank, ties kept in the given order (so pinned,
 * "go to" and namespaces stay ahead of objects that match no better), each group's entries by rank too.
 */
export function rankGroups<I extends { rank: number }, G extends { items: I[] }>(groups: readonly G[]): G[] {
  const best = (g: G) => g.items.reduce((m, i) => Math.min(m, i.rank), Infinity);
  return groups
    .map((g, index) => ({ g: { ...g, items: [...g.items].sort((a, b) => a.rank - b.rank) }, index }))
    .sort((a, b) => best(a.g) - best(b.g) || a.index - b.index)
    .map(({ g }) => g);
}

export interface ObjectHit {
  obj: KubeObject;
  /** `Rank`: the name is the text (0), starts with it (1), contains it (2); a label matches (3); the selector (4). */
  score: number;
  /** The label that matched, `key=value`. */
  label?: string;
}

export interface KindHits {
  kind: AnyKind;
  hits: ObjectHit[];
  /** Matches in all, of which `hits` are the best few. */
  total: number;
}

export interface SearchSource {
  kind: AnyKind;
  objects: Iterable<KubeObject>;
}

function matchObject(obj: KubeObject, query: PaletteQuery, needle: string): ObjectHit | undefined {
  if (query.selector) return matchesLabels(query.selector, obj.metadata?.labels) ? { obj, score: Rank.selector } : undefined;
  const name = (obj.metadata?.name ?? "").toLowerCase();
  const at = name.indexOf(needle);
  if (at === 0) return { obj, score: name.length === needle.length ? Rank.exact : Rank.prefix };
  if (at > 0) return { obj, score: Rank.substring };
  for (const [k, v] of Object.entries(obj.metadata?.labels ?? {})) {
    const pair = `${k}=${v}`;
    if (pair.toLowerCase().includes(needle)) return { obj, score: Rank.label, label: pair };
  }
  return undefined;
}

const objectKey = (o: KubeObject) => `${o.metadata?.namespace ?? ""}/${o.metadata?.name ?? ""}`;

/** Searches every source; the same object from two sources (a live list and a fetched one) counts once. */
export function searchObjects(sources: readonly SearchSource[], query: PaletteQuery, perKind = 8): KindHits[] {
  const needle = query.text.toLowerCase();
  if (!needle) return [];
  const byKind = new Map<AnyKind, { hits: ObjectHit[]; seen: Set<string> }>();
  for (const { kind, objects } of sources) {
    let entry = byKind.get(kind);
    if (!entry) byKind.set(kind, (entry = { hits: [], seen: new Set() }));
    for (const obj of objects) {
      const key = objectKey(obj);
      if (entry.seen.has(key)) continue;
      const hit = matchObject(obj, query, needle);
      if (!hit) continue;
      entry.seen.add(key);
      entry.hits.push(hit);
    }
  }
  const out: KindHits[] = [];
  for (const [kind, { hits }] of byKind) {
    if (hits.length === 0) continue;
    hits.sort((a, b) => a.score - b.score || (a.obj.metadata?.name ?? "").localeCompare(b.obj.metadata?.name ?? "") || (a.obj.metadata?.namespace ?? "").localeCompare(b.obj.metadata?.namespace ?? ""));
    out.push({ kind, hits: hits.slice(0, perKind), total: hits.length });
  }
  // Kinds with a better best hit first, then by kind name.
  return out.sort((a, b) => a.hits[0].score - b.hits[0].score || a.kind.kind.localeCompare(b.kind.kind));
}

/** Whether a "go to" target (kind name, plural, short name, namespace) matches the typed text. */
export function matchesWords(text: string, ...candidates: (string | undefined)[]): boolean {
  const needle = text.trim().toLowerCase();
  if (!needle) return true;
  return rank(needle, ...candidates) !== undefined;
}
