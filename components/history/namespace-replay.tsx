"use client";
// Replay of a namespace's last hour: a position over its changes (slider, step, play), the objects the hour
// touched as they stood at that position, and what that step changed. The position is held as a
// resourceVersion, so changes arriving meanwhile (the panel refreshes) never move what is being looked at.
import Link from "next/link";
import { useEffect, useMemo, useState } from "react";
import { objectHref } from "@/lib/client/console-routes";
import { namespaceAt, replaySteps, type ReplayObject } from "./replay-steps";
import { consoleKindOfResource } from "@/lib/client/console-kinds";
import { Button } from "../ui/button";
import type { Revision } from "./history-client";
import { TypeBadge, When, who } from "./revision-label";

const PLAY_STEP_MS = 800;
const done: Record<Revision["type"], string> = { ADDED: "created", MODIFIED: "modified", DELETED: "deleted" };

/** "start": an hour ago, before the first change; "now": after the last; else after that resourceVersion. */
type Position = "start" | "now" | string;

function stateText(o: ReplayObject): string {
  if (o.state === "older") return "unchanged since before the hour";
  if (o.state === "gone") return o.change ? `deleted (rv ${o.change.resourceVersion})` : "not created yet";
  return `${done[o.change!.type]} (rv ${o.change!.resourceVersion})`;
}

export function NamespaceReplay({ namespace, changes, now, renderDiff }: {
  namespace: string;
  changes: Revision[];
  now: number;
  /** What a change did (the diff against the revision before it). */
  renderDiff: (change: Revision) => React.ReactNode;
}) {
  const steps = useMemo(() => replaySteps(changes), [changes]);
  const [position, setPosition] = useState<Position>("start");
  const [playing, setPlaying] = useState(false);
  const found = steps.findIndex((s) => s.resourceVersion === position);
  const at = position === "now" ? steps.length - 1 : position === "start" ? -1 : found;
  const goTo = (i: number) => setPosition(i < 0 ? "start" : i >= steps.length - 1 ? "now" : steps[i].resourceVersion);

  useEffect(() => {
    if (!playing) return;
    if (at >= steps.length - 1) {
      setPlaying(false);
      return;
    }
    const timer = setTimeout(() => goTo(at + 1), PLAY_STEP_MS);
    return () => clearTimeout(timer);
    // goTo reads `steps`, which `at` follows.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [playing, at, steps]);

  const objects = useMemo(() => namespaceAt(steps, at), [steps, at]);
  const step = at >= 0 ? steps[at] : undefined;
  const stepKind = step && consoleKindOfResource(step.resource ?? "", step.group);
  const positionText = step
    ? `After change ${at + 1} of ${steps.length}: ${stepKind?.kind ?? step.resource} ${step.object.metadata.name} ${done[step.type]} by ${who(step)}`
    : `An hour ago, before the first of ${steps.length} changes`;

  return (
    <div className="mb-3 rounded-md border border-slate-200 p-3 dark:border-slate-700" data-testid="namespace-replay" data-at={at}>
      <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Replay controls">
        <Button onClick={() => { setPlaying(false); goTo(-1); }} disabled={at < 0} data-testid="replay-start">An hour ago</Button>
        <Button onClick={() => { setPlaying(false); goTo(at - 1); }} disabled={at < 0} data-testid="replay-back">Step back</Button>
        <Button variant="primary" onClick={() => { if (at >= steps.length - 1) goTo(-1); setPlaying(!playing); }} disabled={steps.length === 0} data-testid="replay-play">
          {playing ? "Pause" : "Play"}
        </Button>
        <Button onClick={() => { setPlaying(false); goTo(at + 1); }} disabled={at >= steps.length - 1} data-testid="replay-forward">Step forward</Button>
        <Button onClick={() => { setPlaying(false); goTo(steps.length - 1); }} disabled={at >= steps.length - 1} data-testid="replay-now">Now</Button>
        <input
          type="range"
          className="min-w-40 flex-1"
          min={-1}
          max={Math.max(-1, steps.length - 1)}
          value={at}
          onChange={(e) => { setPlaying(false); goTo(Number(e.target.value)); }}
          aria-label="Replay position"
          aria-valuetext={positionText}
          data-testid="replay-slider"
        />
      </div>
      <p className="mt-2 flex flex-wrap items-center gap-2 text-sm" role="status" data-testid="replay-position">
        {step ? (
          <>
            <When time={step.time} now={now} />
            <TypeBadge type={step.type} />
            <span>{positionText}</span>
          </>
        ) : (
          positionText
        )}
      </p>
      <table className="mt-2 w-full text-left text-sm" data-testid="replay-objects">
        <caption className="sr-only">Objects changed in the last hour, as they stood at this point</caption>
        <thead>
          <tr className="text-xs text-slate-700 dark:text-slate-300">
            <th scope="col" className="py-1 pr-3 font-medium">Kind</th>
            <th scope="col" className="py-1 pr-3 font-medium">Name</th>
            <th scope="col" className="py-1 font-medium">At this point</th>
          </tr>
        </thead>
        <tbody>
          {objects.map((o) => {
            const kind = consoleKindOfResource(o.resource, undefined);
            return (
              <tr key={o.key} data-testid="replay-object" data-name={o.name} data-state={o.state} data-changed={o.changedHere || undefined}
                className={o.changedHere ? "bg-amber-50 dark:bg-amber-950" : o.state === "gone" ? "text-slate-600 dark:text-slate-400" : ""}>
                <td className="py-0.5 pr-3">{kind?.kind ?? o.resource}</td>
                <td className="py-0.5 pr-3 font-mono">
                  {kind ? <Link className="text-blue-800 hover:underline dark:text-blue-300" href={`${objectHref(kind, namespace, o.name)}?tab=history`}>{o.name}</Link> : o.name}
                </td>
                <td className="py-0.5">{stateText(o)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {step && <div className="mt-2" data-testid="replay-step-diff">{renderDiff(step)}</div>}
    </div>
  );
}
