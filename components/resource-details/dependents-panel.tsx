"use client";
// The objects that name this one as an owner (its dependents, which the garbage collector deletes with it), as
// links, live: found from every kind the user can list where dependents can live (lib/client/use-ownership.ts).
// Kinds that could not be listed are named, so "none" is never claimed when it is not known.
import { useMemo } from "react";
import { dependentsOf, referenceTo, type Located } from "@/lib/client/dependents";
import { kindTitle } from "@/lib/client/navigation";
import { dependentScope, useOwnershipLists, type UnlistedKind } from "@/lib/client/use-ownership";
import type { AnyKind, KubeObject } from "@/lib/kinds";
import { Muted, ObjectLink } from "../kinds/field-list";
import { TerminatingBadge } from "../ui/terminating-badge";
import { Section } from "./section";

const FOREGROUND_FINALIZER = "foregroundDeletion";

/** "ConfigMap team-a/web" (namespace shown when there is one). */
export function locatedLabel(item: Located): string {
  const m = item.obj.metadata;
  return `${item.kind} ${m.namespace ? `${m.namespace}/` : ""}${m.name ?? ""}`;
}

export const locatedKey = (item: Located) => `${item.kind}/${item.obj.metadata.namespace ?? ""}/${item.obj.metadata.name ?? ""}`;

/** Says which kinds could not be searched (403: the user's roles), so a short list is not read as complete. */
export function UnlistedNote({ unlisted, what }: { unlisted: UnlistedKind[]; what: string }) {
  if (unlisted.length === 0) return null;
  const forbidden = unlisted.filter((u) => u.code === 403);
  const failed = unlisted.filter((u) => u.code !== 403);
  const titles = (list: UnlistedKind[]) => list.map((u) => kindTitle(u.kind)).join(", ");
  return (
    <p
      data-testid="dependents-unlisted"
      className="mt-2 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
      title={unlisted.map((u) => `${kindTitle(u.kind)}: ${u.message}`).join("\n")}
    >
      There may be {what} not shown.{" "}
      {forbidden.length > 0 && <>Your roles do not allow listing {titles(forbidden)} here (403). </>}
      {failed.length > 0 && (
        <>
          {titles(failed)} could not be listed ({failed[0].message}).
        </>
      )}
    </p>
  );
}

export function DependentsPanel({ kind, obj, now }: { kind: AnyKind; obj: KubeObject; now: number }) {
  const lists = useOwnershipLists(dependentScope(kind, obj.metadata.namespace));
  const uid = obj.metadata.uid ?? "";
  const dependents = useMemo(() => dependentsOf(lists.graph, { kind: kind.kind, namespaced: kind.namespaced, obj }), [lists.graph, kind, obj]);
  const foreground = !!obj.metadata.deletionTimestamp && (obj.metadata.finalizers ?? []).includes(FOREGROUND_FINALIZER);
  const loading = lists.loading.length > 0;
  return (
    <Section title="Dependents" testId="dependents">
      <p className="mb-1 text-sm text-slate-600 dark:text-slate-400">
        Objects that name this {kind.kind} as their owner{dependents.length ? ` (${dependents.length})` : ""}; deleting it with dependents deletes them too.
      </p>
      {foreground && (
        <p className="mb-1 text-sm" data-testid="foreground-note">
          Deleting in the foreground: this {kind.kind} goes once the dependents that block its deletion are gone.
        </p>
      )}
      {dependents.length > 0 && (
        <ul className="text-sm" data-testid="dependent-list">
          {dependents.map((d) => {
            const ref = referenceTo(d, uid);
            return (
              <li key={locatedKey(d)} data-testid="dependent" data-key={locatedKey(d)} className="flex min-w-0 flex-wrap items-center gap-x-2">
                <ObjectLink kind={d.kind} namespace={d.obj.metadata.namespace} name={d.obj.metadata.name ?? ""}>
                  {locatedLabel(d)}
                </ObjectLink>
                {ref?.controller && <Muted>controller</Muted>}
                {ref?.blockOwnerDeletion && <Muted>blocks owner deletion</Muted>}
                <TerminatingBadge obj={d.obj} now={now} size="sm" />
              </li>
            );
          })}
        </ul>
      )}
      {loading ? (
        <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="dependents-loading">
          Looking in {lists.loading.length} more {lists.loading.length === 1 ? "kind" : "kinds"}…
        </p>
      ) : (
        dependents.length === 0 && (
          <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="dependents-none">
            {lists.unlisted.length ? "None in the kinds you can list." : "None."}
          </p>
        )
      )}
      <UnlistedNote unlisted={lists.unlisted} what="dependents" />
    </Section>
  );
}
