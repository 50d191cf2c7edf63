"use client";
// The generic live table: columns from the kind declaration, rows windowed, header sortable, rows that a
// watch event just changed flash once. ARIA table roles on a CSS grid, so windowing keeps row semantics
// (aria-rowindex/aria-rowcount tell assistive tech where a row sits in the whole list).
// Fast at 10,000 rows: a row re-renders only when its object changes (ages tick in their own cells), links do
// not prefetch, and the header checkbox selects the rows on screen (all matching rows is a second action).
// A cell cut short by its column width gets its full text as a title and, to reach it from the keyboard, a
// tab stop that shows the text in a tooltip.
import Link from "next/link";
import { memo, useCallback, useEffect, useId, useMemo, useRef, useState, type CSSProperties, type FocusEvent } from "react";
import { narrowTemplate, type ColumnView, type Row } from "@/lib/client/list-rows";
import { headerState, selectionOffer, shownRange } from "@/lib/client/list-selection";
import { useHydrated } from "@/lib/client/use-hydrated";
import type { KubeObject } from "@/lib/kinds";
import { TerminatingBadge } from "../ui/terminating-badge";
import { useClock } from "./clock";
import { statusTone } from "@/lib/client/status-tone";
import { StatusBadge } from "../ui/status-badge";
import { useVirtualWindow } from "./use-virtual-window";
import "./narrow-table.css";

export const ROW_HEIGHT = 34;

export interface SortState {
  column: string;
  descending: boolean;
}

export type RowTone = "warning" | undefined;

interface TableProps {
  label: string;
  columns: ColumnView[];
  rows: Row[];
  changedAt: Map<string, number>;
  sort: SortState | undefined;
  onSort: (column: string) => void;
  selected: Set<string>;
  onSelect: (keys: string[], selected: boolean) => void;
  hrefFor: (obj: KubeObject) => string;
  /** Rows to set apart (Warning events). */
  rowTone?: (obj: KubeObject) => RowTone;
  /** The filter the rows answer: when it changes the list scrolls back to its top, where the best matches are. */
  filterKey?: string;
}

function gridTemplate(columns: ColumnView[]): string {
  return ["2.25rem", ...columns.map((c) => (c.width ? c.width : c.id === "Name" ? "minmax(12rem,2.5fr)" : c.id === "Message" ? "minmax(14rem,3fr)" : "minmax(6rem,1fr)"))].join(" ");
}

const cellText = (value: string | number | boolean) => String(value);

function TickingText({ column, obj }: { column: ColumnView; obj: KubeObject }) {
  const now = useClock();
  return <>{cellText(column.cell(obj, now))}</>;
}

function TickingBadge({ obj }: { obj: KubeObject }) {
  const now = useClock();
  return <TerminatingBadge obj={obj} now={now} size="sm" />;
}

const linkClass = "truncate font-medium text-blue-800 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-blue-300";

const TableRow = memo(function TableRow({
  row,
  index,
  columns,
  flashAt,
  selected,
  onSelect,
  href,
  template,
  narrowStyle,
  tone,
  hydrated,
}: {
  row: Row;
  index: number;
  columns: ColumnView[];
  flashAt: number | undefined;
  selected: boolean;
  onSelect: (keys: string[], selected: boolean) => void;
  href: string;
  template: string;
  narrowStyle: CSSProperties;
  tone: RowTone;
  hydrated: boolean;
}) {
  const now = Date.now();
  const terminating = !!row.obj.metadata?.deletionTimestamp;
  const flashing = flashAt !== undefined && now - flashAt < 1_500;
  const toneClass = tone === "warning" ? "bg-amber-50 shadow-[inset_3px_0_0_var(--color-amber-600)] dark:bg-amber-950/50 dark:shadow-[inset_3px_0_0_var(--color-amber-400)]" : "";
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      data-key={row.key}
      data-testid="resource-row"
      data-tone={tone}
      className={`grid items-center border-b border-slate-100 text-sm hover:bg-slate-50 dark:border-slate-800/70 dark:hover:bg-slate-900 ${toneClass} ${flashing ? "row-flash" : ""} ${selected ? "bg-blue-50/60 dark:bg-blue-950/40" : ""}`}
      style={{ gridTemplateColumns: template, height: ROW_HEIGHT, ...narrowStyle }}
    >
      <div role="cell" className="flex justify-center">
        <input
          type="checkbox"
          checked={selected}
          disabled={!hydrated}
          onChange={(e) => onSelect([row.key], e.target.checked)}
          aria-label={`Select ${row.key}`}
          className="h-4 w-4 accent-blue-700"
        />
      </div>
      {columns.map((column) => {
        if (column.id === "Name") {
          return (
            <div role="cell" key={column.id} data-column={column.id} data-narrow={column.narrow || undefined} className="flex min-w-0 items-center gap-2 px-2">
              <Link href={href} prefetch={false} data-cell-text className={linkClass}>
                {cellText(column.cell(row.obj, now))}
              </Link>
              {terminating && (
                <span className="flex min-w-0 max-w-[60%] shrink">
                  <TickingBadge obj={row.obj} />
                </span>
              )}
            </div>
          );
        }
        if (column.ticking) {
          return (
            <div role="cell" key={column.id} data-cell-text data-column={column.id} data-narrow={column.narrow || undefined} className="tabular truncate px-2 text-slate-700 dark:text-slate-300">
              <TickingText column={column} obj={row.obj} />
            </div>
          );
        }
        const value = cellText(column.cell(row.obj, now));
        if (column.status && value) {
          return (
            <div role="cell" key={column.id} data-column={column.id} data-narrow={column.narrow || undefined} className="flex min-w-0 items-center px-2">
              <StatusBadge tone={statusTone(value)} title={value} testId="status-badge" cell>
                {value}
              </StatusBadge>
            </div>
          );
        }
        const link = column.link?.(row.obj);
        if (link) {
          return (
            <div role="cell" key={column.id} data-column={column.id} data-narrow={column.narrow || undefined} className="flex min-w-0 items-center px-2">
              <Link href={link} prefetch={false} data-cell-text title={value} className={linkClass}>
                {value}
              </Link>
            </div>
          );
        }
        return (
          <div role="cell" key={column.id} data-cell-text data-column={column.id} data-narrow={column.narrow || undefined} className="tabular truncate px-2 text-slate-700 dark:text-slate-300" title={column.title?.(row.obj) ?? value}>
            {value}
          </div>
        );
      })}
    </div>
  );
});

interface Tip {
  text: string;
  top: number;
  left: number;
}

/**
 * Marks the cells the column width cuts short: full text as title, and a tab stop where there is none. All
 * reads first, then the writes, so the layout is computed once; cells already measured at this width are
 * skipped (rows remount when their object changes).
 */
function markTruncated(container: HTMLElement, measured: WeakSet<Element>) {
  const cells: [HTMLElement, boolean][] = [];
  for (const el of container.querySelectorAll<HTMLElement>("[data-cell-text]")) {
    if (measured.has(el)) continue;
    measured.add(el);
    cells.push([el, el.scrollWidth > el.clientWidth + 1]);
  }
  for (const [el, truncated] of cells) {
    const focusable = el.tagName === "A";
    if (truncated) {
      if (el.dataset.truncated === undefined) {
        el.dataset.truncated = "";
        if (!el.title) {
          el.title = el.textContent ?? "";
          el.dataset.autoTitle = "";
        }
        if (!focusable) el.tabIndex = 0;
      }
    } else if (el.dataset.truncated !== undefined) {
      delete el.dataset.truncated;
      if (el.dataset.autoTitle !== undefined) {
        el.removeAttribute("title");
        delete el.dataset.autoTitle;
      }
      if (!focusable) el.removeAttribute("tabindex");
    }
  }
}

export function ResourceTable({ label, columns, rows, changedAt, sort, onSort, selected, onSelect, hrefFor, rowTone, filterKey }: TableProps) {
  const { containerRef, window, viewport } = useVirtualWindow(rows.length, ROW_HEIGHT);
  // Server-rendered rows come before the page's script: a click on a checkbox then would tick it in the HTML
  // and be undone by hydration, so the checkboxes take clicks only once React holds the selection.
  const hydrated = useHydrated();
  // A new filter shows a new list: keeping the old scroll offset would leave its first matches off-screen.
  const lastFilter = useRef(filterKey);
  useEffect(() => {
    if (lastFilter.current === filterKey) return;
    lastFilter.current = filterKey;
    if (containerRef.current) containerRef.current.scrollTop = 0;
  }, [filterKey, containerRef]);
  const template = gridTemplate(columns);
  const narrowColumns = narrowTemplate(columns);
  const narrowStyle = useMemo(() => ({ "--narrow-columns": narrowColumns }) as CSSProperties, [narrowColumns]);
  const [tip, setTip] = useState<Tip | undefined>(undefined);
  const tipId = useId();

  const range = shownRange(viewport.scrollTop, viewport.height, ROW_HEIGHT, ROW_HEIGHT, rows.length);
  const shown: string[] = [];
  for (let i = range.start; i < range.end; i++) shown.push(rows[i].key);
  const header = headerState(selected, shown);
  // The rows the header checkbox took, as they were on screen then (the offer line may take a row's room).
  const [selectedByHeader, setSelectedByHeader] = useState<string[] | undefined>(undefined);
  const offer = selectionOffer(selected, shown, rows.length > shown.length && selected.size > 0 ? rows.map((r) => r.key) : [], selectedByHeader);

  // Measured when the browser is idle, not in the frame that scrolled: a forced layout per frame is what made
  // fast scrolling miss frames; a cell's tab stop can wait until the scrolling stops.
  const measured = useRef<{ width: number; cells: WeakSet<Element> }>({ width: -1, cells: new WeakSet() });
  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    if (measured.current.width !== viewport.width) measured.current = { width: viewport.width, cells: new WeakSet() };
    const cells = measured.current.cells;
    const idle = typeof requestIdleCallback === "function";
    const handle = idle ? requestIdleCallback(() => markTruncated(container, cells), { timeout: 300 }) : setTimeout(() => markTruncated(container, cells), 50);
    return () => (idle ? cancelIdleCallback(handle as number) : clearTimeout(handle as ReturnType<typeof setTimeout>));
  });

  const onFocus = useCallback((e: FocusEvent<HTMLDivElement>) => {
    const el = e.target as HTMLElement;
    if (el.dataset?.truncated === undefined) return;
    const rect = el.getBoundingClientRect();
    el.setAttribute("aria-describedby", tipId);
    setTip({ text: el.textContent ?? "", top: rect.bottom + 4, left: rect.left });
  }, [tipId]);
  const onBlur = useCallback((e: FocusEvent<HTMLDivElement>) => {
    (e.target as HTMLElement).removeAttribute?.("aria-describedby");
    setTip(undefined);
  }, []);

  return (
    <>
      <div role="status" className="empty:hidden border-b border-blue-200 bg-blue-50 px-4 py-1.5 text-sm text-blue-950 dark:border-blue-900 dark:bg-blue-950 dark:text-blue-100" data-testid="selection-offer">
        {offer?.kind === "select-matching" && (
          <>
            {offer.selectedCount === 1 ? "The 1 row shown is selected." : `The ${offer.selectedCount} rows shown are selected.`}{" "}
            <button type="button" className="font-medium underline focus-visible:outline-2 focus-visible:outline-blue-600" onClick={() => onSelect(rows.map((r) => r.key), true)}>
              Select all {offer.matchingCount} matching
            </button>
          </>
        )}
        {offer?.kind === "all-matching" && (
          <>
            All {offer.matchingCount} matching rows are selected.{" "}
            <button type="button" className="font-medium underline focus-visible:outline-2 focus-visible:outline-blue-600" onClick={() => onSelect([...selected], false)}>
              Clear selection
            </button>
          </>
        )}
      </div>
      <div
        ref={containerRef}
        role="table"
        aria-label={label}
        aria-rowcount={rows.length + 1}
        tabIndex={0}
        onFocus={onFocus}
        onBlur={onBlur}
        onScroll={tip ? () => setTip(undefined) : undefined}
        className="cc-table relative min-h-0 flex-1 overflow-auto focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-blue-600 [&_[data-truncated]]:focus-visible:outline-2 [&_[data-truncated]]:focus-visible:outline-blue-600"
        data-testid="resource-table"
      >
        <div role="rowgroup" className="sticky top-0 z-10 bg-white dark:bg-slate-950">
          <div role="row" aria-rowindex={1} className="grid border-b border-slate-200 text-xs font-semibold uppercase tracking-wide text-slate-600 dark:border-slate-700 dark:text-slate-400" style={{ gridTemplateColumns: template, height: ROW_HEIGHT, ...narrowStyle }}>
            <div role="columnheader" className="flex items-center justify-center">
              <input
                type="checkbox"
                checked={header === "checked"}
                disabled={!hydrated}
                ref={(el) => {
                  if (el) el.indeterminate = header === "mixed";
                }}
                onChange={() => {
                  setSelectedByHeader(header !== "checked" ? shown : undefined);
                  onSelect(shown, header !== "checked");
                }}
                aria-label="Select all rows shown"
                data-testid="select-shown"
                className="h-4 w-4 accent-blue-700"
              />
            </div>
            {columns.map((column) => {
              const active = sort?.column === column.id;
              return (
                <div role="columnheader" key={column.id} data-column={column.id} data-narrow={column.narrow || undefined} aria-sort={active ? (sort!.descending ? "descending" : "ascending") : "none"} className="flex min-w-0 items-center">
                  <button
                    type="button"
                    onClick={() => onSort(column.id)}
                    className="flex h-full w-full items-center gap-1 truncate px-2 text-left uppercase hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:hover:text-white"
                  >
                    {column.name}
                    <span aria-hidden="true" className="w-3 text-[10px]">
                      {active ? (sort!.descending ? "▼" : "▲") : ""}
                    </span>
                  </button>
                </div>
              );
            })}
          </div>
        </div>
        <div role="rowgroup" style={{ height: window.totalHeight, position: "relative" }}>
          <div style={{ transform: `translateY(${window.offsetTop}px)` }}>
            {rows.slice(window.start, window.end).map((row, i) => (
              <TableRow
                key={`${row.key}@${changedAt.get(row.key) ?? 0}`}
                row={row}
                index={window.start + i}
                columns={columns}
                flashAt={changedAt.get(row.key)}
                selected={selected.has(row.key)}
                onSelect={onSelect}
                href={hrefFor(row.obj)}
                template={template}
                narrowStyle={narrowStyle}
                tone={rowTone?.(row.obj)}
                hydrated={hydrated}
              />
            ))}
          </div>
        </div>
      </div>
      {tip && (
        <div role="tooltip" id={tipId} data-testid="cell-tooltip" className="fixed z-50 max-w-md rounded-md bg-slate-900 px-2 py-1 text-xs break-words text-white shadow-lg dark:bg-slate-100 dark:text-slate-900" style={{ top: tip.top, left: tip.left }}>
          {tip.text}
        </div>
      )}
    </>
  );
}
