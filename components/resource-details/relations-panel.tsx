"use client";
// Reverse relations (pods that use this object and how, pods a Service selects, each with its status) from a
// live pod list of the namespace, plus forward links (claim ↔ volume, Service ↔ Endpoints).
import Link from "next/link";
import { useMemo } from "react";
import { objectHref } from "@/lib/client/console-routes";
import { forwardLinks, kindsWithPodRelations, podUsages, relatedPods } from "@/lib/client/relations";
import { podStatus } from "@/lib/client/pod-status";
import { useResourceList } from "@/lib/client/use-resource-list";
import { kindByKind, kindByPlural, type AnyKind, type KubeObject } from "@/lib/kinds";
import { StatusBadge } from "../ui/status-badge";
import { Section } from "./section";

const podKind = kindByPlural("pods");

export function RelationsPanel({ kind, obj }: { kind: AnyKind; obj: KubeObject }) {
  const wantsPods = kindsWithPodRelations.has(kind.kind);
  const pods = useResourceList(podKind, { namespace: obj.metadata.namespace }, { enabled: wantsPods && !!obj.metadata.namespace });
  const relation = useMemo(() => (wantsPods && pods.data ? relatedPods(obj, kind.kind, pods.data.items.values()) : undefined), [wantsPods, pods.data, obj, kind.kind]);
  const links = forwardLinks(obj, kind.kind);
  if (!wantsPods && links.length === 0) return null;
  return (
    <Section title="Related" testId="relations">
      {links.length > 0 && (
        <ul className="mb-2 text-sm">
          {links.map((l) => {
            const k = kindByKind(l.kind);
            return (
              <li key={`${l.kind}/${l.name}`}>
                {l.why}:{" "}
                {k ? (
                  <Link className="text-blue-800 underline dark:text-blue-300" href={objectHref(k, l.namespace, l.name)}>
                    {l.kind} {l.name}
                  </Link>
                ) : (
                  `${l.kind} ${l.name}`
                )}
              </li>
            );
          })}
        </ul>
      )}
      {wantsPods && (
        <div className="text-sm" data-testid="related-pods">
          <p className="mb-1 text-slate-600 dark:text-slate-400">
            {kind.kind === "Service" ? "Pods this Service selects" : `Pods that use this ${kind.kind}`}
            {relation ? ` (${relation.pods.length})` : ""}
          </p>
          {pods.error && !relation ? (
            <p className="text-slate-600 dark:text-slate-400">Pods are not shown: {pods.error.message}</p>
          ) : !relation ? (
            <p className="text-slate-600 dark:text-slate-400">Loading pods…</p>
          ) : relation.pods.length === 0 ? (
            <p className="text-slate-600 dark:text-slate-400">None.</p>
          ) : (
            <ul className="flex flex-wrap gap-x-4 gap-y-1">
              {relation.pods.map((p) => {
                const status = podStatus(p);
                const via = relation.verb === "uses" ? podUsages(p).find((u) => u.kind === kind.kind && u.name === obj.metadata.name)?.via : undefined;
                return (
                  <li key={p.metadata.name} data-testid="related-pod" data-name={p.metadata.name}>
                    <Link className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-blue-800 hover:underline dark:bg-slate-800 dark:text-blue-300" href={objectHref(podKind!, p.metadata.namespace, p.metadata.name ?? "")}>
                      {p.metadata.name}
                    </Link>{" "}
                    <StatusBadge tone={status.tone}>{status.text}</StatusBadge>
                    {via && <span className="text-xs text-slate-600 dark:text-slate-400" data-testid="related-pod-via"> {via.join(", ")}</span>}
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      )}
    </Section>
  );
}
