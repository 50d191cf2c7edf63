"use client";
// Who manages which field of the object (metadata.managedFields, decoded from FieldsV1), collapsed by default
// as kubectl hides them. The list and watch caches drop managedFields, so opening the panel GETs the object,
// again whenever its resourceVersion changes.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { managerFields } from "./managed-fields";
import { getObject } from "@/lib/client/object-writes";
import { maskIfSecret } from "@/lib/client/secret-mask";
import { queryKeys } from "@/lib/client/query-keys";
import { CONSOLE_FIELD_MANAGER } from "@/lib/client/object-writes";
import type { AnyKind, KubeObject } from "@/lib/kinds";
import { ScrollBox } from "../ui/scroll-box";
import { FieldPathList } from "./field-path-list";

export function ManagedFieldsPanel({ kind, live }: { kind: AnyKind; live: KubeObject }) {
  const [open, setOpen] = useState(false);
  const namespace = live.metadata.namespace;
  const name = live.metadata.name ?? "";
  const query = useQuery({
    queryKey: queryKeys.managedFields(kind.plural, namespace ?? "", name, live.metadata.resourceVersion ?? ""),
    // Only managedFields are read here; a Secret's values stay out of the cache all the same.
    queryFn: async () => maskIfSecret(kind, await getObject(kind, namespace, name)),
    enabled: open,
    staleTime: Infinity,
    retry: false,
  });
  const rows = managerFields(query.data);

  return (
    <details
      className="border-b border-slate-200 px-4 py-2 text-sm dark:border-slate-800"
      data-testid="managed-fields"
      onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}
    >
      <summary className="cursor-pointer font-medium" data-testid="managed-fields-toggle">
        Managed fields{query.data ? ` (${rows.length} manager${rows.length === 1 ? "" : "s"})` : ""}
        <span className="ml-2 font-normal text-slate-600 dark:text-slate-400">who set which field (server-side apply)</span>
      </summary>
      {open && query.isPending && <p className="mt-2 text-slate-600 dark:text-slate-400">Loading…</p>}
      {open && query.error && <p className="mt-2 text-red-800 dark:text-red-300">{(query.error as Error).message}</p>}
      {query.data && rows.length === 0 && <p className="mt-2 text-slate-600 dark:text-slate-400">No manager is recorded for this object.</p>}
      {query.data && rows.length > 0 && (
        <ScrollBox label="Managed fields by manager" className="mt-2 max-h-72 overflow-y-auto">
          <ul className="space-y-2">
            {rows.map((row, i) => (
              <li key={i} data-testid="managed-fields-manager" data-manager={row.manager} data-operation={row.operation}>
                <p>
                  <span className="font-mono font-semibold">{row.manager}</span>
                  {row.manager === CONSOLE_FIELD_MANAGER && <span className="ml-1 rounded bg-blue-100 px-1 text-xs text-blue-900 dark:bg-blue-900 dark:text-blue-100">this console</span>}
                  <span className="ml-2 text-xs text-slate-600 dark:text-slate-400">
                    {row.operation}
                    {row.apiVersion && ` · ${row.apiVersion}`}
                    {row.subresource && ` · subresource ${row.subresource}`}
                    {row.time && (
                      <>
                        {" · "}
                        <time dateTime={row.time}>{row.time}</time>
                      </>
                    )}
                    {` · ${row.fields.length} field${row.fields.length === 1 ? "" : "s"}`}
                  </span>
                </p>
                {row.error && <p className="text-xs text-red-800 dark:text-red-300">{row.error}</p>}
                <FieldPathList paths={row.fields} className="ml-4" testId="managed-fields-paths" />
              </li>
            ))}
          </ul>
        </ScrollBox>
      )}
    </details>
  );
}
