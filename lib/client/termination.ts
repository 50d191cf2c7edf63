// What an object being deleted waits for, as the console's Terminating badge shows it: kube marks it with
// `metadata.deletionTimestamp`; it stays while `metadata.finalizers` remain, and an object deleted with a grace
// period (a scheduled pod) goes at its deletionTimestamp, `deletionGracePeriodSeconds` after the request.
import type { KubeObject } from "../kinds";

export interface Termination {
  /** When deletion was asked for (with a grace period: when the object is due to go). */
  deletionTimestamp: string;
  /** The finalizers still holding the object, in their order. */
  finalizers: string[];
  /** Whole seconds left of a running grace period (0 once due); undefined without one. */
  secondsLeft?: number;
}

/** The object's deletion in progress at `now` (ms), or undefined when it is not being deleted. */
export function termination(obj: KubeObject, now: number): Termination | undefined {
  const m = obj.metadata;
  if (!m?.deletionTimestamp) return undefined;
  const out: Termination = { deletionTimestamp: m.deletionTimestamp, finalizers: [...(m.finalizers ?? [])] };
  const grace = m.deletionGracePeriodSeconds ?? 0;
  const due = Date.parse(m.deletionTimestamp);
  // Never more than the grace period itself: the timestamp has whole seconds and `now` ticks once a second,
  // so the raw difference can read one over it just after the delete.
  if (grace > 0 && !Number.isNaN(due)) out.secondsLeft = Math.min(grace, Math.max(0, Math.ceil((due - now) / 1000)));
  return out;
}

/** What it waits for, in a few words: "12s left", "finalizer example.com/a", "finalizers a, b · 3s left". */
export function terminationDetail(t: Termination): string {
  const parts: string[] = [];
  if (t.finalizers.length) parts.push(`${t.finalizers.length === 1 ? "finalizer" : "finalizers"} ${t.finalizers.join(", ")}`);
  if (t.secondsLeft !== undefined) parts.push(t.secondsLeft > 0 ? `${t.secondsLeft}s left` : "grace period over");
  return parts.join(" · ");
}

/** A sentence for a tooltip or the object page. With a grace period, deletionTimestamp is when it goes. */
export function terminationSentence(t: Termination): string {
  const finalizers = t.finalizers.length ? `${t.finalizers.length === 1 ? "the finalizer" : "the finalizers"} ${t.finalizers.join(", ")}` : "";
  if (t.secondsLeft !== undefined) {
    const when = t.secondsLeft > 0 ? `goes at ${t.deletionTimestamp} (${t.secondsLeft} seconds left)` : `its grace period ended at ${t.deletionTimestamp}`;
    return `Deletion requested; ${when}${finalizers ? `, once ${finalizers} ${t.finalizers.length === 1 ? "is" : "are"} removed` : ""}.`;
  }
  return `Deletion requested at ${t.deletionTimestamp}${finalizers ? `; waiting for ${finalizers} to be removed` : ""}.`;
}

/** Whether a DELETE's answer is the object still held by finalizers or a running grace period (not a Status). */
export function stillHeld(answer: unknown): boolean {
  const m = (answer as KubeObject | undefined)?.metadata;
  if (!m || (answer as { kind?: string }).kind === "Status" || !m.deletionTimestamp) return false;
  return (m.finalizers ?? []).length > 0 || (m.deletionGracePeriodSeconds ?? 0) > 0;
}
