// An event of the watch cache's history: its object and JSON are those of a CachedObject, the same one the
// current state holds when the event is the key's latest (ADDED, MODIFIED), so the history costs a few fields
// per event, not another copy of the object.
import type { KubeObject } from "../kinds/types";
import type { CachedEvent } from "./cache-watcher";
import type { CachedObject } from "./cached-object";
import type { EventType, ObjectKey, StoredObject, WriteUser } from "./types";

export class HistoryEvent implements CachedEvent {
  lines?: CachedEvent["lines"];
  frames?: CachedEvent["frames"];
  readonly stale?: boolean;
  readonly user?: WriteUser;

  constructor(
    readonly type: EventType,
    /** The state after the write (the last state for DELETED). */
    readonly state: CachedObject,
    readonly prev: StoredObject | undefined,
    readonly at: number,
    user?: WriteUser,
  ) {
    if (state.stale) this.stale = true;
    if (user) this.user = user;
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
}
