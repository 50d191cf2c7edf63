// Bounds on what watchers that stopped reading can cost (kube's watch cache closes a watcher that does not
// keep up): each stream's unsent bytes are capped (8 MiB); a stream whose client has taken nothing for
// STALL_MS while bytes wait is closed; and the unsent bytes of all streams together are capped, the
// largest backlogs closed first. One sweep a second looks at every open stream.

export const MAX_WATCH_BACKLOG_BYTES = 8 * 1024 * 1024;
/** A client that takes no bytes for this long while some wait for it is gone or stuck. */
export const STALL_MS = 5_000;
/** All streams' unsent bytes together. */
export const MAX_TOTAL_BACKLOG_BYTES = 256 * 1024 * 1024;
const SWEEP_MS = 1_000;

export interface TrackedStream {
  /** Bytes written to the stream and not yet taken by the client's connection. */
  backlog(): number;
  /** A counter that grows whenever the client takes bytes (e.g. the socket's bytesWritten). */
  progress(): number;
  /** Ends the stream at once, freeing its backlog. */
  cut(): void;
}

interface Entry {
  stream: TrackedStream;
  lastProgress: number;
  idleSince?: number;
}

export class WatchBacklogs {
  private readonly entries = new Set<Entry>();
  private timer?: NodeJS.Timeout;

  constructor(private readonly limits = { stallMs: STALL_MS, totalBytes: MAX_TOTAL_BACKLOG_BYTES }) {}

  /** Follows a stream until the returned function is called (when it ends). */
  track(stream: TrackedStream): () => void {
    const entry: Entry = { stream, lastProgress: stream.progress() };
    this.entries.add(entry);
    if (!this.timer) {
      this.timer = setInterval(() => this.sweep(Date.now()), SWEEP_MS);
      this.timer.unref();
    }
    return () => {
      this.entries.delete(entry);
      if (!this.entries.size && this.timer) { clearInterval(this.timer); this.timer = undefined; }
    };
  }

  /** Closes stalled streams, then the largest backlogs while the total is over its cap. */
  sweep(now: number): void {
    // Ten thousand watchers are swept every second: one pass without allocating (a Set may lose its current
    // entry while iterated), and the list of backlogs is made only when their total is over the cap.
    let total = 0;
    for (const entry of this.entries) {
      const backlog = entry.stream.backlog();
      const progress = entry.stream.progress();
      if (backlog === 0 || progress !== entry.lastProgress) {
        entry.idleSince = undefined;
      } else {
        entry.idleSince ??= now;
        if (now - entry.idleSince >= this.limits.stallMs) {
          this.cut(entry);
          continue;
        }
      }
      entry.lastProgress = progress;
      total += backlog;
    }
    if (total <= this.limits.totalBytes) return;
    const open: { entry: Entry; backlog: number }[] = [];
    for (const entry of this.entries) open.push({ entry, backlog: entry.stream.backlog() });
    open.sort((a, b) => b.backlog - a.backlog);
    for (const { entry, backlog } of open) {
      if (total <= this.limits.totalBytes) break;
      this.cut(entry);
      total -= backlog;
    }
  }

  private cut(entry: Entry): void {
    this.entries.delete(entry);
    entry.stream.cut();
  }
}

/** The process's one registry of watch streams (both adapters). */
export const watchBacklogs = new WatchBacklogs();
