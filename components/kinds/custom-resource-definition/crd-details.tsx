"use client";
// A CustomResourceDefinition's page, what an operator checks at a glance: whether it is being deleted, its
// names and scope (and the names the server did not accept: a conflict in the group), its conditions, its
// versions (served, storage, stored, deprecated, subresources, printer columns; a stored version no longer
// served flagged) and each version's schema as a tree of fields, with a link to the kind's custom resources.
import Link from "next/link";
import { memo, useMemo, useState } from "react";
import type { KubeObject } from "@/lib/kinds";
import { findCondition, type CustomResourceDefinition } from "@/lib/kinds/custom-resource-definition";
import { Section } from "../../resource-details/section";
import { ConditionsTable } from "../../resource-details/status-panel";
import { DetailTable } from "../../ui/detail-table";
import { ScrollBox } from "../../ui/scroll-box";
import { StatusBadge } from "../../ui/status-badge";
import { FieldList, Muted } from "../field-list";
import { crdNames, customResourcesHref, nameDifferences, storageVersion, storedNotServed, versionRows, type VersionRow } from "./crd-summary";
import { SchemaTreeView } from "./schema-tree-view";

type Loose = Record<string, any>;

const mono = (values: string[], none = "none") => (values.length ? <span className="font-mono text-xs">{values.join(", ")}</span> : <Muted>{none}</Muted>);

function Terminating({ crd }: { crd: CustomResourceDefinition }) {
  const c = findCondition(crd, "Terminating");
  if (c?.status !== "True" && !crd.metadata.deletionTimestamp) return null;
  const finalizers = crd.metadata.finalizers ?? [];
  return (
    <div className="mb-4 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950/50 dark:text-red-100" data-testid="crd-terminating">
      <p className="font-semibold">This CustomResourceDefinition is being deleted.</p>
      {c?.status === "True" && <p>Its custom resources are deleted first, then the kind stops being served; new ones are refused meanwhile.</p>}
      {c?.reason && (
        <p className="break-words">
          <span className="font-medium">{c.reason}</span>
          {c.message ? `: ${c.message}` : ""}
        </p>
      )}
      {finalizers.length > 0 && (
        <p className="break-words" data-testid="crd-finalizers">
          Waiting for finalizers: <span className="font-mono text-xs">{finalizers.join(", ")}</span>
        </p>
      )}
    </div>
  );
}

function Names({ crd }: { crd: CustomResourceDefinition }) {
  const names = crdNames(crd);
  const differences = nameDifferences(crd);
  const accepted = findCondition(crd, "NamesAccepted");
  const href = customResourcesHref(crd);
  const conversion = (crd.spec?.conversion ?? {}) as Loose;
  const webhook = conversion.webhook?.clientConfig as Loose | undefined;
  return (
    <Section title="Names and scope" testId="crd-names">
      {(differences.length > 0 || accepted?.status === "False") && (
        <div className="mb-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm dark:border-amber-800 dark:bg-amber-950/40" data-testid="crd-name-conflict">
          <p className="font-semibold text-amber-900 dark:text-amber-200">
            Names not accepted{accepted?.reason ? `: ${accepted.reason}` : ""}
          </p>
          {accepted?.message && <p className="break-words text-slate-800 dark:text-slate-200">{accepted.message}</p>}
          {differences.length > 0 && (
            <ScrollBox label="Requested and accepted names" className="overflow-x-auto">
              <DetailTable caption="Names requested and accepted" columns={["Name", "Requested", "Accepted"]} className="mt-1">
                <tbody>
                  {differences.map((d) => (
                    <tr key={d.field} className="border-t border-amber-200 font-mono text-xs dark:border-amber-900" data-testid="crd-name-difference" data-field={d.field}>
                      <td className="py-1 pr-3">{d.field}</td>
                      <td className="break-all py-1 pr-3">{d.requested || <Muted>—</Muted>}</td>
                      <td className="break-all py-1">{d.accepted || <Muted>none</Muted>}</td>
                    </tr>
                  ))}
                </tbody>
              </DetailTable>
            </ScrollBox>
          )}
        </div>
      )}
      <FieldList
        fields={[
          ["Resource", <span key="r" className="font-mono">{names.resource}</span>, "crd-resource"],
          [
            "Custom resources",
            href ? (
              <Link key="l" href={href} className="text-blue-800 underline dark:text-blue-300" data-testid="crd-resources-link">
                {names.kind || names.plural} objects
              </Link>
            ) : (
              <Muted key="l">not served (Established is not True)</Muted>
            ),
          ],
          ["Group", <span key="g" className="font-mono">{names.group}</span>, "crd-group"],
          ["Kind", <span key="k" className="font-mono">{names.kind}</span>, "crd-kind"],
          ["List kind", names.listKind ? <span className="font-mono">{names.listKind}</span> : undefined],
          ["Plural", <span key="p" className="font-mono">{names.plural}</span>, "crd-plural"],
          ["Singular", names.singular ? <span className="font-mono">{names.singular}</span> : undefined, "crd-singular"],
          ["Short names", mono(names.shortNames), "crd-short-names"],
          ["Categories", mono(names.categories), "crd-categories"],
          ["Scope", names.scope === "Cluster" ? "Cluster (objects have no namespace)" : names.scope, "crd-scope"],
          [
            "Conversion",
            conversion.strategy === "Webhook" ? (
              <span className="font-mono text-xs">
                Webhook{" "}
                {webhook?.url ?? (webhook?.service ? `${webhook.service.namespace}/${webhook.service.name}:${webhook.service.port ?? 443}${webhook.service.path ?? ""}` : "")}
              </span>
            ) : (
              conversion.strategy
            ),
          ],
        ]}
      />
    </Section>
  );
}

function Conditions({ crd, now }: { crd: CustomResourceDefinition; now: number }) {
  const conditions = crd.status?.conditions ?? [];
  return (
    <Section title="Conditions" testId="crd-conditions">
      {conditions.length ? (
        <ScrollBox label="Conditions of the definition" className="overflow-x-auto">
          <ConditionsTable conditions={conditions} now={now} />
        </ScrollBox>
      ) : (
        <p className="text-sm">
          <Muted>None yet: the API server has not looked at this definition.</Muted>
        </p>
      )}
    </Section>
  );
}

function Subresources({ v }: { v: VersionRow }) {
  if (!v.statusSubresource && !v.scale) return <Muted>none</Muted>;
  return (
    <ul className="space-y-0.5 text-xs">
      {v.statusSubresource && <li className="font-mono">/status</li>}
      {v.scale && (
        <li className="break-all font-mono" data-testid="crd-scale">
          /scale: {v.scale.specReplicasPath} → {v.scale.statusReplicasPath}
          {v.scale.labelSelectorPath ? `, selector ${v.scale.labelSelectorPath}` : ""}
        </li>
      )}
    </ul>
  );
}

function PrinterColumns({ v }: { v: VersionRow }) {
  const selectable = v.selectableFields.length > 0 && (
    <p className="mt-0.5 break-all text-xs" data-testid="crd-selectable-fields">
      <span className="text-slate-600 dark:text-slate-400">field selectors:</span> <span className="font-mono">{v.selectableFields.join(", ")}</span>
    </p>
  );
  return (
    <>
      {v.printerColumns.length === 0 ? (
        <Muted>default (Name, Age)</Muted>
      ) : (
        <ul className="space-y-0.5 text-xs">
          {v.printerColumns.map((c) => (
            <li key={c.name} className="break-all" data-testid="crd-printer-column" title={c.description}>
              <span className="font-medium">{c.name}</span> <span className="font-mono text-slate-600 dark:text-slate-400">{c.jsonPath}</span>{" "}
              <span className="text-slate-600 dark:text-slate-400">
                {c.type}
                {c.format ? ` (${c.format})` : ""}
                {c.wideOnly ? ", -o wide" : ""}
              </span>
            </li>
          ))}
        </ul>
      )}
      {selectable}
    </>
  );
}

function Versions({ crd, rows }: { crd: CustomResourceDefinition; rows: VersionRow[] }) {
  const gone = storedNotServed(crd);
  const stored = crd.status?.storedVersions ?? [];
  return (
    <Section title="Versions" testId="crd-versions">
      <ScrollBox label="Versions of the definition" className="overflow-x-auto">
        <DetailTable caption="Versions" columns={["Version", "State", "Subresources", "Printer columns"]}>
          <tbody>
            {rows.map((v) => (
              <tr
                key={v.name}
                className="border-t border-slate-100 align-top dark:border-slate-800"
                data-testid="crd-version"
                data-version={v.name}
                data-served={v.served}
                data-storage={v.storage}
                data-deprecated={v.deprecated}
              >
                <td className="py-1 pr-3 font-mono font-medium">{v.name}</td>
                <td className="py-1 pr-3">
                  <span className="flex flex-wrap gap-1">
                    <StatusBadge tone={v.served ? "ok" : v.stored ? "error" : "neutral"}>{v.served ? "served" : "not served"}</StatusBadge>
                    {v.storage && <StatusBadge tone="ok" testId="crd-storage">storage</StatusBadge>}
                    {v.stored && !v.storage && <StatusBadge tone="neutral">stored</StatusBadge>}
                    {v.deprecated && <StatusBadge tone="warning" testId="crd-deprecated">deprecated</StatusBadge>}
                  </span>
                  {v.deprecationWarning && <p className="mt-0.5 break-words text-xs text-amber-900 dark:text-amber-200" data-testid="crd-deprecation-warning">Warning: {v.deprecationWarning}</p>}
                </td>
                <td className="py-1 pr-3">
                  <Subresources v={v} />
                </td>
                <td className="py-1">
                  <PrinterColumns v={v} />
                </td>
              </tr>
            ))}
          </tbody>
        </DetailTable>
      </ScrollBox>
      <p className="mt-2 text-sm" data-testid="crd-stored-versions">
        <span className="text-slate-600 dark:text-slate-400">Stored versions (status.storedVersions):</span> {mono(stored, "none yet")}
      </p>
      {gone.length > 0 && (
        <p className="mt-1 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950/50 dark:text-red-100" data-testid="stored-not-served">
          {gone.join(", ")} {gone.length === 1 ? "is" : "are"} in storedVersions but not served: objects may still be stored at{" "}
          {gone.length === 1 ? "that version" : "those versions"}. Migrate them to the storage version, then remove{" "}
          {gone.length === 1 ? "it" : "them"} from status.storedVersions.
        </p>
      )}
    </Section>
  );
}

/** Memoised on the version rows (which change with the object only): the page re-renders every second. */
const Schemas = memo(function Schemas({ rows }: { rows: VersionRow[] }) {
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const selected = rows.find((r) => r.name === chosen) ?? rows.find((r) => r.name === storageVersion(rows));
  if (!selected) return null;
  return (
    <Section title="Schema" testId="crd-schema">
      {rows.length > 1 && (
        <div role="tablist" aria-label="Schema of version" className="mb-2 flex flex-wrap gap-1">
          {rows.map((r) => (
            <button
              key={r.name}
              role="tab"
              type="button"
              id={`schema-tab-${r.name}`}
              aria-selected={r.name === selected.name}
              aria-controls="schema-panel"
              onClick={() => setChosen(r.name)}
              className={`rounded-md px-3 py-1 font-mono text-sm ${r.name === selected.name ? "bg-slate-200 font-medium dark:bg-slate-800" : "hover:bg-slate-100 dark:hover:bg-slate-900"}`}
              data-testid="schema-version-tab"
            >
              {r.name}
              {r.storage ? " (storage)" : r.deprecated ? " (deprecated)" : ""}
            </button>
          ))}
        </div>
      )}
      <div id="schema-panel" role={rows.length > 1 ? "tabpanel" : undefined} aria-labelledby={rows.length > 1 ? `schema-tab-${selected.name}` : undefined}>
        <SchemaTreeView key={selected.name} schema={selected.schema} version={selected.name} />
      </div>
    </Section>
  );
});

export function CrdDetails({ obj, now = Date.now() }: { obj: KubeObject; now?: number }) {
  const crd = obj as CustomResourceDefinition;
  const rows = useMemo(() => versionRows(obj), [obj]);
  return (
    <div data-testid="crd-details">
      <Terminating crd={crd} />
      <Names crd={crd} />
      <Conditions crd={crd} now={now} />
      <Versions crd={crd} rows={rows} />
      <Schemas rows={rows} />
    </div>
  );
}
