"use client";
// A kind's live list: the toolbar (live indicator, text filter over every column, label selector, pause,
// wide, create, delete selected) over the windowed table. One watch for the view; pausing freezes what is shown while the cache
// stays live underneath, and the count of waiting changes is the difference in folded events. Create and
// Delete follow the user's RBAC rules (disabled with the reason when not allowed); a 403 on the list shows
// kube's message in place of the table.
import Link from "next/link";
import { useCallback, useDeferredValue, useMemo, useRef, useState } from "react";
import { createHref, listHref, objectHref } from "@/lib/client/console-routes";
import { columnViews, createRowSelector, defaultSort } from "@/lib/client/list-rows";
import { toggleKeys } from "@/lib/client/list-selection";
import { listStateFromBody, type ListState } from "@/lib/client/list-state";
import { kindTitle } from "@/lib/client/navigation";
import { createsByNameOnly, DEFAULT_NAMESPACE } from "@/lib/client/templates";
import { useAccessChecker } from "@/lib/client/use-access";
import { useResourceList } from "@/lib/client/use-resource-list";
import type { AnyKind, KubeObject } from "@/lib/kinds";
import { parseLabelSelector } from "@/lib/selectors/label-selector";
import { ReachableNamespaces, useLandInReachableNamespace } from "../layout/reachable-namespaces";
import { CreateByNameDialog } from "../resource-actions/create-by-name-dialog";
import { DeleteDialog } from "../resource-actions/delete-dialog";
import { Button } from "../ui/button";
import { ErrorState } from "../ui/error-state";
import { isForbidden } from "../ui/forbidden";
import { PermissionGate } from "../ui/permission-gate";
import { StateMessage } from "../ui/state-message";
import { useShortcutHints } from "../ui/use-shortcut-hints";
import { LiveIndicator } from "./live-indicator";
import { ResourceTable, type RowTone } from "./resource-table";
import { useListUrlState } from "./use-list-url-state";
import { ChangeAnnouncer } from "./change-announcer";
import { RenderedAt } from "./clock";
import type { FirstPage } from "./first-page";
import { deletedHref } from "../history/history-client";
import { useClaimReasonColumn } from "../kinds/persistent-volume-claim/claim-reason-column";
import { KindGate } from "@/components/layout/kind-gate";

/** Warning events stand out from the Normal ones around them. */
const eventTone = (obj: KubeObject): RowTone => ((obj as { type?: string }).type === "Warning" ? "warning" : undefined);

/**
 * `firstPage`: the list's first rows as the server read them for this page, shown (not live, not selectable)
 * until the browser's list of the whole collection arrives — only while the view shows rows in name order.
 */
export function ResourceListView(props: { plural: string; namespace?: string; firstPage?: FirstPage }) {
  return <KindGate plural={props.plural}>{(kind) => <ResourceListViewOf kind={kind} {...props} />}</KindGate>;
}

function ResourceListViewOf({ kind, plural, namespace, firstPage }: { kind: AnyKind; plural: string; namespace?: string; firstPage?: FirstPage }) {
  const title = kindTitle(kind);
  const url = useListUrlState();
  const list = useResourceList(kind, { namespace });
  const [frozen, setFrozen] = useState<ListState | undefined>(undefined);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [deleting, setDeleting] = useState<KubeObject[] | undefined>(undefined);
  const [creatingByName, setCreatingByName] = useState(false);
  const filterRef = useRef<HTMLInputElement>(null);
  const shortcutHints = useShortcutHints();

  const live = list.data;
  const firstPageState = useMemo(() => (firstPage ? listStateFromBody({ items: firstPage.items }) : undefined), [firstPage]);
  const nameOrder = kind.kind !== "Event" && !url.text && !url.labels && (!url.sort || (url.sort === "Name" && !url.descending));
  const provisional = !live && !frozen && !list.error && nameOrder ? firstPageState : undefined;
  const shown = frozen ?? live ?? provisional;
  const pending = frozen && live ? (live.epoch === frozen.epoch ? live.eventCount - frozen.eventCount : -1) : 0;
  const allNamespaces = kind.namespaced && !namespace;
  // A claims list adds why each Pending claim waits, after its Status (from the binder's Events).
  const claimReason = useClaimReasonColumn(kind, namespace, live);
  const columns = useMemo(() => {
    const printed = columnViews(kind.columns, { wide: url.wide, allNamespaces, kind: kind.kind });
    if (!claimReason) return printed;
    const at = printed.findIndex((c) => c.id === "Status") + 1;
    return [...printed.slice(0, at), claimReason, ...printed.slice(at)];
  }, [kind, url.wide, allNamespaces, claimReason]);

  const labelText = useDeferredValue(url.labels);
  const selectorResult = useMemo(() => {
    if (!labelText.trim()) return { selector: null as ReturnType<typeof parseLabelSelector> | null, error: undefined as string | undefined };
    try {
      return { selector: parseLabelSelector(labelText), error: undefined };
    } catch (e) {
      return { selector: null, error: (e as Error).message };
    }
  }, [labelText]);
  const text = useDeferredValue(url.text);
  const fallbackSort = url.sort ? undefined : defaultSort(kind.kind);
  const sortColumn = columns.find((c) => c.id === (url.sort ?? fallbackSort?.column));
  const descending = url.sort ? url.descending : (fallbackSort?.descending ?? false);
  // One selector per view: after a watch event it re-places only the rows whose objects changed.
  const selectorRef = useRef<ReturnType<typeof createRowSelector>>(undefined);
  selectorRef.current ??= createRowSelector();
  // Sort keys use the time of the last data change, not the ticking clock, so rows do not reshuffle each second.
  const rows = useMemo(
    () =>
      shown
        ? selectorRef.current!(shown.items, {
            text,
            selector: selectorResult.error ? null : selectorResult.selector,
            sort: sortColumn ? { column: sortColumn, descending } : undefined,
            columns,
            now: Date.now(),
          })
        : [],
    [shown, text, selectorResult, sortColumn, descending, columns],
  );

  const selectedObjects = useMemo(() => {
    const out: KubeObject[] = [];
    for (const key of selected) {
      const obj = live?.items.get(key);
      if (obj) out.push(obj);
    }
    return out;
  }, [selected, live]);

  const onSelect = useCallback((keys: string[], on: boolean) => setSelected((prev) => toggleKeys(prev, keys, on)), []);

  const onSort = (column: string) => {
    if (sortColumn?.id === column) url.setSort(column, !descending);
    else url.setSort(column, false);
  };

  // Create goes where the create view puts it: the namespace shown, else `default`.
  const createTarget = { namespace: kind.namespaced ? namespace || DEFAULT_NAMESPACE : undefined };
  const targets = useMemo(
    () => [createTarget, ...selectedObjects.map((o) => ({ namespace: o.metadata.namespace, name: o.metadata.name }))],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [selectedObjects, createTarget.namespace],
  );
  const can = useAccessChecker(kind, targets, ["create", "delete"]);
  const createAccess = can("create", createTarget);
  const deniedDeletes = selectedObjects.filter((o) => !can("delete", { namespace: o.metadata.namespace, name: o.metadata.name }).allowed);
  const deleteAccess =
    selectedObjects.length > 0 && deniedDeletes.length === selectedObjects.length
      ? can("delete", { namespace: deniedDeletes[0].metadata.namespace, name: deniedDeletes[0].metadata.name })
      : { decision: "unknown" as const, allowed: true };
  const byName = createsByNameOnly(kind);

  // This kind across all namespaces is refused: open it in the first namespace the user's roles reach.
  useLandInReachableNamespace(kind.namespaced && !namespace && isForbidden(list.error) && !shown, (ns) => listHref(kind, ns));

  const total = shown?.items.size ?? 0;
  const scopeText = kind.namespaced ? (namespace ? `in namespace ${namespace}` : "in all namespaces") : "(cluster-scoped)";

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="flex flex-wrap items-center gap-3 border-b border-slate-200 px-4 py-2 dark:border-slate-800">
        <h1 className="text-lg font-semibold">
          {title} <span className="text-sm font-normal text-slate-600 dark:text-slate-400">{scopeText}</span>
        </h1>
        <LiveIndicator status={list.status} paused={!!frozen} detail={list.statusDetail} />
        <span className="tabular w-32 text-xs text-slate-600 dark:text-slate-400" data-testid="row-count">
          {provisional ? `first ${total} of ${firstPage?.total ?? "…"}` : shown ? (rows.length === total ? `${total} total` : `${rows.length} of ${total}`) : ""}
        </span>
        <div className="ml-auto flex flex-wrap items-center gap-2">
          <label className="sr-only" htmlFor="name-filter">
            Filter by name or any column
          </label>
          <input
            id="name-filter"
            ref={filterRef}
            data-shortcut-filter
            value={url.text}
            onChange={(e) => url.setText(e.target.value)}
            onBlur={url.flush}
            onKeyDown={(e) => e.key === "Escape" && (url.setText(""), filterRef.current?.blur())}
            placeholder={shortcutHints ? "Filter rows  ( / )" : "Filter rows"}
            className="w-48 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-900"
          />
          <label className="sr-only" htmlFor="label-filter">
            Label selector
          </label>
          <input
            id="label-filter"
            value={url.labels}
            onChange={(e) => url.setLabels(e.target.value)}
            onBlur={url.flush}
            placeholder="Labels, e.g. app=web"
            aria-invalid={!!selectorResult.error}
            aria-describedby={selectorResult.error ? "label-error" : undefined}
            className={`w-56 max-w-full rounded-md border bg-white px-2 py-1 font-mono text-sm dark:bg-slate-900 ${selectorResult.error ? "border-red-600" : "border-slate-300 dark:border-slate-700"}`}
          />
          <Button onClick={() => (frozen ? setFrozen(undefined) : setFrozen(live))} aria-pressed={!!frozen} disabled={!live} data-testid="pause-button">
            {frozen ? "Resume" : "Pause"}
            {/* Only while paused: an empty box kept for it made the button twice as wide as "Pause". */}
            {frozen && (
              <span className="tabular text-xs" data-testid="pending-count">
                {pending < 0 ? "· reloaded" : `· ${pending} waiting`}
              </span>
            )}
          </Button>
          <Button onClick={() => url.setWide(!url.wide)} aria-pressed={url.wide}>
            Wide
          </Button>
          <Link href={deletedHref(kind, namespace)} className="rounded-md px-2 py-1.5 text-sm text-blue-800 hover:underline dark:text-blue-300" data-testid="deleted-link">Deleted</Link>
          <PermissionGate access={deleteAccess}>
            {(denied) => (
              <Button variant="danger" disabled={denied || selectedObjects.length === 0} onClick={() => setDeleting(selectedObjects)} data-testid="delete-selected">
                Delete{selectedObjects.length ? ` (${selectedObjects.length})` : ""}
              </Button>
            )}
          </PermissionGate>
          {createAccess.allowed ? (
            <>
              {byName && (
                <Button variant="primary" onClick={() => setCreatingByName(true)} data-testid="create-by-name">
                  New {kind.kind}
                </Button>
              )}
              <Link
                href={createHref(kind, namespace)}
                data-testid="create-link"
                className={`rounded-md border px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 ${
                  byName
                    ? "border-slate-300 bg-white text-slate-800 hover:bg-slate-50 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
                    : "border-blue-700 bg-blue-700 text-white hover:bg-blue-800"
                }`}
              >
                {byName ? "Create from YAML" : "Create"}
              </Link>
            </>
          ) : (
            <PermissionGate access={createAccess}>
              {() => (
                <Button variant="primary" disabled data-testid="create-link">
                  Create
                </Button>
              )}
            </PermissionGate>
          )}
        </div>
      </div>
      {selectorResult.error && (
        <p id="label-error" className="border-b border-red-200 bg-red-50 px-4 py-1 text-xs text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200">
          {selectorResult.error}
        </p>
      )}
      <ChangeAnnouncer label={title} count={rows.length} />
      {list.error && !shown ? (
        <ErrorState error={list.error} title={`Could not list ${kind.plural}`}>
          <Button className="mt-3" onClick={list.refetch}>
            Try again
          </Button>
          {isForbidden(list.error) && <ReachableNamespaces kind={kind} current={namespace} center />}
        </ErrorState>
      ) : !shown ? (
        <StateMessage title={`Loading ${kind.plural}…`} />
      ) : total === 0 ? (
        <StateMessage title={`No ${kind.plural} ${scopeText}`}>
          <p>
            New objects appear here as soon as they are created.
            {createAccess.allowed && (
              <>
                {" "}
                <Link className="text-blue-800 underline dark:text-blue-300" href={createHref(kind, namespace)}>
                  Create one from a template
                </Link>
                .
              </>
            )}
          </p>
        </StateMessage>
      ) : (
        <RenderedAt.Provider value={firstPage?.renderedAt}>
          <ResourceTable
            label={`${title} ${scopeText}`}
            columns={columns}
            rows={rows}
            changedAt={shown.changedAt}
            sort={sortColumn ? { column: sortColumn.id, descending } : undefined}
            onSort={onSort}
            selected={selected}
            onSelect={onSelect}
            hrefFor={(obj) => objectHref(kind, obj.metadata.namespace, obj.metadata.name ?? "")}
            rowTone={kind.kind === "Event" ? eventTone : undefined}
            filterKey={`${text}\n${labelText}`}
          />
          {rows.length === 0 && (
            <StateMessage title={`No ${kind.plural} match the filter`}>
              <Button onClick={url.clearFilters}>Clear filters</Button>
            </StateMessage>
          )}
        </RenderedAt.Provider>
      )}
      {creatingByName && <CreateByNameDialog kind={kind} namespace={createTarget.namespace} open onClose={() => setCreatingByName(false)} />}
      {deleting && (
        <DeleteDialog
          kind={kind}
          objects={deleting}
          open
          onClose={() => setDeleting(undefined)}
          onDeleted={(outcomes) => setSelected((prev) => {
            const next = new Set(prev);
            for (const o of outcomes) if (!o.error) next.delete(o.obj.metadata.namespace ? `${o.obj.metadata.namespace}/${o.obj.metadata.name}` : o.obj.metadata.name ?? "");
            return next;
          })}
        />
      )}
    </div>
  );
}
