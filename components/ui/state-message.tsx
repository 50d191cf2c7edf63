import type { ReactNode } from "react";

/** Empty, loading and error states: one look everywhere, always saying what to do next. */
export function StateMessage({ tone = "neutral", title, children, testId }: { tone?: "neutral" | "error"; title: string; children?: ReactNode; testId?: string }) {
  return (
    <div role={tone === "error" ? "alert" : undefined} data-testid={testId} className="flex flex-1 flex-col items-center justify-center gap-2 px-6 py-16 text-center">
      <p className={`text-base font-medium ${tone === "error" ? "text-red-800 dark:text-red-300" : "text-slate-800 dark:text-slate-200"}`}>{title}</p>
      {children && <div className="max-w-xl text-sm text-slate-600 dark:text-slate-400">{children}</div>}
    </div>
  );
}
