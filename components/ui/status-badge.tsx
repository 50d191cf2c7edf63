// A status in words, tinted by its tone (lib/client/status-tone.ts): the words carry the meaning, the colour and
// the dot only repeat it. One look for lists and object pages; text and background meet AA contrast in both
// themes. In a table cell (`cell`) it truncates and takes part in the table's cut-off-text tooltips.
import type { ReactNode } from "react";
import type { Tone } from "@/lib/client/status-tone";

const toneClasses: Record<Tone, string> = {
  ok: "bg-green-50 text-green-800 ring-green-700/30 dark:bg-green-950 dark:text-green-300 dark:ring-green-400/30",
  warning: "bg-amber-50 text-amber-900 ring-amber-700/40 dark:bg-amber-950 dark:text-amber-200 dark:ring-amber-400/30",
  error: "bg-red-50 text-red-800 ring-red-700/30 dark:bg-red-950 dark:text-red-300 dark:ring-red-400/30",
  neutral: "bg-slate-100 text-slate-700 ring-slate-500/30 dark:bg-slate-800 dark:text-slate-300 dark:ring-slate-400/30",
};

const dotClasses: Record<Tone, string> = {
  ok: "bg-green-600 dark:bg-green-400",
  warning: "bg-amber-500 dark:bg-amber-400",
  error: "bg-red-600 dark:bg-red-400",
  neutral: "bg-slate-400",
};

/** Text colour alone, for a word inside a sentence or a table cell. */
export const toneText: Record<Tone, string> = {
  ok: "text-green-800 dark:text-green-300",
  warning: "text-amber-800 dark:text-amber-300",
  error: "text-red-800 dark:text-red-300",
  neutral: "text-slate-700 dark:text-slate-300",
};

export function StatusBadge({ tone, children, testId, title, cell }: { tone: Tone; children: ReactNode; testId?: string; title?: string; cell?: boolean }) {
  return (
    <span
      data-cell-text={cell || undefined}
      data-testid={testId}
      data-tone={tone}
      title={title}
      className={`inline-block rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${cell ? "max-w-full truncate" : ""} ${toneClasses[tone]}`}
    >
      <span aria-hidden="true" className={`mr-1.5 inline-block h-1.5 w-1.5 rounded-full align-middle ${dotClasses[tone]}`} />
      {children}
    </span>
  );
}
