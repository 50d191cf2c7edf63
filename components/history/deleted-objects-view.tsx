"use client";
// A kind's deleted objects (kept for HISTORY_DAYS): each with when and by whom it was deleted, its last
// state, and "Re-create" from that state (a create without uid, resourceVersion, creationTimestamp, status
// and managedFields), after showing what will be created.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { listHref, objectHref } from "@/lib/client/console-routes";
import { kindTitle } from "@/lib/client/navigation";
import { useAccess } from "@/lib/client/use-access";
import { toYaml } from "@/lib/client/yaml-text";
import type { AnyKind } from "@/lib/kinds";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { ErrorState } from "../ui/error-state";
import { PermissionGate } from "../ui/permission-gate";
import { ScrollBox } from "../ui/scroll-box";
import { StateMessage } from "../ui/state-message";
import { useNow } from "../ui/use-now";
import { fetchDeleted, recreateObject, writableCopy, type Revision } from "./history-client";
import { When, who } from "./revision-label";
import { KindGate } from "@/components/layout/kind-gate";

export function DeletedObjectsView(props: { plural: string; namespace?: string }) {
  return <KindGate plural={props.plural}>{(kind) => <DeletedObjectsViewOf kind={kind} {...props} />}</KindGate>;
}

function DeletedObjectsViewOf({ kind, plural, namespace }: { kind: AnyKind; plural: string; namespace?: string }) {
  const ns = kind.namespaced ? namespace : undefined;
  const now = useNow(5_000);
  const router = useRouter();
  const queryClient = useQueryClient();
  const queryKey = ["deleted-objects", plural, ns ?? ""];
  const deleted = useQuery({ queryKey, queryFn: () => fetchDeleted(kind, ns), refetchInterval: 10_000, retry: false });
  const createAccess = useAccess(kind, "create", { namespace: ns ?? "default" });
  const [chosen, setChosen] = useState<Revision | undefined>();
  const [error, setError] = useState<Error | undefined>();
  const [busy, setBusy] = useState(false);
  const scope = kind.namespaced ? (ns ? `in namespace ${ns}` : "in all namespaces") : "(cluster-scoped)";

  const recreate = async (r: Revision) => {
    setBusy(true);
    setError(undefined);
    try {
      const made = await recreateObject(kind, r);
      void queryClient.invalidateQueries({ queryKey });
      router.push(objectHref(kind, made.metadata.namespace, made.metadata.name ?? ""));
    } catch (e) {
      setError(e as Error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="flex flex-wrap items-center gap-3 border-b border-slate-200 px-4 py-2 dark:border-slate-800">
        <nav aria-label="Breadcrumb" className="text-sm">
          <Link href={listHref(kind, ns)} className="text-blue-800 hover:underline dark:text-blue-300">{kindTitle(kind)}</Link>
        </nav>
        <h1 className="text-lg font-semibold">
          Deleted {kindTitle(kind)} <span className="text-sm font-normal text-slate-700 dark:text-slate-300">{scope}</span>
        </h1>
      </div>
      {deleted.error ? (
        <ErrorState error={deleted.error as Error} title={`Could not list deleted ${kindTitle(kind)}`} />
      ) : !deleted.data ? (
        <StateMessage title="Loading…" />
      ) : deleted.data.items.length === 0 ? (
        <StateMessage title={`No deleted ${kindTitle(kind)} kept ${scope}`}>
          <p>Deleted objects are kept for the server&apos;s HISTORY_DAYS.</p>
        </StateMessage>
      ) : (
        <div className="min-h-0 flex-1 overflow-y-auto px-4 py-3">
          <table className="w-full text-sm" data-testid="deleted-table">
            <thead>
              <tr className="text-left text-xs text-slate-700 dark:text-slate-300">
                <th className="px-2 py-1 font-medium">Name</th>
                {kind.namespaced && !ns && <th className="px-2 py-1 font-medium">Namespace</th>}
                <th className="px-2 py-1 font-medium">Deleted</th>
                <th className="px-2 py-1 font-medium">By</th>
                <th className="px-2 py-1 font-medium"><span className="sr-only">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {deleted.data.items.map((r) => (
                <tr key={`${r.object.metadata.namespace}/${r.object.metadata.name}`} className="border-t border-slate-200 dark:border-slate-800" data-testid="deleted-row">
                  <td className="px-2 py-1 font-mono">{r.object.metadata.name}</td>
                  {kind.namespaced && !ns && <td className="px-2 py-1">{r.object.metadata.namespace}</td>}
                  <td className="px-2 py-1"><When time={r.time} now={now} /></td>
                  <td className="px-2 py-1">{who(r)}</td>
                  <td className="px-2 py-1 text-right">
                    <PermissionGate access={createAccess}>
                      {(denied) => (
                        <Button disabled={denied} onClick={() => { setError(undefined); setChosen(r); }} data-testid="recreate-open">
                          Re-create…
                        </Button>
                      )}
                    </PermissionGate>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {chosen && (
        <Dialog open wide onClose={() => setChosen(undefined)} title={`Re-create ${kind.kind} ${chosen.object.metadata.name}`}
          footer={
            <>
              <Button onClick={() => setChosen(undefined)}>Cancel</Button>
              <Button variant="primary" disabled={busy} onClick={() => void recreate(chosen)} data-testid="recreate-confirm">
                {busy ? "Creating…" : "Create"}
              </Button>
            </>
          }>
          <p className="mb-2 text-sm">Its last state before the deletion (resourceVersion {chosen.resourceVersion}), created again as:</p>
          <ScrollBox as="pre" label="YAML to create" className="max-h-[28rem] overflow-auto rounded-md bg-slate-50 p-3 font-mono text-xs dark:bg-slate-950" testId="recreate-yaml">
            {toYaml(writableCopy(chosen.object, false))}
          </ScrollBox>
          {error && (
            <p role="alert" className="mt-2 rounded-md border border-red-300 bg-red-50 p-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100" data-testid="recreate-error">
              {error.message}
            </p>
          )}
        </Dialog>
      )}
    </div>
  );
}
