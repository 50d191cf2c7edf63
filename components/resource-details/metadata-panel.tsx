"use client";
// Metadata, labels (each a link to the list filtered by it), annotations and owner references as links.
import Link from "next/link";
import { listHref, objectHref } from "@/lib/client/console-routes";
import { termination, terminationSentence } from "@/lib/client/termination";
import { humanDuration } from "@/lib/kinds/columns";
import { acceptedApiVersions, kindByKind, type AnyKind, type KubeObject } from "@/lib/kinds";
import { Section } from "./section";

function Chips({ values, href }: { values: Record<string, string> | undefined; href?: (k: string, v: string) => string }) {
  const entries = Object.entries(values ?? {}).sort(([a], [b]) => a.localeCompare(b));
  if (entries.length === 0) return <span className="text-slate-600 dark:text-slate-400">none</span>;
  return (
    <ul className="flex flex-wrap gap-1">
      {entries.map(([k, v]) => {
        const chip = (
          <span className="inline-block max-w-[min(40rem,100%)] truncate rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-800 dark:bg-slate-800 dark:text-slate-200">
            {k}={v}
          </span>
        );
        return <li key={k} className="min-w-0 max-w-full">{href ? <Link href={href(k, v)} title={`List objects with ${k}=${v}`}>{chip}</Link> : chip}</li>;
      })}
    </ul>
  );
}

export function MetadataPanel({ kind, obj, now }: { kind: AnyKind; obj: KubeObject; now: number }) {
  const m = obj.metadata;
  const created = m.creationTimestamp ? Date.parse(m.creationTimestamp) : NaN;
  const rows: [string, React.ReactNode][] = [
    ["Name", m.name],
    ...(kind.namespaced ? ([["Namespace", m.namespace]] as [string, React.ReactNode][]) : []),
    ["UID", <code key="uid" className="font-mono text-xs">{m.uid}</code>],
    ["Created", m.creationTimestamp ? `${m.creationTimestamp} (${Number.isNaN(created) ? "?" : humanDuration(now - created)} ago)` : "—"],
    ["Resource version", m.resourceVersion],
    ...(m.generation !== undefined ? ([["Generation", String(m.generation)]] as [string, React.ReactNode][]) : []),
    ...(m.deletionTimestamp ? ([["Terminating", <span key="terminating" data-testid="termination-detail">{terminationSentence(termination(obj, now)!)}</span>]] as [string, React.ReactNode][]) : []),
    ...((m.finalizers ?? []).length ? ([["Finalizers", (m.finalizers ?? []).join(", ")]] as [string, React.ReactNode][]) : []),
  ];
  const labelHref = (k: string, v: string) => `${listHref(kind, m.namespace)}?l=${encodeURIComponent(`${k}=${v}`)}`;
  return (
    <>
      <Section title="Metadata" testId="metadata">
        <dl className="grid grid-cols-[10rem_1fr] gap-x-4 gap-y-1 text-sm">
          {rows.map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="text-slate-600 dark:text-slate-400">{k}</dt>
              <dd className="min-w-0 break-all">{v}</dd>
            </div>
          ))}
          <dt className="text-slate-600 dark:text-slate-400">Labels</dt>
          <dd className="min-w-0">
            <Chips values={m.labels} href={labelHref} />
          </dd>
          <dt className="text-slate-600 dark:text-slate-400">Annotations</dt>
          <dd className="min-w-0">
            <Chips values={m.annotations} />
          </dd>
        </dl>
      </Section>
      {(m.ownerReferences ?? []).length > 0 && (
        <Section title="Owners" testId="owners">
          <ul className="text-sm">
            {(m.ownerReferences ?? []).map((ref) => {
              const ownerKind = kindByKind(ref.kind);
              const label = `${ref.kind} ${ref.name}${ref.controller ? " (controller)" : ""}`;
              return (
                <li key={ref.uid || ref.name}>
                  {ownerKind && acceptedApiVersions(ownerKind).includes(ref.apiVersion) ? (
                    <Link className="text-blue-800 underline dark:text-blue-300" href={objectHref(ownerKind, m.namespace, ref.name)}>
                      {label}
                    </Link>
                  ) : (
                    <span>
                      {label} <span className="text-slate-600 dark:text-slate-400">({ref.apiVersion}, not served here)</span>
                    </span>
                  )}
                </li>
              );
            })}
          </ul>
        </Section>
      )}
    </>
  );
}
