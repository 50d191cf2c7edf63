"use client";
// Confirms a delete by naming every object that will go, with the grace period and what happens to
// dependents: the propagation policy (Background by default, as kubectl sends it) and, spelled out, the
// dependents that go with them or stay (dependents-plan.tsx). Objects that finalizers or a grace period hold
// stay listed as Terminating until released. A namespace asks for its name to be typed, more than 20 objects
// for their count (or their namespace) before Delete is enabled (delete-confirmation.ts). Deleting Namespaces
// says once that everything in them goes, with counts by kind (namespace-contents.tsx), instead of the
// dependents plan: kube's namespace lifecycle deletes their content whatever the propagation policy or grace
// period, so neither is offered.
import { useId, useState } from "react";
import { confirmationMet, typedConfirmation } from "./delete-confirmation";
import type { AnyKind, KubeObject } from "@/lib/kinds";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { ScrollBox } from "../ui/scroll-box";
import { deleteObjects, type DeleteOutcome, type PropagationPolicy } from "./delete-objects";
import { DependentsPlan } from "./dependents-plan";
import { NamespaceContents } from "./namespace-contents";

/** Objects named in the dialog; beyond that, a count (10,000 list items would stall the dialog). */
const LISTED = 200;

const displayName = (obj: KubeObject) => (obj.metadata.namespace ? `${obj.metadata.namespace}/${obj.metadata.name}` : obj.metadata.name ?? "");

export function DeleteDialog({
  kind,
  objects,
  open,
  onClose,
  onDeleted,
}: {
  kind: AnyKind;
  objects: KubeObject[];
  open: boolean;
  onClose: () => void;
  onDeleted?: (outcomes: DeleteOutcome[]) => void;
}) {
  const [grace, setGrace] = useState("");
  const [propagation, setPropagation] = useState<PropagationPolicy>("Background");
  const [busy, setBusy] = useState(false);
  const [failures, setFailures] = useState<DeleteOutcome[]>([]);
  const [typed, setTyped] = useState("");
  const listHeading = useId();
  const namespaces = kind.kind === "Namespace" && !kind.namespaced;
  const rule = typedConfirmation(kind.kind, objects);
  const confirmed = confirmationMet(rule, typed);
  const graceValid = grace === "" || /^\d+$/.test(grace);
  const withFinalizers = objects.filter((o) => (o.metadata.finalizers ?? []).length > 0);
  const noun = objects.length === 1 ? kind.kind : `${objects.length} ${kind.plural}`;
  // A pod's own grace period (spec.terminationGracePeriodSeconds) is what "kind default" means for it.
  const ownGrace = [...new Set(objects.map((o) => (o.spec as { terminationGracePeriodSeconds?: unknown } | undefined)?.terminationGracePeriodSeconds))];
  const gracePlaceholder = ownGrace.length === 1 && typeof ownGrace[0] === "number" ? `object's own (${ownGrace[0]})` : "kind default";

  async function confirm() {
    setBusy(true);
    const outcomes = await deleteObjects(kind, objects, {
      gracePeriodSeconds: grace === "" ? undefined : Number(grace),
      propagationPolicy: propagation,
    });
    setBusy(false);
    const failed = outcomes.filter((o) => o.error);
    setFailures(failed);
    onDeleted?.(outcomes);
    if (failed.length === 0) onClose();
  }

  return (
    <Dialog
      open={open}
      onClose={() => {
        setFailures([]);
        onClose();
      }}
      title={`Delete ${noun}?`}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="danger" onClick={confirm} disabled={busy || !graceValid || objects.length === 0 || !confirmed} data-testid="confirm-delete">
            {busy ? "Deleting…" : `Delete ${noun}`}
          </Button>
        </>
      }
    >
      <p id={listHeading} className="mb-2 text-sm">
        These will be deleted:
      </p>
      <ScrollBox labelledBy={listHeading} className="mb-4 max-h-48 overflow-y-auto rounded-md border border-slate-200 px-3 py-2 dark:border-slate-700">
        <ul className="font-mono text-sm" data-testid="delete-list">
          {objects.slice(0, LISTED).map((o) => (
            <li key={displayName(o)}>
              {kind.kind} {displayName(o)}
            </li>
          ))}
          {objects.length > LISTED && <li className="font-sans text-slate-600 dark:text-slate-400">and {objects.length - LISTED} more</li>}
        </ul>
      </ScrollBox>
      {namespaces && open && <NamespaceContents namespaces={objects.map((o) => o.metadata.name ?? "")} />}
      {rule && (
        <div className="mb-4 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm dark:border-red-900 dark:bg-red-950">
          <label htmlFor="delete-confirm-text" className="block font-medium text-red-900 dark:text-red-100">
            {rule.prompt}
          </label>
          <input
            id="delete-confirm-text"
            data-testid="delete-confirm-text"
            autoComplete="off"
            spellCheck={false}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            onKeyDown={(e) => e.key === "Enter" && confirmed && !busy && graceValid && void confirm()}
            aria-invalid={typed !== "" && !confirmed}
            className="mt-1 w-full rounded-md border border-slate-300 bg-white px-2 py-1 font-mono dark:border-slate-700 dark:bg-slate-900"
          />
        </div>
      )}
      {withFinalizers.length > 0 && (
        <p className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100">
          {withFinalizers.length === 1 ? "One object has" : `${withFinalizers.length} objects have`} finalizers; they will show as Terminating until their finalizers are
          removed.
        </p>
      )}
      {!namespaces && (
        <>
          <div className="grid grid-cols-2 gap-4 text-sm">
            <div>
              <label htmlFor="grace" className="block font-medium">
                Grace period (seconds)
              </label>
              <input
                id="grace"
                inputMode="numeric"
                value={grace}
                onChange={(e) => setGrace(e.target.value.trim())}
                placeholder={gracePlaceholder}
                aria-invalid={!graceValid}
                aria-describedby="grace-help"
                className="mt-1 w-full rounded-md border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-900"
              />
              <p id="grace-help" className="mt-1 text-xs text-slate-600 dark:text-slate-400">
                {graceValid ? "0 deletes at once." : "Enter a whole number of seconds."}
              </p>
            </div>
            <div>
              <label htmlFor="propagation" className="block font-medium">
                Dependents
              </label>
              <select
                id="propagation"
                value={propagation}
                onChange={(e) => setPropagation(e.target.value as PropagationPolicy)}
                className="mt-1 w-full rounded-md border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-900"
              >
                <option value="Background">Background: delete them afterwards</option>
                <option value="Foreground">Foreground: delete them first</option>
                <option value="Orphan">Orphan: keep them</option>
              </select>
            </div>
          </div>
          {open && <DependentsPlan kind={kind} objects={objects} policy={propagation} />}
        </>
      )}
      {failures.length > 0 && (
        <div role="alert" className="mt-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
          <p className="font-medium">Some objects were not deleted:</p>
          <ul className="list-disc pl-5">
            {failures.map((f) => (
              <li key={displayName(f.obj)}>
                {displayName(f.obj)}: {f.error}
              </li>
            ))}
          </ul>
        </div>
      )}
    </Dialog>
  );
}
