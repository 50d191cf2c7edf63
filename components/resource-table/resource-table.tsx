"use client";
// The generic live table: columns from the kind declaration, rows windowed, header sortable, rows that a
// watch event just changed flash once. ARIA table roles on a CSS grid, so windowing keeps row semantics
// (aria-rowindex/aria-rowcount tell assistive tech where a row sits in the whole list).
import Link from "next/link";
import { memo } from "react";
import type { ColumnView, Row } from "@/lib/client/list-rows";
import type { KubeObject } from "@/lib/kinds";
import { TerminatingBadge } from "../ui/terminating-badge";
import { useVirtualWindow } from "./use-virtual-window";

export const ROW_HEIGHT = 34;

export interface SortState {
  column: string;
  descending: boolean;
}

interface TableProps {
  label: string;
  columns: ColumnView[];
  rows: Row[];
  now: number;
  changedAt: Map<string, number>;
  sort: SortState | undefined;
  onSort: (column: string) => void;
  selected: Set<string>;
  onSelect: (keys: string[], selected: boolean) => void;
  hrefFor: (obj: KubeObject) => string;
}

function gridTemplate(columns: ColumnView[]): string {
  return ["2.25rem", ...columns.map((c) => (c.id === "Name" ? "minmax(12rem,2.5fr)" : c.id === "Message" ? "minmax(14rem,3fr)" : "minmax(6rem,1fr)"))].join(" ");
}

const cellText = (value: string | number | boolean) => (typeof value === "boolean" ? String(value) : value);

const TableRow = memo(function TableRow({
  row,
  index,
  columns,
  now,
  flashAt,
  selected,
  onSelect,
  href,
  template,
}: {
  row: Row;
  index: number;
  columns: ColumnView[];
  now: number;
  flashAt: number | undefined;
  selected: boolean;
  onSelect: (keys: string[], selected: boolean) => void;
  href: string;
  template: string;
}) {
  const terminating = !!row.obj.metadata?.deletionTimestamp;
  const flashing = flashAt !== undefined && now - flashAt < 1_500;
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      data-key={row.key}
      data-testid="resource-row"
      className={`grid items-center border-b border-slate-100 text-sm hover:bg-slate-50 dark:border-slate-800/70 dark:hover:bg-slate-900 ${flashing ? "row-flash" : ""} ${selected ? "bg-blue-50/60 dark:bg-blue-950/40" : ""}`}
      style={{ gridTemplateColumns: template, height: ROW_HEIGHT }}
    >
      <div role="cell" className="flex justify-center">
        <input
          type="checkbox"
          checked={selected}
          onChange={(e) => onSelect([row.key], e.target.checked)}
          aria-label={`Select ${row.key}`}
          className="h-4 w-4 accent-blue-700"
        />
      </div>
      {columns.map((column) => {
        const value = cellText(column.cell(row.obj, now));
        if (column.id === "Name") {
          return (
            <div role="cell" key={column.id} className="flex min-w-0 items-center gap-2 truncate px-2">
              <Link href={href} className="truncate font-medium text-blue-800 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-blue-300">
                {value}
              </Link>
              {terminating && (
                <span className="flex min-w-0 max-w-[60%] shrink">
                  <TerminatingBadge obj={row.obj} now={now} size="sm" />
                </span>
              )}
            </div>
          );
        }
        return (
          <div role="cell" key={column.id} className="tabular truncate px-2 text-slate-700 dark:text-slate-300" title={String(value)}>
            {value}
          </div>
        );
      })}
    </div>
  );
});

export function ResourceTable({ label, columns, rows, now, changedAt, sort, onSort, selected, onSelect, hrefFor }: TableProps) {
  const { containerRef, window } = useVirtualWindow(rows.length, ROW_HEIGHT);
  const template = gridTemplate(columns);
  const allSelected = rows.length > 0 && rows.every((r) => selected.has(r.key));
  const someSelected = !allSelected && rows.some((r) => selected.has(r.key));
  return (
    <div
      ref={containerRef}
      role="table"
      aria-label={label}
      aria-rowcount={rows.length + 1}
      tabIndex={0}
      className="relative min-h-0 flex-1 overflow-auto focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-blue-600"
      data-testid="resource-table"
    >
      <div role="rowgroup" className="sticky top-0 z-10 bg-white dark:bg-slate-950">
        <div role="row" aria-rowindex={1} className="grid border-b border-slate-200 text-xs font-semibold uppercase tracking-wide text-slate-600 dark:border-slate-700 dark:text-slate-400" style={{ gridTemplateColumns: template, height: ROW_HEIGHT }}>
          <div role="columnheader" className="flex items-center justify-center">
            <input
              type="checkbox"
              checked={allSelected}
              ref={(el) => {
                if (el) el.indeterminate = someSelected;
              }}
              onChange={(e) => onSelect(rows.map((r) => r.key), e.target.checked)}
              aria-label="Select all rows shown"
              className="h-4 w-4 accent-blue-700"
            />
          </div>
          {columns.map((column) => {
            const active = sort?.column === column.id;
            return (
              <div role="columnheader" key={column.id} aria-sort={active ? (sort!.descending ? "descending" : "ascending") : "none"} className="flex min-w-0 items-center">
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
              now={now}
              flashAt={changedAt.get(row.key)}
              selected={selected.has(row.key)}
              onSelect={onSelect}
              href={hrefFor(row.obj)}
              template={template}
            />
          ))}
        </div>
      </div>
    </div>
  );
}
