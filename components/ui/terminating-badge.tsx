"use client";
// "Terminating" with what the object waits for (its finalizers, the seconds left of its grace period), from
// the object as last seen and a ticking `now` (see use-now.ts). Not a live region: a countdown read aloud
// every second would drown everything else; the text is there when a screen reader reaches it.
import type { KubeObject } from "@/lib/kinds";
import { termination, terminationDetail, terminationSentence } from "@/lib/client/termination";

export function TerminatingBadge({ obj, now, size = "md" }: { obj: KubeObject; now: number; size?: "sm" | "md" }) {
  const t = termination(obj, now);
  if (!t) return null;
  const detail = terminationDetail(t);
  return (
    <span
      data-testid="terminating-badge"
      data-finalizers={t.finalizers.join(" ")}
      data-seconds-left={t.secondsLeft}
      title={terminationSentence(t)}
      className={`inline-block min-w-0 max-w-full truncate rounded bg-amber-100 px-1.5 font-medium text-amber-900 dark:bg-amber-900/60 dark:text-amber-100 ${size === "sm" ? "text-[11px]" : "text-xs"}`}
    >
      Terminating
      {detail && <span className="font-normal"> · {detail}</span>}
    </span>
  );
}
