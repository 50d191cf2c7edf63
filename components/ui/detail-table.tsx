import type { ReactNode } from "react";

/**
 * The compact table of the object pages (conditions, ports, endpoint addresses): a caption for screen
 * readers, one header row, and the caller's rows. `columns` are the header texts in order.
 */
export function DetailTable({ caption, columns, testId, className = "", children }: {
  caption: string;
  columns: string[];
  testId?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <table className={`w-full text-left text-sm ${className}`.trim()} data-testid={testId}>
      <caption className="sr-only">{caption}</caption>
      <thead className="text-xs uppercase text-slate-600 dark:text-slate-400">
        <tr>
          {columns.map((c, i) => (
            <th key={c} scope="col" className={i < columns.length - 1 ? "py-1 pr-3" : "py-1"}>{c}</th>
          ))}
        </tr>
      </thead>
      {children}
    </table>
  );
}
