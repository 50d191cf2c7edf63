// SQLite's change signal (the dialect's changeSignal: PRAGMA data_version, asked only once the wal-index header
// moved), with two stores on one file standing in for two server processes.
import { afterEach, expect, it } from "vitest";
import { closeStores, cm, fresh as freshOn, key } from "../test-stores";
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
