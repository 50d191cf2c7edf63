// What a watch cache starts from: the store's revision, every current object and the watch history the log
// still holds, read as one consistent snapshot. With the history a replica that starts late serves watches
// and lists from any revision its peers serve, not 410 because its own history begins at its start.
import type { Dialect, Session } from "./dialect";
import { LOG_COLUMNS, readableLogRow, type DbLogRow, type LogRow } from "./log-rows";
import type { ObjectKey, ValueTransformer } from "./types";
import { objectKeyString } from "./types";

/**
 * Every current object at `rev`, and the log entries after `historyStartRev` up to `rev` (contiguous), each
 * with the state it replaced where that lies before the history (`bases`).
 */
export interface StoreSnapshot {
  rev: number;
  objects: { key: ObjectKey; rev: number; json: string; stale?: boolean }[];
  historyStartRev: number;
  history: LogRow[];
  /** For keys whose first history entry is not a create: their latest entry at or before historyStartRev. */
  bases: LogRow[];
}

/**
 * The history is the contiguous run of log entries ending at the revision (entries above the compaction
 * revision; on a log compacted before compaction kept each key's latest entry, the run after the last gap),
 * plus, for each key whose first entry there is not a create, the entry it replaced.
 */
export function loadSnapshot(dialect: Dialect, transformer: ValueTransformer): Promise<StoreSnapshot> {
  const p = dialect.param;
  return dialect.transaction(async (tx) => {
    const [{ rev: revRaw }] = await tx.query<{ rev: bigint }>(`SELECT "rev" FROM "Revision" WHERE "id" = 1`);
    const rev = Number(revRaw);
    // One plain loop over rows handed over as read: at 150,000 objects every intermediate object per row
    // (a row object, an array of all rows) shows in the start.
    const objects: StoreSnapshot["objects"] = [];
    /** The current objects' revisions: a log entry at one of them is its key's current row (one write, one key). */
    const currentRevs = new Set<number>();
    await eachRow(tx, `SELECT "resource", "namespace", "name", "rev", "object" FROM "CurrentObject"`, [], (v) => {
      const key = { resource: v[0] as string, namespace: v[1] as string, name: v[2] as string };
      const value = transformer.fromStorage(key, v[4] as string);
      const objectRev = Number(v[3]);
      currentRevs.add(objectRev);
      objects.push({ key, rev: objectRev, json: value.json, stale: value.stale });
    });
    const [{ rev: compactedRaw }] = await tx.query<{ rev: bigint }>(`SELECT "rev" FROM "LogCompaction" WHERE "id" = 1`);
    // The log without its values first: an entry that is its key's current row needs none (the objects above
    // hold the same bytes, read once); the others' values are read by revision below. (A join on the current
    // rows to leave those values out read every current row a second time.)
    const entries: DbLogRow[] = [];
    await eachRow(tx,
      `SELECT "rev", "resource", "namespace", "name", "type", "createdAt" FROM "LogEntry" WHERE "rev" > ${p(1)} AND "rev" <= ${p(2)} ORDER BY "rev"`,
      [compactedRaw, revRaw],
      (v) => { entries.push({ rev: v[0] as bigint, resource: v[1] as string, namespace: v[2] as string, name: v[3] as string, type: v[4] as string, object: null, createdAt: v[5] as bigint }); });
    // The contiguous run that ends at `rev`.
    let first = entries.length;
    while (first > 0 && Number(entries[first - 1].rev) === rev - (entries.length - first)) first--;
    const replaced = entries.slice(first).filter((e) => !currentRevs.has(Number(e.rev)));
    for (let i = 0; i < replaced.length; i += 500) {
      const chunk = replaced.slice(i, i + 500);
      const byRev = new Map<number, DbLogRow>(chunk.map((e) => [Number(e.rev), e]));
      await eachRow(tx, `SELECT "rev", "object" FROM "LogEntry" WHERE "rev" IN (${chunk.map((_, j) => p(j + 1)).join(", ")})`,
        chunk.map((e) => e.rev), (v) => { const e = byRev.get(Number(v[0])); if (e) e.object = v[1] as string; });
    }
    // An entry this process cannot read (written with an encryption key since removed, or in clear before
    // encryption without an identity provider) ends the history there, as compaction would.
    const readable = entries.slice(first).map((r) => readableLogRow(r, transformer));
    const history = readable.slice(readable.lastIndexOf(undefined) + 1) as LogRow[];
    const historyStartRev = rev - history.length;
    // Keys whose first history entry replaced an older state: that state, from the log.
    const seen = new Set<string>();
    const need = new Map<string, ObjectKey>();
    for (const e of history) {
      const id = `${e.key.resource}\u0000${objectKeyString(e.key)}`;
      if (!seen.has(id) && e.type !== "ADDED") need.set(id, e.key);
      seen.add(id);
    }
    const bases: LogRow[] = [];
    const keys = [...need.values()];
    for (let i = 0; i < keys.length; i += 200) {
      const chunk = keys.slice(i, i + 200);
      const where = chunk.map((_, j) => `("resource" = ${p(3 * j + 2)} AND "namespace" = ${p(3 * j + 3)} AND "name" = ${p(3 * j + 4)})`).join(" OR ");
      const found = await tx.query<DbLogRow>(
        `SELECT ${LOG_COLUMNS} FROM "LogEntry" WHERE "rev" <= ${p(1)} AND (${where}) ORDER BY "rev" DESC`,
        BigInt(historyStartRev), ...chunk.flatMap((k) => [k.resource, k.namespace, k.name]));
      const latest = new Set<string>();
      for (const r of found) {
        const id = `${r.resource}\u0000${r.namespace}/${r.name}`;
        if (latest.has(id)) continue;
        latest.add(id);
        const base = readableLogRow(r, transformer);
        if (base) bases.push(base); // unreadable: the history starts after this key's first event
      }
    }
    return { rev, objects, historyStartRev, history, bases };
  }, { snapshot: true, timeoutMs: 120_000 });
}

/** Each row's columns in the statement's order, through the driver's `each` where it has one. */
async function eachRow(tx: Session, sql: string, params: unknown[], row: (values: unknown[]) => void): Promise<void> {
  if (tx.each) return tx.each(sql, params, row);
  for (const r of await tx.query<Record<string, unknown>>(sql, ...params)) row(Object.values(r));
}
