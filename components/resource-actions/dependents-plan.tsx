"use client";
// What the chosen propagation policy does to the dependents of the objects being deleted, spelled out before
// the user confirms: Background and Foreground list every dependent that goes (and theirs), Orphan lists those
// that stay and lose their owner reference. Found from the ownerReferences of the objects the user can list;
// kinds that could not be listed are named (lib/client/dependents.ts, lib/client/use-ownership.ts).
import { useMemo } from "react";
import { deletionPlan, type PlannedDependent, type PropagationPolicy, type StayingDependent } from "@/lib/client/dependents";
import { useOwnershipLists } from "@/lib/client/use-ownership";
import type { AnyKind, KubeObject } from "@/lib/kinds";
import type { OwnerReference } from "@/lib/kinds/types";
import { ScrollBox } from "../ui/scroll-box";
import { locatedKey, locatedLabel, UnlistedNote } from "../resource-details/dependents-panel";

const refLabel = (r: OwnerReference) => `${r.kind} ${r.name}`;
const listClass = "rounded-md border border-slate-200 px-3 py-2 font-mono text-sm dark:border-slate-700";
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function Tree({ nodes, policy, nested }: { nodes: PlannedDependent[]; policy: PropagationPolicy; nested?: boolean }) {
  return (
    <ul className={nested ? "ml-4 border-l border-slate-200 pl-3 dark:border-slate-700" : ""}>
      {nodes.map((node) => (
        <li key={locatedKey(node.item)} data-testid="plan-deleted-item" data-key={locatedKey(node.item)}>
          {locatedLabel(node.item)}
          {policy === "Foreground" && node.blocksOwner && <span className="font-sans text-xs text-slate-600 dark:text-slate-400"> · blocks deletion of its owner</span>}
          {node.unverifiedOwners.length > 0 && (
            <span className="font-sans text-xs text-slate-600 dark:text-slate-400"> · unless {node.unverifiedOwners.map(refLabel).join(", ")} still exists (not listable here)</span>
          )}
          {node.children.length > 0 && <Tree nodes={node.children} policy={policy} nested />}
        </li>
      ))}
    </ul>
  );
}

function StayingList({ items, testId, why }: { items: StayingDependent[]; testId: string; why: (s: StayingDependent) => string }) {
  return (
    <ul className={listClass} data-testid={testId}>
      {items.map((s) => (
        <li key={locatedKey(s.item)} data-testid={`${testId}-item`} data-key={locatedKey(s.item)}>
          {locatedLabel(s.item)} <span className="font-sans text-xs text-slate-600 dark:text-slate-400">· {why(s)}</span>
        </li>
      ))}
    </ul>
  );
}

export function DependentsPlan({ kind, objects, policy }: { kind: AnyKind; objects: KubeObject[]; policy: PropagationPolicy }) {
  const first = objects[0]?.metadata.namespace;
  // One namespace when every object is in the same one; otherwise (or cluster-scoped objects) everywhere.
  const scope = kind.namespaced && first && objects.every((o) => o.metadata.namespace === first) ? first : undefined;
  const lists = useOwnershipLists(scope);
  const plan = useMemo(
    () => deletionPlan(lists.graph, objects.map((obj) => ({ kind: kind.kind, namespaced: kind.namespaced, obj })), policy, lists.listed),
    [lists.graph, lists.listed, objects, kind, policy],
  );
  const loading = lists.loading.length > 0;
  const them = objects.length === 1 ? "it" : "them";
  const what = objects.length === 1 ? `the ${kind.kind}` : `the ${kind.plural}`;
  const incomplete = lists.unlisted.length > 0 ? " in the kinds you can list" : "";
  const summary = loading
    ? "Looking for dependents…"
    : policy === "Orphan"
      ? plan.staying.length
        ? `${plural(plan.staying.length, "dependent stays", "dependents stay")} and ${plan.staying.length === 1 ? "loses its" : "lose their"} owner reference.`
        : `No dependents found${incomplete}.`
      : plan.deletedCount
        ? `${plural(plan.deletedCount, "dependent is", "dependents are")} deleted with ${them}.`
        : `No dependents found${incomplete}: only ${what} ${objects.length === 1 ? "is" : "are"} deleted.`;

  return (
    // Not a labelled region: the policy select above is the dialog's one control named "Dependents".
    <div className="mt-4 text-sm" data-testid="dependents-plan" data-state={loading ? "loading" : "ready"} data-policy={policy}>
      <h3 className="font-medium">What happens to dependents</h3>
      <p role="status" className="mb-2" data-testid="dependents-summary">
        {summary}
      </p>
      {policy !== "Orphan" && plan.deletedCount > 0 && (
        <>
          <p className="mb-1">
            {policy === "Foreground"
              ? `Deleted first; ${what} ${objects.length === 1 ? "stays" : "stay"} Terminating until those that block ${objects.length === 1 ? "its" : "their"} deletion are gone:`
              : `Deleted by the garbage collector once ${what} ${objects.length === 1 ? "is" : "are"} gone:`}
          </p>
          <ScrollBox label="Dependents deleted" className={`${listClass} mb-2 max-h-48 overflow-y-auto`} testId="plan-deleted">
            <Tree nodes={plan.deleted} policy={policy} />
          </ScrollBox>
        </>
      )}
      {policy !== "Orphan" && plan.staying.length > 0 && (
        <>
          <p className="mb-1">These stay, because another owner keeps them; only their reference to {what} is removed:</p>
          <StayingList items={plan.staying} testId="plan-kept" why={(s) => `kept by ${s.keptBy.map(refLabel).join(", ")}`} />
        </>
      )}
      {policy === "Orphan" && plan.staying.length > 0 && (
        <>
          <p className="mb-1">These stay and lose their owner reference; their own dependents are not affected:</p>
          <StayingList items={plan.staying} testId="plan-orphaned" why={(s) => `loses its reference to ${s.losesOwners.map(refLabel).join(", ")}`} />
        </>
      )}
      <UnlistedNote unlisted={lists.unlisted} what="dependents" />
    </div>
  );
}
