"use client";
// The object page's History tab: every revision the server keeps (lib/history), newest first, with who
// made it and when; a diff between any two revisions; "Restore this version" after a diff against the
// current object, sent as an update holding the current resourceVersion (a change made meanwhile is a 409,
// shown in place, and the diff can be reviewed again).
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { isApiError } from "@/lib/client/api-error";
import type { Access } from "@/lib/client/use-access";
import { toYaml } from "@/lib/client/yaml-text";
import type { AnyKind, KubeObject } from "@/lib/kinds";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { ErrorState } from "../ui/error-state";
import { PermissionGate } from "../ui/permission-gate";
import { StateMessage } from "../ui/state-message";
import { useNow } from "../ui/use-now";
import { fetchObjectHistory, restoreRevision, writableCopy, type Revision } from "./history-client";
import { revisionText, TypeBadge, When, who } from "./revision-label";
import { TextDiff } from "./text-diff";

/** An object's YAML as compared between revisions: without what the server bumps on every write (managedFields, resourceVersion, generation). */
export function comparable(obj: KubeObject | undefined): string {
  if (!obj) return "";
  const { managedFields: _m, resourceVersion: _r, generation: _g, ...metadata } = obj.metadata ?? {};
  return toYaml({ ...obj, metadata });
}

export function ObjectHistory({ kind, namespace, name, current, updateAccess }: {
  kind: AnyKind; namespace?: string; name: string; current?: KubeObject; updateAccess: Access;
}) {
  const now = useNow(5_000);
  const queryClient = useQueryClient();
  const queryKey = ["object-history", kind.plural, namespace ?? "", name];
  const history = useQuery({
    queryKey: [...queryKey, current?.metadata.resourceVersion ?? ""],
    queryFn: () => fetchObjectHistory(kind, namespace, name),
    // Refetched as the live object changes: keep showing the last answer (and an open restore dialog) meanwhile.
    placeholderData: keepPreviousData,
    retry: false,
  });
  const items = history.data?.items ?? [];
  const [to, setTo] = useState<string | undefined>();
  const [from, setFrom] = useState<string | undefined>();
  const [restoring, setRestoring] = useState<Revision | undefined>();
  const byRv = useMemo(() => new Map(items.map((r) => [r.resourceVersion, r])), [items]);
  const toRev = (to && byRv.get(to)) || items[0];
  const toIndex = toRev ? items.indexOf(toRev) : -1;
  const fromRev = (from && byRv.get(from)) || items[toIndex + 1];

  if (history.error) {
    if (isApiError(history.error) && history.error.code === 404) return <StateMessage title="No history kept for this object yet" />;
    return <ErrorState error={history.error as Error} title="Could not load the history" />;
  }
  if (!history.data) return <StateMessage title="Loading history…" />;

  const select = (r: Revision) => {
    setTo(r.resourceVersion);
    setFrom(items[items.indexOf(r) + 1]?.resourceVersion);
  };
  const currentRv = current?.metadata.resourceVersion;

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-4 overflow-y-auto px-6 py-4 lg:flex-row" data-testid="history-tab">
      <section aria-labelledby="timeline-title" className="lg:w-96 lg:shrink-0">
        <h2 id="timeline-title" className="mb-2 text-sm font-semibold">
          Timeline <span className="font-normal text-slate-700 dark:text-slate-300">({items.length} revision{items.length === 1 ? "" : "s"} kept)</span>
        </h2>
        <ol className="space-y-1" data-testid="history-timeline">
          {items.map((r) => {
            const selected = r === toRev;
            const isCurrent = r.resourceVersion === currentRv;
            return (
              <li key={r.resourceVersion} data-testid="history-revision" data-rv={r.resourceVersion}
                className={`rounded-md border px-2 py-1.5 ${selected ? "border-blue-600 bg-blue-50 dark:border-blue-400 dark:bg-slate-800" : "border-slate-200 dark:border-slate-700"}`}>
                <button type="button" className="flex w-full flex-wrap items-center gap-2 text-left text-sm" aria-pressed={selected}
                  onClick={() => select(r)} data-testid="history-select">
                  <TypeBadge type={r.type} />
                  <span className="font-medium" data-testid="history-user">{who(r)}</span>
                  <When time={r.time} now={now} />
                  <span className="ml-auto font-mono text-xs text-slate-700 dark:text-slate-300">rv {r.resourceVersion}{isCurrent ? " (current)" : ""}</span>
                </button>
                {selected && current && !isCurrent && r.type !== "DELETED" && (
                  <PermissionGate access={updateAccess}>
                    {(denied) => (
                      <Button className="mt-1" disabled={denied} onClick={() => setRestoring(r)} data-testid="history-restore">
                        Restore this version…
                      </Button>
                    )}
                  </PermissionGate>
                )}
              </li>
            );
          })}
        </ol>
      </section>
      <section aria-labelledby="diff-title" className="min-w-0 flex-1">
        <h2 id="diff-title" className="mb-2 text-sm font-semibold">Changes</h2>
        <div className="mb-2 flex flex-wrap items-center gap-2 text-sm">
          <label htmlFor="diff-from">From</label>
          <select id="diff-from" data-testid="diff-from" value={fromRev?.resourceVersion ?? ""} onChange={(e) => setFrom(e.target.value)}
            className="max-w-xs rounded-md border border-slate-300 bg-white px-1 py-0.5 dark:border-slate-600 dark:bg-slate-900">
            <option value="">(nothing: before it existed)</option>
            {items.map((r) => <option key={r.resourceVersion} value={r.resourceVersion}>{revisionText(r, now)}</option>)}
          </select>
          <label htmlFor="diff-to">to</label>
          <select id="diff-to" data-testid="diff-to" value={toRev?.resourceVersion ?? ""} onChange={(e) => setTo(e.target.value)}
            className="max-w-xs rounded-md border border-slate-300 bg-white px-1 py-0.5 dark:border-slate-600 dark:bg-slate-900">
            {items.map((r) => <option key={r.resourceVersion} value={r.resourceVersion}>{revisionText(r, now)}</option>)}
          </select>
        </div>
        {toRev && (
          <TextDiff before={fromRev ? comparable(fromRev.object) : ""} after={comparable(toRev.object)}
            label={`Changes from ${fromRev ? `resourceVersion ${fromRev.resourceVersion}` : "nothing"} to resourceVersion ${toRev.resourceVersion}`} />
        )}
      </section>
      {restoring && current && (
        <RestoreDialog kind={kind} revision={restoring} current={current} now={now}
          onClose={() => setRestoring(undefined)}
          onRestored={() => { setRestoring(undefined); void queryClient.invalidateQueries({ queryKey }); }} />
      )}
    </div>
  );
}

function RestoreDialog({ kind, revision, current, now, onClose, onRestored }: {
  kind: AnyKind; revision: Revision; current: KubeObject; now: number; onClose: () => void; onRestored: (obj: KubeObject) => void;
}) {
  // The object the diff was made against: the restore holds only if the object is still at its resourceVersion.
  const [base, setBase] = useState(current);
  const [error, setError] = useState<Error | undefined>();
  const [busy, setBusy] = useState(false);
  const conflict = isApiError(error) && error.code === 409;
  const restore = async () => {
    setBusy(true);
    setError(undefined);
    try {
      onRestored(await restoreRevision(kind, revision, base.metadata.resourceVersion ?? ""));
    } catch (e) {
      setError(e as Error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open wide onClose={onClose} title={`Restore ${kind.kind} ${revision.object.metadata.name} to ${revisionText(revision, now)}`}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          {conflict && (
            <Button onClick={() => { setBase(current); setError(undefined); }} data-testid="restore-review-again">Review the new diff</Button>
          )}
          <Button variant="primary" disabled={busy || conflict} onClick={() => void restore()} data-testid="restore-confirm">
            {busy ? "Restoring…" : "Restore"}
          </Button>
        </>
      }>
      <p className="mb-2 text-sm">
        What changes from the current object (resourceVersion <span className="font-mono">{base.metadata.resourceVersion}</span>) if
        this version is written back. It is refused if the object changes before you confirm.
      </p>
      <TextDiff before={comparable(writableCopy(base))} after={comparable(writableCopy(revision.object))} label="Changes the restore makes" testId="restore-diff" />
      {error && (
        <p role="alert" className="mt-2 rounded-md border border-red-300 bg-red-50 p-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100" data-testid="restore-error">
          {conflict ? "The object changed since this diff was made; nothing was restored. " : ""}
          <span className="font-mono text-xs">{error.message}</span>
        </p>
      )}
    </Dialog>
  );
}
