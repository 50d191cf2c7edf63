// Keeps one watch alive: connects from a resourceVersion, reports each event, remembers the newest
// resourceVersion (events and bookmarks), and reconnects from it after a drop or a server timeout with a
// growing back-off. A 410 (HTTP status or ERROR event) ends the watch with `onExpired`, and the owner re-lists.
// A 403 ends it for good with kube's message (permissions do not come back by retrying every few seconds).
import { apiHeaders, notifyUnauthorized } from "./api-client";
import { isExpired, type WatchEvent } from "./apply-watch-event";
import { readWatchStream } from "./watch-stream";
import { sharedWatchSlots, type WatchPriority, type WatchSlots } from "./watch-slots";

export type WatchStatus = "connecting" | "live" | "reconnecting" | "relisting" | "error";

export interface WatchConnectionOptions {
  url: (resourceVersion: string) => string;
  resourceVersion: string;
  onEvent: (event: WatchEvent) => void;
  onStatus: (status: WatchStatus, detail?: string) => void;
  onExpired: () => void;
  slots?: WatchSlots;
  /** Asked before each connection: a background watch yields its slot to normal ones (see watch-slots.ts). */
  priority?: () => WatchPriority;
  fetchImpl?: typeof fetch;
  /** Back-off steps in ms; the last repeats. */
  backoffMs?: number[];
}

const defaultBackoff = [500, 1_000, 2_000, 5_000, 10_000];

/** Starts the watch; the returned function stops it for good. */
export function startWatch(options: WatchConnectionOptions): () => void {
  const stopController = new AbortController();
  const slots = options.slots ?? sharedWatchSlots();
  const fetchImpl = options.fetchImpl ?? fetch.bind(globalThis);
  const backoff = options.backoffMs ?? defaultBackoff;
  let resourceVersion = options.resourceVersion;
  let failures = 0;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      stopController.signal.addEventListener("abort", () => {
        clearTimeout(t);
        resolve();
      });
    });

  async function once(): Promise<"again" | "expired" | "stop"> {
    const slot = await slots.acquire(stopController.signal, options.priority?.() ?? "normal");
    const attempt = new AbortController();
    const abortAttempt = () => attempt.abort();
    stopController.signal.addEventListener("abort", abortAttempt);
    let preempted = false;
    slot.onPreempt = () => {
      preempted = true;
      attempt.abort();
    };
    try {
      const response = await fetchImpl(options.url(resourceVersion), {
        headers: apiHeaders(),
        credentials: "same-origin",
        cache: "no-store",
        signal: attempt.signal,
      });
      if (response.status === 410) return "expired";
      if (response.status === 401) {
        notifyUnauthorized();
        options.onStatus("error", "the session is no longer valid");
        return "stop";
      }
      if (response.status === 403) {
        const status = (await response.json().catch(() => undefined)) as { message?: string } | undefined;
        options.onStatus("error", status?.message || "forbidden");
        return "stop";
      }
      if (!response.ok || !response.body) throw new Error(`watch answered ${response.status}`);
      failures = 0;
      options.onStatus("live");
      let expired = false;
      let received = 0;
      const openedAt = Date.now();
      await readWatchStream(response.body, (event) => {
        if (expired) return;
        if (isExpired(event)) {
          expired = true;
          attempt.abort();
          return;
        }
        if (event.type === "ERROR") return;
        const rv = (event.object as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion;
        if (rv) resourceVersion = rv;
        received++;
        options.onEvent(event);
      }).catch((e) => {
        if (!expired) throw e;
      });
      if (expired) return "expired";
      // A stream the server closes at once, empty, is a failure in disguise: back off instead of spinning.
      if (received === 0 && Date.now() - openedAt < 1_000 && !preempted) throw new Error("watch closed at once");
      return "again";
    } catch (e) {
      if (stopController.signal.aborted) return "stop";
      if (preempted) return "again";
      failures++;
      options.onStatus("reconnecting", (e as Error)?.message);
      await sleep(backoff[Math.min(failures - 1, backoff.length - 1)]);
      return "again";
    } finally {
      stopController.signal.removeEventListener("abort", abortAttempt);
      slot.release();
    }
  }

  (async () => {
    options.onStatus("connecting");
    while (!stopController.signal.aborted) {
      const outcome = await once().catch(() => "stop" as const);
      if (outcome === "stop" || stopController.signal.aborted) return;
      if (outcome === "expired") {
        options.onStatus("relisting");
        options.onExpired();
        return;
      }
    }
  })();

  return () => stopController.abort();
}
