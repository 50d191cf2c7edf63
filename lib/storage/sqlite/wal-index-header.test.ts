// SQLite's change signal (the dialect's changeSignal: PRAGMA data_version, asked only once the wal-index header
// moved), with two stores on one file standing in for two server processes.
import Database from "better-sqlite3";
import { afterEach, expect, it } from "vitest";
import { closeStores, cm, fresh as freshOn, key } from "../test-stores";
import { sqliteFilePath } from "../db";
import type { SqliteDialect } from "./sqlite-dialect";

afterEach(closeStores);
const fresh = (url?: string) => freshOn("sqlite", url);

it("SQLite's change signal asks data_version only after a commit moved the wal-index header", async () => {
  const { store: one, file } = await fresh();
  const { store: two } = await fresh(file);
  const dialect = two.parts.dialect as SqliteDialect;
  const statement = (dialect as unknown as { dataVersion: { get(): unknown } }).dataVersion;
  const get = statement.get.bind(statement);
  let asked = 0;
  statement.get = () => { asked++; return get(); };
  const first = dialect.changeSignal();
  for (let i = 0; i < 100; i++) expect(dialect.changeSignal()).toBe(first);
  expect(asked).toBeLessThanOrEqual(1);
  // This process's own commit moves the header (data_version asked once more) but not the signal.
  expect((await two.writer.commit({ type: "create", key: key("mine"), object: cm("mine") })).ok).toBe(true);
  expect(dialect.changeSignal()).toBe(first);
  expect(dialect.changeSignal()).toBe(first);
  expect(asked).toBeLessThanOrEqual(2);
  // Another process's commit moves both.
  expect((await one.writer.commit({ type: "create", key: key("theirs"), object: cm("theirs") })).ok).toBe(true);
  const after = dialect.changeSignal();
  expect(after).not.toBe(first);
  expect(dialect.changeSignal()).toBe(after);
  expect(asked).toBeLessThanOrEqual(3);
});

it("SQLite's change signal is read once per I/O callback: another process's commit is seen from the next one", async () => {
  const { store, file } = await fresh();
  const dialect = store.parts.dialect as SqliteDialect;
  const walIndex = (dialect as unknown as { walIndex: { unchanged(last: Buffer): boolean | undefined } }).walIndex;
  const unchanged = walIndex.unchanged.bind(walIndex);
  let reads = 0;
  walIndex.unchanged = (last) => { reads++; return unchanged(last); };
  const other = new Database(sqliteFilePath(file));
  try {
    await new Promise((r) => setImmediate(r));
    const before = dialect.changeSignal();
    // Another process commits while this callback runs: every request answered in it was read before the
    // signal was, so none of them can have been sent after that commit was acknowledged.
    other.exec("CREATE TABLE IF NOT EXISTS other_process (x INTEGER); INSERT INTO other_process VALUES (1)");
    for (let i = 0; i < 10; i++) expect(dialect.changeSignal()).toBe(before);
    expect(reads).toBe(1);
    // The next callback reads the header again and sees the commit.
    await new Promise((r) => setImmediate(r));
    const after = dialect.changeSignal();
    expect(after).not.toBe(before);
    expect(reads).toBe(2);
    // A client of this process that saw the commit acknowledged: its request arrives in a later callback.
    expect(await store.objects.catchUp().then(() => store.objects.current())).toBe(true);
  } finally {
    other.close();
  }
});
