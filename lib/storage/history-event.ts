// An event of the watch cache's history: its object and JSON are those of a CachedObject, the same one the
// current state holds when the event is the key's latest (ADDED, MODIFIED), so the history costs a few fields
// per event, not another copy of the object. Those fields are kept few and small, as the history can hold an
// event per object (a restart soon after a million creates): the type as a small number, the time as
// milliseconds since this module loaded (a small integer, not a boxed number, for 24 days either side), and
// what only some events have (watch lines and frames once served, who wrote it) in one object made on demand.
import type { KubeObject } from "../kinds/types";
import type { CachedEvent } from "./cache-watcher";
import type { CachedObject } from "./cached-object";
import type { EventType, ObjectKey, StoredObject, WriteUser } from "./types";

const TYPES: readonly EventType[] = ["ADDED", "MODIFIED", "DELETED"];
const typeCode = (t: EventType): number => (t === "ADDED" ? 0 : t === "MODIFIED" ? 1 : 2);
/** `at` is kept relative to this. */
const EPOCH = Date.now();

/** What only some events carry. */
interface Extras {
  lines?: CachedEvent["lines"];
  frames?: CachedEvent["frames"];
  user?: WriteUser;
}

export class HistoryEvent implements CachedEvent {
  private readonly code: number;
  private readonly since: number;
  private extras: Extras | undefined;

  constructor(
    type: EventType,
    /** The state after the write (the last state for DELETED). */
    readonly state: CachedObject,
    readonly prev: StoredObject | undefined,
    at: number,
    user?: WriteUser,
  ) {
    this.code = typeCode(type);
    this.since = at - EPOCH;
    this.extras = user ? { user } : undefined;
  }

  get type(): EventType {
    return TYPES[this.code];
  }

  /** When it was applied here (epoch ms). */
  get at(): number {
    return EPOCH + this.since;
  }

  get rev(): number {
    return this.state.rev;
  }

  get key(): ObjectKey {
    return this.state.key;
  }

  get object(): KubeObject {
    return this.state.object;
  }

  get json(): string {
    return this.state.json;
  }

  get stale(): boolean | undefined {
    return this.state.stale;
  }

  get user(): WriteUser | undefined {
    return this.extras?.user;
  }

  get lines(): CachedEvent["lines"] {
    return this.extras?.lines;
  }

  set lines(v: CachedEvent["lines"]) {
    (this.extras ??= {}).lines = v;
  }

  get frames(): CachedEvent["frames"] {
    return this.extras?.frames;
  }

  set frames(v: CachedEvent["frames"]) {
    (this.extras ??= {}).frames = v;
  }
}
