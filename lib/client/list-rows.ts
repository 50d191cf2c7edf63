// Turns a live list into the rows a table shows: filtered by text (any column a row shows, not only the name)
// and label selector, sorted by a column. Pure and independent of React, so it is tested directly and the
// benchmark can time it. `createRowSelector` keeps the previous answer and, when a watch event batch changed
// a few objects of 10,000, re-places only those (a binary search each) instead of sorting everything again.
import { kindByKind, type Column, type KubeObject } from "../kinds";
import { matchesLabels, type LabelSelector } from "../selectors/label-selector";
import { objectHref } from "./console-routes";
import { eventFirstSeen, eventLastSeen } from "./event-time";
import { isStatusColumn } from "./status-tone";

export interface Row {
  key: string;
  obj: KubeObject;
}

export interface ColumnView {
  id: string;
  name: string;
  cell: (obj: KubeObject, now: number) => string | number | boolean;
  /** How to order by this column: by cell text/number, by creation (ages), or by `time` (newest first ascending). */
  sortBy: "cell" | "created" | "time";
  numeric?: boolean;
  /** For sortBy "time": the moment the cell counts from, ms. */
  time?: (obj: KubeObject) => number;
  /** The cell reads the clock (an age): left out of the text filter, which would match differently each second. */
  ticking?: boolean;
  /** The cell is a status word, shown coloured (see status-tone.ts). */
  status?: boolean;
  /** The cell names another object: its console page, when the console serves that kind. */
  link?: (obj: KubeObject) => string | undefined;
  /** The cell's tooltip when it is more than the cell's text (a reason's whole message). */
  title?: (obj: KubeObject) => string | undefined;
  /** The column's CSS grid track when its words need more room than the default. */
  width?: string;
  /** Kept on a phone (a table narrower than 36rem), where the other columns fold away. */
  narrow?: boolean;
}

/** The namespace column kubectl adds for `--all-namespaces`. */
export const namespaceColumn: ColumnView = {
  id: "namespace",
  name: "Namespace",
  cell: (obj) => obj.metadata?.namespace ?? "",
  sortBy: "cell",
};

interface InvolvedObject {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  name?: string;
}

/** An Event's involved object as a console link; undefined for kinds the console does not serve. */
export function involvedObjectHref(event: KubeObject): string | undefined {
  const ref = (event as { involvedObject?: InvolvedObject }).involvedObject;
  if (!ref?.kind || !ref.name) return undefined;
  const kind = kindByKind(ref.kind);
  if (!kind) return undefined;
  // The same kind name in another API group (a CRD, say) is not ours.
  const group = ref.apiVersion?.includes("/") ? ref.apiVersion.slice(0, ref.apiVersion.indexOf("/")) : "";
  if (ref.apiVersion && group !== (kind.group ?? "")) return undefined;
  return objectHref(kind, ref.namespace || event.metadata?.namespace, ref.name);
}

// Restarts reads "3 (5m ago)": it ticks too.
const ticking = new Set(["Age", "Last Seen", "First Seen", "Restarts"]);

/** What the console adds to a kind's printed columns: times to sort by, colours, links. */
function extend(kindName: string | undefined, c: Column): Partial<ColumnView> {
  const extra: Partial<ColumnView> = {};
  if (ticking.has(c.name)) extra.ticking = true;
  if (kindName && isStatusColumn(kindName, c.name)) extra.status = true;
  // On a phone: the name and, where the kind has one, its Status.
  if (c.format === "name" || c.name === "Status") extra.narrow = true;
  if (kindName === "Event") {
    if (c.name === "Last Seen") Object.assign(extra, { sortBy: "time", time: eventLastSeen });
    if (c.name === "First Seen") Object.assign(extra, { sortBy: "time", time: eventFirstSeen });
    if (c.name === "Object") extra.link = involvedObjectHref;
    // An Event's generated name says nothing: a phone shows when, why and about what, and the reason opens it.
    if (c.name === "Reason") extra.link = eventHref;
    extra.narrow = eventNarrow.has(c.name);
  }
  return extra;
}

const eventNarrow = new Set(["Last Seen", "Reason", "Object"]);

function eventHref(event: KubeObject): string | undefined {
  const kind = kindByKind("Event");
  const name = event.metadata?.name;
  return kind && name ? objectHref(kind, event.metadata?.namespace, name) : undefined;
}

/** The grid columns of a row on a phone: the selection box, then each narrow column's share. */
export function narrowTemplate(columns: readonly ColumnView[]): string {
  const widths = columns.filter((c) => c.narrow).map((c) => (c.ticking ? "4.25rem" : c.status ? "auto" : "minmax(0,1fr)"));
  return ["2.25rem", ...widths].join(" ");
}

export function columnViews(columns: Column[], options: { wide: boolean; allNamespaces: boolean; kind?: string }): ColumnView[] {
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
      ...extend(options.kind, c),
    });
  }
  return out;
}

/** The order a list opens in when the URL names none: Events newest first (by when they were last seen). */
export function defaultSort(kindName: string): { column: string; descending: boolean } | undefined {
  return kindName === "Event" ? { column: "Last Seen", descending: false } : undefined;
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
  if (column.sortBy === "created" || (column.sortBy === "time" && column.time)) {
    const t = column.sortBy === "created" ? Date.parse(obj.metadata?.creationTimestamp ?? "") : column.time!(obj);
    // Newest has the smallest age: sort ages ascending like the column reads.
    return Number.isNaN(t) ? Number.POSITIVE_INFINITY : -t;
  }
  const value = column.cell(obj, now);
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  const duration = parseHumanDuration(value);
  // As the moment the duration counts from (negated), so keys computed at different times agree.
  if (duration !== undefined) return duration * 1000 - now;
  const leading = /^(\d+)(?:\/\d+)?(?:\s|$)/.exec(value);
  if (leading && column.numeric !== false && /^\d/.test(value) && !value.includes(".")) return Number(leading[1]);
  return value;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });
// Characters whose order the collator gives as in ASCII (punctuation - . / before digits before letters).
const simple = /^[a-zA-Z0-9./-]*$/;

const isDigit = (c: number) => c >= 48 && c <= 57;
const lower = (c: number) => (c >= 65 && c <= 90 ? c + 32 : c);

/**
 * The collator's order (numeric, case-insensitive) computed directly for names made of letters, digits,
 * `-`, `.` and `/` (every namespace/name key): some twenty times faster, which matters at 10,000 rows.
 */
export function naturalCompare(a: string, b: string): number {
  if (!simple.test(a) || !simple.test(b)) return collator.compare(a, b);
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(j);
    if (isDigit(ca) && isDigit(cb)) {
      let ei = i;
      let ej = j;
      while (ei < a.length && isDigit(a.charCodeAt(ei))) ei++;
      while (ej < b.length && isDigit(b.charCodeAt(ej))) ej++;
      let si = i;
      let sj = j;
      while (si < ei - 1 && a.charCodeAt(si) === 48) si++;
      while (sj < ej - 1 && b.charCodeAt(sj) === 48) sj++;
      const la = ei - si;
      const lb = ej - sj;
      if (la !== lb) return la - lb;
      for (let k = 0; k < la; k++) {
        const d = a.charCodeAt(si + k) - b.charCodeAt(sj + k);
        if (d !== 0) return d;
      }
      i = ei;
      j = ej;
      continue;
    }
    const d = lower(ca) - lower(cb);
    if (d !== 0) return d;
    i++;
    j++;
  }
  return a.length - i - (b.length - j);
}

function compareKeys(a: SortKey, b: SortKey): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "number") return -1;
  if (typeof b === "number") return 1;
  return naturalCompare(a, b);
}

export interface RowQuery {
  text: string;
  selector: LabelSelector | null;
  sort?: { column: ColumnView; descending: boolean };
  /** Columns the text filter searches (the row's visible cells); the name alone when absent. */
  columns?: ColumnView[];
  now: number;
}

// Per object version (watch events replace objects, never mutate them): its Row, its sort keys, its searchable text.
const rowCache = new WeakMap<KubeObject, Row>();
const sortKeyCache = new WeakMap<ColumnView, WeakMap<KubeObject, SortKey>>();
const textCache = new WeakMap<ColumnView[], WeakMap<KubeObject, string>>();

function rowOf(key: string, obj: KubeObject): Row {
  let row = rowCache.get(obj);
  if (!row || row.key !== key) rowCache.set(obj, (row = { key, obj }));
  return row;
}

function cachedSortKey(column: ColumnView, obj: KubeObject, now: number): SortKey {
  let byObj = sortKeyCache.get(column);
  if (!byObj) sortKeyCache.set(column, (byObj = new WeakMap()));
  let key = byObj.get(obj);
  if (key === undefined) byObj.set(obj, (key = sortKey(column, obj, now)));
  return key;
}

/** The lower-cased text of every cell a row shows (ages aside), once per object version. */
function searchText(columns: ColumnView[], obj: KubeObject, now: number): string {
  let byObj = textCache.get(columns);
  if (!byObj) textCache.set(columns, (byObj = new WeakMap()));
  let text = byObj.get(obj);
  if (text === undefined) {
    const parts = [obj.metadata?.name ?? ""];
    for (const c of columns) if (!c.ticking && c.id !== "Name") parts.push(String(c.cell(obj, now)));
    byObj.set(obj, (text = parts.join("\n").toLowerCase()));
  }
  return text;
}

/** Does the row show `text` (lower-cased) in any cell? */
export function rowMatchesText(obj: KubeObject, text: string, columns: ColumnView[] | undefined, now: number): boolean {
  if (!text) return true;
  if (!columns) return (obj.metadata?.name ?? "").toLowerCase().includes(text);
  return searchText(columns, obj, now).includes(text);
}

interface Ordered {
  items: Map<string, KubeObject>;
  columnId: string | undefined;
  column: ColumnView | undefined;
  descending: boolean;
  rows: Row[];
}

/** Binary search for where `row` goes in `rows` ordered by `compare`. */
function insertionPoint(rows: Row[], row: Row, compare: (a: Row, b: Row) => number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(rows[mid], row) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A row selector that remembers its last ordering: called again with the next version of the same list, it
 * keeps the rows whose objects did not change and re-places the others. The answer is always what
 * `selectRows` would give.
 */
export function createRowSelector(): (items: Map<string, KubeObject>, query: RowQuery) => Row[] {
  let last: Ordered | undefined;

  function order(items: Map<string, KubeObject>, query: RowQuery): Row[] {
    const column = query.sort?.column;
    const descending = query.sort?.descending ?? false;
    const direction = descending ? -1 : 1;
    const compare = column
      ? (a: Row, b: Row) => direction * compareKeys(cachedSortKey(column, a.obj, query.now), cachedSortKey(column, b.obj, query.now)) || naturalCompare(a.key, b.key)
      : (a: Row, b: Row) => naturalCompare(a.key, b.key);
    const same = last && last.column === column && last.descending === descending;
    if (same && last!.items === items) return last!.rows;
    let rows: Row[];
    if (same) {
      const previous = last!.items;
      const kept: Row[] = [];
      for (const row of last!.rows) if (items.get(row.key) === row.obj) kept.push(row);
      const changed: Row[] = [];
      for (const [key, obj] of items) if (previous.get(key) !== obj) changed.push(rowOf(key, obj));
      if (changed.length > 64 && changed.length * 8 > items.size) {
        rows = kept.concat(changed).sort(compare);
      } else {
        rows = kept;
        for (const row of changed) rows.splice(insertionPoint(rows, row, compare), 0, row);
      }
    } else {
      rows = [];
      for (const [key, obj] of items) rows.push(rowOf(key, obj));
      rows.sort(compare);
    }
    last = { items, columnId: column?.id, column, descending, rows };
    return rows;
  }

  return (items, query) => {
    const rows = order(items, query);
    const text = query.text.trim().toLowerCase();
    const selector = query.selector && query.selector.length > 0 ? query.selector : null;
    if (!text && !selector) return rows;
    return rows.filter(
      (row) => rowMatchesText(row.obj, text, query.columns, query.now) && (!selector || matchesLabels(selector, row.obj.metadata?.labels)),
    );
  };
}

/** Filter, then sort (ties keep namespace/name order). */
export function selectRows(items: Iterable<[string, KubeObject]>, query: RowQuery): Row[] {
  return createRowSelector()(items instanceof Map ? items : new Map(items), query);
}
