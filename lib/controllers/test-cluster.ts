// Test support for controller tests (not imported by production code): a real registry on a temporary SQLite
// file with the NamespaceLifecycle plug-in, as the server wires it, and helpers to wait on the watch cache.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { AdmissionChain, type AdmissionPlugin } from "../admission/admission-chain";
import { NamespaceLifecycle } from "../admission/namespace-lifecycle";
import { StorageObjectInUseProtection } from "../admission/storage-object-in-use-protection";
import { kinds } from "../kinds";
import { namespace as namespaceKind } from "../kinds/namespace";
import type { KubeObject } from "../kinds/types";
import { Registry, type Answer } from "../registry/registry";
import { openStore, type LogEvent, type Store } from "../storage";
import { startControllers } from "./index";
import { Informer } from "./informer";

export const write = { dryRun: false, fieldValidation: "Warn" as const };
export const del = { dryRun: false };
export const objectOf = (a: Answer) => ("object" in a ? a.object : undefined) as KubeObject;

export interface TestCluster {
  file: string;
  store: Store;
  registry: Registry;
  /** Every event the cache applied since open, in order. */
  events: LogEvent[];
  stopControllers: () => void;
  close(): Promise<void>;
}

export const tempDatabase = () => `file:${mkdtempSync(path.join(tmpdir(), "cc-controllers-"))}/c.db`;

/**
 * Opens (or reopens) a store on `file`; controllers run unless `controllers: false`. Admission is
 * NamespaceLifecycle, followed by what `admission` gives when it is a function; none when it is false.
 */
export async function openCluster(
  file = tempDatabase(),
  opts: { controllers?: boolean; admission?: boolean | ((registry: Registry) => AdmissionPlugin[]) } = {},
): Promise<TestCluster> {
  const store = await openStore({ databaseUrl: file, compactionWindowSeconds: 300, pollIntervalMs: 50 });
  const more = opts.admission;
  const registry = new Registry(store, kinds, {
    admission: more === false ? undefined : (registry) => new AdmissionChain([
      new NamespaceLifecycle((name) => store.objects.get({ resource: namespaceKind.plural, namespace: "", name })?.object, () => store.objects.catchUp()),
      ...(typeof more === "function" ? more(registry) : []),
    ]),
  });
  const events: LogEvent[] = [];
  store.objects.listeners.add((e) => events.push(e));
  const stopControllers = opts.controllers === false ? () => {} : startControllers({ registry });
  return {
    file, store, registry, events, stopControllers,
    async close() { stopControllers(); registry.close(); await store.close(); },
  };
}

/** Polls `check` until it returns something truthy; fails after `timeoutMs`. */
export async function eventually<T>(check: () => T | undefined | false, timeoutMs = 5000, what = "condition"): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export const cached = (c: TestCluster, resource: string, namespace: string, name: string) =>
  c.store.objects.get({ resource, namespace, name })?.object;

export async function createNamespace(c: TestCluster, name: string): Promise<KubeObject> {
  return objectOf(await c.registry.create(namespaceKind, undefined, { metadata: { name } }, write));
}

const running: { c: TestCluster; stop: () => void }[] = [];

/**
 * A cluster running one controller alone (no others), with StorageObjectInUseProtection admission unless
 * `admission: false`; `closeAll()` in afterEach stops and closes every one opened.
 */
export async function clusterWith(
  make: (c: TestCluster, informer: Informer) => { stop(): void },
  opts: { admission?: boolean } = {},
): Promise<TestCluster> {
  const c = await openCluster(undefined, { controllers: false, admission: opts.admission === false || (() => [new StorageObjectInUseProtection()]) });
  const informer = new Informer(c.store.objects);
  const controller = make(c, informer);
  informer.start();
  running.push({ c, stop: () => { informer.stop(); controller.stop(); } });
  return c;
}

export async function closeAll(): Promise<void> {
  for (const o of running.splice(0)) { o.stop(); await o.c.close(); }
}
