"use client";
// One object, live: a single-object watch (metadata.name field selector) feeds the overview (metadata,
// relations, data, status, Events) and the YAML editor. What is wrong comes first: troubled conditions and
// Warning Events above everything else (problems-panel.tsx). The tab is part of the URL (?tab=yaml).
// A user who may get the object but not list or watch it (a Namespace reached through a RoleBinding inside
// it) gets it by a plain GET, refreshed every few seconds. Delete and Save follow the user's RBAC rules.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useState, type ReactNode } from "react";
import { CREATED_PARAM, listHref } from "@/lib/client/console-routes";
import { kindTitle } from "@/lib/client/navigation";
import { getObject } from "@/lib/client/object-writes";
import { maskIfSecret } from "@/lib/client/secret-mask";
import { queryKeys } from "@/lib/client/query-keys";
import { useAccessChecker } from "@/lib/client/use-access";
import { useResourceList } from "@/lib/client/use-resource-list";
import { ObjectYamlActions } from "../layout/object-yaml-actions";
import { toYaml } from "@/lib/client/yaml-text";
import type { AnyKind } from "@/lib/kinds";
import { detailSections, KindSection } from "../kinds/detail-sections";
import { isCustomKind } from "@/lib/client/custom-kinds";
import { DeleteDialog } from "../resource-actions/delete-dialog";
import { LiveIndicator } from "../resource-table/live-indicator";
import { Button } from "../ui/button";
import { ErrorState } from "../ui/error-state";
import { isForbidden } from "../ui/forbidden";
import { PermissionGate } from "../ui/permission-gate";
import { ScrollBox } from "../ui/scroll-box";
import { StateMessage } from "../ui/state-message";
import { TerminatingBadge } from "../ui/terminating-badge";
import { useNow } from "../ui/use-now";
import { usePreloadYamlEditor } from "../yaml-editor/lazy-editor";
import { ObjectYamlEditor } from "../yaml-editor/object-yaml-editor";
import { ObjectHistory } from "../history/object-history";
import { DependentsPanel } from "./dependents-panel";
import { EventsPanel } from "./events-panel";
import { MetadataPanel } from "./metadata-panel";
import { ProblemsPanel } from "./problems-panel";
import { RelationsPanel } from "./relations-panel";
import { Section } from "./section";
import { StatusPanel } from "./status-panel";
import { KindGate } from "@/components/layout/kind-gate";

// Top-level fields shown by dedicated panels (or server-owned); everything else is the object's "spec".
const shownElsewhere = new Set(["apiVersion", "kind", "metadata", "status"]);

/** The object's fields that no panel shows (its spec, a ConfigMap's data), as YAML. */
function ContentYaml({ body }: { body: Record<string, unknown> }) {
  if (Object.keys(body).length === 0) return null;
  const spec = "spec" in body;
  return (
    <Section title={spec ? "Spec" : "Content"} testId="content">
      <ScrollBox as="pre" label={spec ? "Spec as YAML" : "Content as YAML"} className="max-h-[32rem] overflow-auto rounded-md bg-slate-50 p-3 font-mono text-xs dark:bg-slate-900">
        {toYaml(body)}
      </ScrollBox>
    </Section>
  );
}

type Tab = "live" | "overview" | "yaml" | "history";

const POLL_MS = 3_000;

/**
 * `liveTab`, when given, is a first tab shown by default (the namespace page's live view of its content);
 * the object's own tabs are then `?tab=overview` and `?tab=yaml`.
 */
export function ObjectView(props: { plural: string; namespace?: string; name: string; liveTab?: { label: string; content: ReactNode } }) {
  return <KindGate plural={props.plural}>{(kind) => <ObjectViewOf kind={kind} {...props} />}</KindGate>;
}

function ObjectViewOf({ kind, plural, namespace, name, liveTab }: { kind: AnyKind; plural: string; namespace?: string; name: string; liveTab?: { label: string; content: ReactNode } }) {
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  const requested = search.get("tab");
  const tab: Tab = requested === "yaml" || requested === "history" ? requested : requested === "overview" || !liveTab ? "overview" : "live";
  const list = useResourceList(kind, { namespace, fieldSelector: `metadata.name=${name}` });
  const listForbidden = isForbidden(list.error);
  const single = useQuery({
    queryKey: queryKeys.object(plural, namespace ?? "", name),
    queryFn: async () => maskIfSecret(kind, await getObject(kind, namespace, name)),
    enabled: listForbidden,
    refetchInterval: (q) => (q.state.error ? false : POLL_MS),
    retry: false,
  });
  const key = kind.namespaced && namespace ? `${namespace}/${name}` : name;
  // React Query keeps the last data after an error; a 404 means the object is gone.
  const obj = listForbidden ? (single.error ? undefined : single.data) : list.data?.items.get(key);
  const loaded = listForbidden ? single.data !== undefined || (single.error as { code?: number } | null)?.code === 404 : !!list.data;
  const loadError = listForbidden ? (single.error && (single.error as { code?: number }).code !== 404 ? single.error : null) : list.error && !list.data ? list.error : null;
  const now = useNow(1_000);
  // A custom kind never takes a built-in kind's sections, whatever its kind's name.
  const section = isCustomKind(kind) ? undefined : detailSections[kind.kind];
  const YamlTab = section?.YamlTab ?? ObjectYamlEditor;
  usePreloadYamlEditor();
  const [deleting, setDeleting] = useState(search.get("delete") === "1");
  // Just created by the console (create-view, the name dialog): said once, and the URL is cleaned so a
  // reload or a shared link does not say it again.
  const [justCreated, setJustCreated] = useState(search.get(CREATED_PARAM) === "1");
  useEffect(() => {
    if (search.get(CREATED_PARAM) !== "1") return;
    const rest = new URLSearchParams(search);
    rest.delete(CREATED_PARAM);
    router.replace(rest.size ? `${pathname}?${rest}` : pathname, { scroll: false });
  }, [search, pathname, router]);
  // Deleted from this page but held (finalizers, a grace period): stay to show Terminating, and go back to the list once it is gone.
  const [deletedHere, setDeletedHere] = useState(false);
  useEffect(() => {
    if (deletedHere && loaded && !obj) router.push(listHref(kind, namespace));
  }, [deletedHere, loaded, obj, router, kind, namespace]);
  const can = useAccessChecker(kind, [{ namespace, name }], ["delete", "update"]);
  const deleteAccess = can("delete", { namespace, name });
  const updateAccess = can("update", { namespace, name });

  const tabHref = (next: Tab) => (next === (liveTab ? "live" : "overview") ? pathname : `${pathname}?tab=${next}`);
  const setTab = (next: Tab) => router.replace(tabHref(next), { scroll: false });
  const tabs: Tab[] = liveTab ? ["live", "overview", "yaml", "history"] : ["overview", "yaml", "history"];
  const tabLabel = (t: Tab) => (t === "yaml" ? "YAML" : t === "history" ? "History" : t === "live" ? liveTab!.label : "Overview");
  const body = obj ? Object.fromEntries(Object.entries(obj).filter(([k]) => !shownElsewhere.has(k))) : {};

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="flex flex-wrap items-center gap-3 border-b border-slate-200 px-4 py-2 dark:border-slate-800">
        <h1 className="min-w-0 break-all text-lg font-semibold" data-testid="object-title">
          {kind.kind} {name}
        </h1>
        {obj && <TerminatingBadge obj={obj} now={now} />}
        {listForbidden ? (
          <span className="text-xs text-slate-600 dark:text-slate-400" title="You may get this object but not watch it: it is refreshed every few seconds">
            refreshed every {POLL_MS / 1000}s
          </span>
        ) : (
          <LiveIndicator status={list.status} detail={list.statusDetail} />
        )}
        <div role="tablist" aria-label="Object views" className="ml-auto flex gap-1">
          {tabs.map((t) => (
            <button
              key={t}
              role="tab"
              type="button"
              aria-selected={tab === t}
              onClick={() => setTab(t)}
              data-testid={`tab-${t}`}
              className={`rounded-md px-3 py-1.5 text-sm ${tab === t ? "bg-slate-200 font-medium dark:bg-slate-800" : "hover:bg-slate-100 dark:hover:bg-slate-900"}`}
            >
              {tabLabel(t)}
            </button>
          ))}
        </div>
        {obj && <ObjectYamlActions kind={kind} obj={obj} />}
        <PermissionGate access={deleteAccess}>
          {(denied) => (
            <Button variant="danger" disabled={denied || !obj} onClick={() => setDeleting(true)} data-testid="delete-object">
              Delete
            </Button>
          )}
        </PermissionGate>
      </div>
      {justCreated && (
        <p role="status" className="flex items-center gap-2 border-b border-green-200 bg-green-50 px-4 py-1.5 text-sm text-green-900 dark:border-green-900 dark:bg-green-950 dark:text-green-100" data-testid="created-notice">
          {kind.kind} {name} created.
          <button type="button" className="ml-auto rounded px-1 underline focus-visible:outline-2 focus-visible:outline-blue-600" onClick={() => setJustCreated(false)}>
            Dismiss
          </button>
        </p>
      )}
      {tab === "live" ? (
        <>
          {loadError && (
            <p role="status" className="border-b border-amber-200 bg-amber-50 px-4 py-1 text-xs text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100" data-testid="object-load-error">
              {loadError.message}
            </p>
          )}
          {liveTab!.content}
        </>
      ) : tab === "history" ? (
        <ObjectHistory kind={kind} namespace={namespace} name={name} current={obj} updateAccess={updateAccess} />
      ) : loadError ? (
        <ErrorState error={loadError} title={`Could not load ${kind.kind} ${name}`} />
      ) : !loaded ? (
        <StateMessage title="Loading…" />
      ) : !obj ? (
        <StateMessage title={`${kind.kind} ${name} does not exist`}>
          <p>
            It may have been deleted.{" "}
            <Link className="text-blue-800 underline dark:text-blue-300" href={listHref(kind, namespace)}>
              Back to {kindTitle(kind)}
            </Link>
          </p>
        </StateMessage>
      ) : tab === "yaml" ? (
        <YamlTab kind={kind} live={obj} readOnlyReason={updateAccess.allowed ? undefined : updateAccess.reason} />
      ) : (
        <ScrollBox label={`Overview of ${kind.kind} ${name}`} className="min-h-0 flex-1 overflow-y-auto px-6 py-4">
          <ProblemsPanel kind={kind} obj={obj} now={now} />
          {/* One order for every kind, after what is wrong: the kind's own details first (its section, or,
              without one, its content), then metadata, owners and dependents, relations, the rest of the spec,
              status, Events. */}
          {section ? <KindSection kindName={kind.kind} obj={obj} now={now} /> : <ContentYaml body={body} />}
          <MetadataPanel kind={kind} obj={obj} now={now} />
          <DependentsPanel kind={kind} obj={obj} now={now} />
          <RelationsPanel kind={kind} obj={obj} />
          {section?.keepContent && <ContentYaml body={body} />}
          {!section?.coversStatus && <StatusPanel status={obj.status} now={now} />}
          <EventsPanel kindName={kind.kind} namespace={kind.namespaced ? namespace : undefined} name={name} now={now} />
        </ScrollBox>
      )}
      {deleting && obj && (
        <DeleteDialog
          kind={kind}
          objects={[obj]}
          open
          onClose={() => setDeleting(false)}
          onDeleted={(outcomes) => {
            if (!outcomes.every((o) => !o.error)) return;
            if (outcomes.some((o) => o.remains)) setDeletedHere(true);
            else router.push(listHref(kind, namespace));
          }}
        />
      )}
    </div>
  );
}
