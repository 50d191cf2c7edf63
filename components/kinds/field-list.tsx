"use client";
// Small pieces the kind sections share: a definition list of fields and a link to another object's page
// (plain text when this server does not serve the kind).
import Link from "next/link";
import type { ReactNode } from "react";
import { objectHref } from "@/lib/client/console-routes";
import { kindByKind } from "@/lib/kinds";

export type Field = [label: string, value: ReactNode, testId?: string];

export function FieldList({ fields, testId }: { fields: Field[]; testId?: string }) {
  const shown = fields.filter(([, v]) => v !== undefined && v !== null && v !== "");
  return (
    <dl className="grid grid-cols-[12rem_1fr] gap-x-4 gap-y-1 text-sm" data-testid={testId}>
      {shown.map(([label, value, id]) => (
        <div key={label} className="contents">
          <dt className="text-slate-600 dark:text-slate-400">{label}</dt>
          <dd className="min-w-0 break-all" data-testid={id}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function ObjectLink({ kind, namespace, name, testId, children }: { kind: string; namespace?: string; name: string; testId?: string; children?: ReactNode }) {
  const k = kindByKind(kind);
  const label = children ?? name;
  if (!k) return <span data-testid={testId}>{label}</span>;
  return (
    <Link className="text-blue-800 underline dark:text-blue-300" href={objectHref(k, namespace, name)} data-testid={testId}>
      {label}
    </Link>
  );
}

export const Muted = ({ children }: { children: ReactNode }) => <span className="text-slate-600 dark:text-slate-400">{children}</span>;

/** A list's live state in a few words, for sections that watch another object. */
export function LoadNote({ error, loading, what }: { error: Error | null; loading: boolean; what: string }) {
  if (error) return <p className="text-sm text-slate-600 dark:text-slate-400">{what} not shown: {error.message}</p>;
  if (loading) return <p className="text-sm text-slate-600 dark:text-slate-400">Loading {what.toLowerCase()}…</p>;
  return null;
}
