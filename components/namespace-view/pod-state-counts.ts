// Pods counted by state, problems first: "4 CrashLoopBackOff, 3 Pending, 1 OOMKilled, 25 Running". The state is
// kubectl's STATUS column (lib/client/pod-status.ts, one definition); a Running pod whose containers are not all
// ready is counted apart, since kubectl's word alone would hide it among the healthy ones.
import type { KubeObject } from "@/lib/kinds";
import { podStatus, type StatusTone } from "@/lib/client/pod-status";

export interface PodStateCount {
  /** kubectl's STATUS text (what the list's filter finds). */
  state: string;
  /** How the count is labelled: the state, or "Running, not ready" for a Running pod with unready containers. */
  label: string;
  tone: StatusTone;
  count: number;
}

const toneOrder: Record<StatusTone, number> = { error: 0, warning: 1, neutral: 2, ok: 3 };

/** Counts by state: errors, then warnings, then the rest, healthy last; within a tone the largest count first. */
export function podStateCounts(pods: Iterable<KubeObject>, now: number): PodStateCount[] {
  const counts = new Map<string, PodStateCount>();
  for (const pod of pods) {
    const { text, tone } = podStatus(pod, now);
    const label = text === "Running" && tone === "warning" ? "Running, not ready" : text;
    const entry = counts.get(label);
    if (entry) entry.count++;
    else counts.set(label, { state: text, label, tone, count: 1 });
  }
  return [...counts.values()].sort((a, b) => toneOrder[a.tone] - toneOrder[b.tone] || b.count - a.count || a.label.localeCompare(b.label));
}
