// Turns a live list into the rows a table shows: filtered by name text and label selector, sorted by a
// column. Pure and independent of React, so it is tested directly and the benchmark can time it.
import type { Column, KubeObject } from "../kinds";
import { matchesLabels, type LabelSelector } from "../selectors/label-selector";

export interface Row {
  key: string;
  obj: KubeObject;
}

export interface ColumnView {
  id: string;
  name: string;
  cell: (obj: KubeObject, now: number) => string | number | boolean;
  /** How to order by this column: by cell text/number, or by a timestamp (ages). */
  sortBy: "cell" | "created";
  numeric?: boolean;
}

/** The namespace column kubectl adds for `--all-namespaces`. */
export const namespaceColumn: ColumnView = {
  id: "namespace",
  name: "Namespace",
  cell: (obj) => obj.metadata?.namespace ?? "",
  sortBy: "cell",
};

export function columnViews(columns: Column[], options: { wide: boolean; allNamespaces: boolean }): ColumnView[] {
  const out: ColumnView[] = options.allNamespaces ? [namespaceColumn] : [];
  for (const c of columns) {
    // The name column always shows (Event prints it wide-only): every row must open its object.
    if (c.priority > 0 && !options.wide && c.format !== "name") continue;
    out.push({
      id: c.name,
      name: c.name,
      cell: c.cell,
      sortBy: c.name === "Age" ? "created" : "cell",
      numeric: c.type === "integer" || c.type === "number",
    });
  }
  return out;
}

const unitSeconds: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, y: 365 * 86400 };
const durationPattern = /^(\d+[smhdy])+$/;

/** kubectl's `2d5h` → seconds, so duration columns (Last Seen) sort by time, not text. */
export function parseHumanDuration(text: string): number | undefined {
  if (!durationPattern.test(text)) return undefined;
  let total = 0;
  for (const m of text.matchAll(/(\d+)([smhdy])/g)) total += Number(m[1]) * unitSeconds[m[2]];
  return total;
}

type SortKey = number | string;

function sortKey(column: ColumnView, obj: KubeObject, now: number): SortKey {
  if (column.sortBy === "created") {
    const t = Date.parse(obj.metadata?.creationTimestamp ?? "");
    // Newest has the smallest age: sort ages ascending like the column reads.
    return Number.isNaN(t) ? Number.POSITIVE_INFINITY : -t;
  }
  const value = column.cell(obj, now);
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  const duration = parseHumanDuration(value);
  if (duration !== undefined) return duration;
  const leading = /^(\d+)(?:\/\d+)?(?:\s|$)/.exec(value);
  if (leading && column.numeric !== false && /^\d/.test(value) && !value.includes(".")) return Number(leading[1]);
  return value;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });

function compareKeys(a: SortKey, b: SortKey): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "number") return -1;
  if (typeof b === "number") return 1;
  return collator.compare(a, b);
}

export interface RowQuery {
  text: string;
  selector: LabelSelector | null;
  sort?: { column: ColumnView; descending: boolean };
  now: number;
}

/** Filter, then sort (stable: ties keep namespace/name order). */
export function selectRows(items: Iterable<[string, KubeObject]>, query: RowQuery): Row[] {
  const text = query.text.trim().toLowerCase();
  const rows: Row[] = [];
  for (const [key, obj] of items) {
    if (text && !(obj.metadata?.name ?? "").toLowerCase().includes(text)) continue;
    if (query.selector && query.selector.length > 0 && !matchesLabels(query.selector, obj.metadata?.labels)) continue;
    rows.push({ key, obj });
  }
  rows.sort((a, b) => collator.compare(a.key, b.key));
  const sort = query.sort;
  if (!sort) return rows;
  const keys = new Map<string, SortKey>();
  for (const row of rows) keys.set(row.key, sortKey(sort.column, row.obj, query.now));
  const direction = sort.descending ? -1 : 1;
  // Array.prototype.sort is stable, so equal keys keep the namespace/name order from above.
  rows.sort((a, b) => direction * compareKeys(keys.get(a.key)!, keys.get(b.key)!));
  return rows;
}
