import type { ReactNode } from "react";

export function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <section className="mb-6" data-testid={testId} aria-label={title}>
      <h2 className="mb-2 text-sm font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400">{title}</h2>
      {children}
    </section>
  );
}
