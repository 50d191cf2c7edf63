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
   * event can fall between the initial list and the first change.
   */
  start(): void {
    if (this.listener) return;
    // Only the resources handlers asked for (every one with an ALL_RESOURCES handler); an event's object is
    // read from the cache when a handler reads it (the cache parses objects on demand).
    const initial = this.handlers.has(ALL_RESOURCES) ? [...this.source.allObjects()]
      : [...this.handlers.keys()].flatMap((resource) => this.source.list(resource));
    for (const o of initial) {
      let metadata: ObjectMeta | undefined;
      this.dispatch({ type: "ADDED", key: o.key, get object() { return o.object; }, get metadata() { return (metadata ??= o.metadata ?? o.object.metadata); } });
    }
    this.listener = (e) => this.dispatch({
      type: e.type, key: e.key, get object() { return e.object; }, get old() { return e.prev?.object; }, get metadata() { return e.object.metadata; },
    });
    this.source.listeners.add(this.listener);
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
