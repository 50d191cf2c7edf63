// Test support for lib/storage's own suites (not imported by production code): stores with their parts on a
// fresh database of the current backend (or another one on the same database: a second process), closed by
// `closeStores` after each test, and helpers to write objects and collect watch streams.
import type { KubeObject } from "../kinds/types";
import type { ValueTransformer, WatchSink } from "./index";
import { openStoreParts } from "./open-store";
import { freshDatabaseUrl, type Backend } from "./test-databases";

export type TestStore = Awaited<ReturnType<typeof openStoreParts>>;

const stores: TestStore[] = [];

export async function closeStores(): Promise<void> {
  while (stores.length) await stores.pop()!.close();
}

/** A store on a new database of `backend`, or another one on `url` (a second process). */
export async function fresh(
  backend: Backend, url?: string, windowSeconds = 300, pollIntervalMs = 20, transformer?: ValueTransformer,
): Promise<{ store: TestStore; file: string }> {
  const u = url ?? await freshDatabaseUrl(backend);
  const store = await openStoreParts({ databaseUrl: u, compactionWindowSeconds: windowSeconds, pollIntervalMs, transformer });
  stores.push(store);
  return { store, file: u };
}

/** The store closed by the test itself (not again after it). */
export function forget(store: TestStore): void {
  stores.splice(stores.indexOf(store), 1);
}

/** The one resource these suites write: storage knows no kinds, so any name does. */
export const RESOURCE = "widgets";
export const cm = (name: string, data: Record<string, string> = {}): KubeObject =>
  ({ apiVersion: "v1", kind: "Widget", metadata: { name, namespace: "ns" }, data });
export const key = (name: string) => ({ resource: RESOURCE, namespace: "ns", name });

export function collect(): { sink: WatchSink; lines: () => { type: string; object: KubeObject }[]; closed: () => boolean } {
  const chunks: string[] = [];
  let closed = false;
  return {
    sink: { send: (c) => { chunks.push(c.toString()); return true; }, close: () => { closed = true; } },
    lines: () => chunks.join("").split("\n").filter(Boolean).map((l) => JSON.parse(l)),
    closed: () => closed,
  };
}

export const always = { matches: () => true, initialState: false, initialEventsEnd: false, bookmarks: false, bookmark: () => "{}", expired: () => `{"code":410}` };

export async function latestRev(store: TestStore, name: string): Promise<number | undefined> {
  await store.objects.catchUp();
  return store.objects.get(key(name))?.rev;
}
