// One informer over the registry's watch cache (client-go's shared informer, reduced): handlers per resource get
// every current object once as ADDED (the initial list), then every committed change in revision order. The
// cache is the lister: reads go to it directly, so handlers stay cheap and enqueue keys for a work queue.
import type { KubeObject, ObjectMeta } from "../kinds/types";
import type { EventType, LogEvent, ObjectKey, StoredObject } from "../storage";

export interface InformerEvent {
  type: EventType;
  key: ObjectKey;
  /** The object after the change (its last state for DELETED). */
  object: KubeObject;
  /** The object before the change, when there was one. */
  old?: KubeObject;
  /** `object.metadata`: a handler that needs no more reads this (the cache need not parse the whole object). */
  metadata: ObjectMeta;
}

export type InformerHandler = (event: InformerEvent) => void;

/** What the informer reads: the watch cache (lib/storage's ObjectStore satisfies it). */
export interface InformerSource {
  allObjects(): IterableIterator<StoredObject>;
  get(key: ObjectKey): StoredObject | undefined;
  list(resource: string, opts?: { namespace?: string }): StoredObject[];
  readonly listeners: Set<(e: LogEvent) => void>;
}

/** Every resource: a handler registered for it sees the events of all resources. */
export const ALL_RESOURCES = "*";

export class Informer {
  private readonly handlers = new Map<string, InformerHandler[]>();
  private listener?: (e: LogEvent) => void;
  private synced = false;
  private readonly syncWaiters: (() => void)[] = [];

  constructor(private readonly source: InformerSource, private readonly onError: (err: unknown) => void = () => {}) {}

  /** Register before `start()`; `resource` is a plural (`pods`) or ALL_RESOURCES. */
  on(resource: string, handler: InformerHandler): this {
    const list = this.handlers.get(resource) ?? [];
    list.push(handler);
    this.handlers.set(resource, list);
    return this;
  }

  /**
   * Replay the current objects as ADDED, then follow the cache. Both happen in one synchronous step, so no
   * event can fall between the initial list and the first change; the informer has synced on return.
   */
  start(): void {
    if (this.listener) return;
    for (const o of this.initialList()) this.replay(o);
    this.follow();
  }

  /**
   * The same replay in slices of at most `sliceMs` that yield to the event loop between them (client-go's
   * informers run beside the server: kube-apiserver answers /readyz before its controllers' first pass ends).
   * The initial list is the cache's objects now; events committed meanwhile wait in order and are delivered
   * after it, as a reflector's watch follows its list. Resolves once synced (`hasSynced()`); a work queue
   * given this informer as `waitFor` processes nothing before (WaitForCacheSync). Stopping ends the replay.
   */
  startInSlices(sliceMs = 10): Promise<void> {
    if (this.listener) return this.whenSynced();
    const initial = this.initialList();
    const held: InformerEvent[] = [];
    this.listener = (e) => held.push(this.eventOf(e));
    this.source.listeners.add(this.listener);
    const listener = this.listener;
    let i = 0;
    const slice = () => {
      if (this.listener !== listener) return; // stopped
      const end = performance.now() + sliceMs;
      while (i < initial.length) {
        this.replay(initial[i++]);
        if ((i & 255) === 0 && performance.now() >= end) { setImmediate(slice); return; }
      }
      // Events committed during the replay, in order, then the cache's own delivery.
      for (let j = 0; j < held.length; j++) this.dispatch(held[j]);
      this.source.listeners.delete(listener);
      this.listener = undefined;
      this.follow();
    };
    slice();
    return this.whenSynced();
  }

  /** Whether the initial list has reached every handler (client-go's HasSynced). */
  hasSynced(): boolean {
    return this.synced;
  }

  /** Resolves once the informer has synced. */
  whenSynced(): Promise<void> {
    if (this.synced) return Promise.resolve();
    return new Promise((resolve) => this.syncWaiters.push(resolve));
  }

  /**
   * Only the resources handlers asked for (every one with an ALL_RESOURCES handler); an event's object is read
   * from the cache when a handler reads it (the cache parses objects on demand).
   */
  private initialList(): StoredObject[] {
    return this.handlers.has(ALL_RESOURCES) ? [...this.source.allObjects()]
      : [...this.handlers.keys()].flatMap((resource) => this.source.list(resource));
  }

  private replay(o: StoredObject): void {
    this.dispatch(new ReplayedEvent(o));
  }

  private eventOf(e: LogEvent): InformerEvent {
    return new CommittedEvent(e);
  }

  /** Synced: every committed change from now on goes to the handlers as the cache applies it. */
  private follow(): void {
    this.listener = (e) => this.dispatch(this.eventOf(e));
    this.source.listeners.add(this.listener);
    this.synced = true;
    for (const w of this.syncWaiters.splice(0)) w();
  }

  stop(): void {
    if (this.listener) this.source.listeners.delete(this.listener);
    this.listener = undefined;
  }

  get(resource: string, namespace: string, name: string): KubeObject | undefined {
    return this.source.get({ resource, namespace, name })?.object;
  }

  list(resource: string, namespace?: string): KubeObject[] {
    return this.source.list(resource, { namespace }).map((o) => o.object);
  }

  private dispatch(event: InformerEvent): void {
    for (const h of this.handlers.get(event.key.resource) ?? []) this.call(h, event);
    for (const h of this.handlers.get(ALL_RESOURCES) ?? []) this.call(h, event);
  }

  /** A handler runs inside the cache's apply loop: it must never break it. */
  private call(h: InformerHandler, event: InformerEvent): void {
    try {
      h(event);
    } catch (err) {
      this.onError(err);
    }
  }
}

// An event's object is read from the cache only when a handler asks (getters on the prototype: a literal's
// accessors would be made for every one of a start-up's objects).

/** A stored object replayed as ADDED when the informer starts. */
class ReplayedEvent implements InformerEvent {
  readonly type = "ADDED" as const;
  readonly key: ObjectKey;
  private meta: ObjectMeta | undefined;

  constructor(private readonly stored: StoredObject) {
    this.key = stored.key;
  }

  get object(): KubeObject {
    return this.stored.object;
  }

  get metadata(): ObjectMeta {
    return (this.meta ??= this.stored.metadata ?? this.stored.object.metadata);
  }
}

/** A committed change as the cache applied it. */
class CommittedEvent implements InformerEvent {
  readonly type: EventType;
  readonly key: ObjectKey;

  constructor(private readonly event: LogEvent) {
    this.type = event.type;
    this.key = event.key;
  }

  get object(): KubeObject {
    return this.event.object;
  }

  get old(): KubeObject | undefined {
    return this.event.prev?.object;
  }

  get metadata(): ObjectMeta {
    return this.event.object.metadata;
  }
}
