"use client";
import type { WatchStatus } from "@/lib/client/watch-connection";

const looks: Record<WatchStatus | "paused", { label: string; dot: string; text: string }> = {
  live: { label: "Live", dot: "bg-green-500", text: "text-green-800 dark:text-green-300" },
  connecting: { label: "Connecting…", dot: "bg-slate-400 animate-pulse", text: "text-slate-700 dark:text-slate-300" },
  reconnecting: { label: "Reconnecting…", dot: "bg-amber-500 animate-pulse", text: "text-amber-800 dark:text-amber-300" },
  relisting: { label: "Reloading list…", dot: "bg-amber-500 animate-pulse", text: "text-amber-800 dark:text-amber-300" },
  error: { label: "Not live", dot: "bg-red-500", text: "text-red-800 dark:text-red-300" },
  paused: { label: "Paused", dot: "bg-blue-500", text: "text-blue-800 dark:text-blue-300" },
};

/** Whether this view is live, catching up or stale; fixed width so the toolbar never shifts. */
export function LiveIndicator({ status, paused, detail }: { status: WatchStatus; paused?: boolean; detail?: string }) {
  const look = looks[paused ? "paused" : status];
  return (
    <span
      role="status"
      data-testid="live-indicator"
      data-status={paused ? "paused" : status}
      title={detail}
      className={`inline-flex w-36 items-center gap-1.5 text-xs font-medium ${look.text}`}
    >
      <span aria-hidden="true" className={`inline-block h-2 w-2 rounded-full ${look.dot}`} />
      {look.label}
    </span>
  );
}
