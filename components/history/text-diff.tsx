"use client";
// A read-only line diff of two texts (two revisions' YAML): removed lines red with "-", added green with "+",
// both line numbers, unchanged runs folded to a few lines of context.
import { useMemo } from "react";
import { diffStats, lineDiff, type DiffRow } from "@/lib/history/line-diff";
import { ScrollBox } from "../ui/scroll-box";

const CONTEXT = 3;

type Shown = DiffRow | { op: "fold"; count: number };

function fold(rows: DiffRow[]): Shown[] {
  const out: Shown[] = [];
  let i = 0;
  while (i < rows.length) {
    if (rows[i].op !== " ") { out.push(rows[i++]); continue; }
    let j = i;
    while (j < rows.length && rows[j].op === " ") j++;
    const keepHead = i === 0 ? 0 : CONTEXT;
    const keepTail = j === rows.length ? 0 : CONTEXT;
    if (j - i > keepHead + keepTail + 1) {
      out.push(...rows.slice(i, i + keepHead), { op: "fold", count: j - i - keepHead - keepTail }, ...rows.slice(j - keepTail, j));
    } else {
      out.push(...rows.slice(i, j));
    }
    i = j;
  }
  return out;
}

const rowClass: Record<string, string> = {
  "-": "bg-red-50 text-red-950 dark:bg-red-950 dark:text-red-50",
  "+": "bg-green-50 text-green-950 dark:bg-green-950 dark:text-green-50",
  " ": "",
};

export function TextDiff({ before, after, label, testId = "history-diff" }: { before: string; after: string; label: string; testId?: string }) {
  const rows = useMemo(() => lineDiff(before, after), [before, after]);
  const stats = diffStats(rows);
  const shown = useMemo(() => fold(rows), [rows]);
  return (
    <div data-testid={testId}>
      <p className="mb-1 text-xs text-slate-700 dark:text-slate-300" data-testid={`${testId}-stats`}>
        {stats.removed === 0 && stats.added === 0 ? "No differences" : `${stats.removed} line${stats.removed === 1 ? "" : "s"} removed, ${stats.added} added`}
      </p>
      <ScrollBox label={label} className="max-h-[28rem] overflow-auto rounded-md border border-slate-200 dark:border-slate-700">
        <table className="w-full border-collapse font-mono text-xs" aria-label={label}>
          <tbody>
            {shown.map((r, k) =>
              r.op === "fold" ? (
                <tr key={k} className="bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300">
                  <td colSpan={4} className="px-2 py-0.5 italic">… {r.count} unchanged lines</td>
                </tr>
              ) : (
                <tr key={k} className={rowClass[r.op]} data-op={r.op === " " ? "same" : r.op === "-" ? "removed" : "added"}>
                  <td className="w-10 select-none px-1 text-right text-slate-600 dark:text-slate-400">{r.oldLine ?? ""}</td>
                  <td className="w-10 select-none px-1 text-right text-slate-600 dark:text-slate-400">{r.newLine ?? ""}</td>
                  <td className="w-4 select-none px-1" aria-label={r.op === "-" ? "removed" : r.op === "+" ? "added" : undefined}>{r.op === " " ? "" : r.op}</td>
                  <td className="whitespace-pre px-1">{r.text}</td>
                </tr>
              ),
            )}
          </tbody>
        </table>
      </ScrollBox>
    </div>
  );
}
