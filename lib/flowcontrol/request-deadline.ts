// The deadline of a request that is not long-running (kube-apiserver's WithRequestDeadline and timeout
// filter): REQUEST_TIMEOUT_SECONDS, or less when the client asks with `?timeout=` (a Go duration). Past it the
// client gets kube's 504; the work itself finishes in the background (its seat is freed then).
import { errors, StatusError } from "../status";

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, "µs": 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Go's time.ParseDuration for the forms clients send (`30s`, `1m30s`, `500ms`); undefined when malformed. */
export function parseGoDuration(text: string): number | undefined {
  if (text === "0") return 0;
  const whole = /^(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|ms|s|m|h)(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|ms|s|m|h))*$/;
  if (!whole.test(text)) return undefined;
  let ms = 0;
  for (const [, n, unit] of text.matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/g)) ms += Number(n) * UNIT_MS[unit];
  return ms;
}

/** The deadline in ms for this request: the server's, shortened by a valid positive `timeout` parameter. */
export function requestDeadlineMs(query: URLSearchParams, serverSeconds: number): number {
  const server = serverSeconds * 1000;
  const asked = query.get("timeout");
  if (asked === null || asked === "") return server;
  const ms = parseGoDuration(asked);
  if (ms === undefined) throw errors.badRequest("invalid timeout specified in the request URL");
  return ms > 0 && ms < server ? ms : server;
}

export const deadlineExceeded = (): StatusError =>
  errors.timeout("Timeout: request did not complete within requested timeout - context deadline exceeded");

/**
 * A request that must be answered by a deadline: `expire()` is called once (up to a sweep late, never early)
 * unless `clearDeadline` came first. Its own fields link it into the list of pending deadlines of its duration:
 * arming and clearing one allocate nothing, and deadlines of one duration end in the order they were armed,
 * so a sweep stops at the first one still to come.
 */
export abstract class Deadline {
  /** performance.now() at which it expires. */
  deadlineAt = 0;
  deadlinePrev: Deadline | undefined = undefined;
  deadlineNext: Deadline | undefined = undefined;
  deadlineList: DeadlineList | undefined = undefined;

  abstract expire(): void;
}

/** The pending deadlines of one duration, oldest first. */
class DeadlineList {
  head: Deadline | undefined = undefined;
  tail: Deadline | undefined = undefined;

  constructor(readonly ms: number) {}
}

/** Pending deadlines by duration (the server's, and each `?timeout=` clients ask for), swept by one shared timer. */
const lists = new Map<number, DeadlineList>();
let armed = 0;
const SWEEP_MS = 100;
let sweeper: NodeJS.Timeout | undefined;

/**
 * `d` expires `ms` after `from` (performance.now(), default now: a request's arrival, when known, as kube counts
 * its deadline) unless cleared first (a timer per request cost the hot path too much). A list is swept up to
 * its first deadline still to come: one armed later than a request that arrived after it can expire late by
 * at most its own time between arrival and arming (authentication, say), never early.
 */
export function armDeadline(d: Deadline, ms: number, from = performance.now()): void {
  let list = lists.get(ms);
  if (!list) lists.set(ms, (list = new DeadlineList(ms)));
  d.deadlineAt = from + ms;
  d.deadlineList = list;
  d.deadlinePrev = list.tail;
  d.deadlineNext = undefined;
  if (list.tail) list.tail.deadlineNext = d; else list.head = d;
  list.tail = d;
  armed++;
  if (!sweeper) {
    sweeper = setInterval(sweep, SWEEP_MS);
    sweeper.unref();
  }
}

/** `d` will not expire (answered in time, or expired already: then nothing happens). */
export function clearDeadline(d: Deadline): void {
  const list = d.deadlineList;
  if (!list) return;
  if (d.deadlinePrev) d.deadlinePrev.deadlineNext = d.deadlineNext; else list.head = d.deadlineNext;
  if (d.deadlineNext) d.deadlineNext.deadlinePrev = d.deadlinePrev; else list.tail = d.deadlinePrev;
  d.deadlineList = d.deadlinePrev = d.deadlineNext = undefined;
  armed--;
}

function sweep(): void {
  const now = performance.now();
  for (const list of lists.values()) {
    for (let d = list.head; d && d.deadlineAt <= now; d = list.head) {
      clearDeadline(d);
      d.expire();
    }
    // Emptied lists go here, not when their last deadline is cleared (the next request would make one again).
    if (!list.head) lists.delete(list.ms);
  }
  if (!armed && sweeper) { clearInterval(sweeper); sweeper = undefined; }
}

/** Deadlines armed and not yet cleared or expired (tests). */
export function pendingDeadlines(): number {
  return armed;
}

class Raced extends Deadline {
  constructor(private readonly reject: (err: unknown) => void) { super(); }
  expire(): void { this.reject(deadlineExceeded()); }
}

/** `work`'s result, or kube's 504 once `ms` have passed (whichever comes first; checked every 100 ms). */
export function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const d = new Raced(reject);
    armDeadline(d, ms);
    work.then(
      (value) => { clearDeadline(d); resolve(value); },
      (err) => { clearDeadline(d); reject(err); },
    );
  });
}
