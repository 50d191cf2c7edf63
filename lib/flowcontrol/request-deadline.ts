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

/** Pending deadlines, checked by one shared timer (a timer per request costs the hot path too much). */
const pending = new Set<{ at: number; expire: () => void }>();
const SWEEP_MS = 100;
let sweeper: NodeJS.Timeout | undefined;

function sweep(): void {
  const now = Date.now();
  for (const entry of pending) {
    if (entry.at > now) continue;
    pending.delete(entry);
    entry.expire();
  }
  if (!pending.size && sweeper) { clearInterval(sweeper); sweeper = undefined; }
}

/** `work`'s result, or kube's 504 once `ms` have passed (whichever comes first; checked every 100 ms). */
export function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const entry = { at: Date.now() + ms, expire: () => reject(deadlineExceeded()) };
    pending.add(entry);
    if (!sweeper) {
      sweeper = setInterval(sweep, SWEEP_MS);
      sweeper.unref();
    }
    work.then(
      (value) => { pending.delete(entry); resolve(value); },
      (err) => { pending.delete(entry); reject(err); },
    );
  });
}
