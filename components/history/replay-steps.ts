// Replaying a namespace's last hour from its changes (the history API's `changes`, newest first): the
// changes as steps, oldest first, and what the namespace held at any step. Only objects the window touched
// are known: one first seen MODIFIED or DELETED existed before the window, with content older than it.
import type { KubeObject } from "@/lib/kinds";

export interface ReplayChange {
  resourceVersion: string;
  time: string;
  type: "ADDED" | "MODIFIED" | "DELETED";
  resource?: string;
  object: KubeObject;
}

/** An object the window touched, as it stood at a step. */
export interface ReplayObject {
  /** `resource/name`: the same name in two kinds is two objects. */
  key: string;
  resource: string;
  name: string;
  /**
   * `present`: as its last change at or before the step left it (`change`); `gone`: deleted by then, or not
   * yet created; `older`: it existed, unchanged since before the window.
   */
  state: "present" | "gone" | "older";
  /** The change that set the state (absent for `older`, and for `gone` before its creation). */
  change?: ReplayChange;
  /** Whether the step being shown is this object's change. */
  changedHere: boolean;
}

/** The changes in the order they happened (the API lists the newest first): step i is after change i. */
export function replaySteps<C extends ReplayChange>(newestFirst: readonly C[]): C[] {
  return [...newestFirst].sort((a, b) => Number(a.resourceVersion) - Number(b.resourceVersion));
}

const objectKeyOf = (c: ReplayChange) => `${c.resource ?? ""}/${c.object.metadata?.name ?? ""}`;

/**
 * The objects the window touched as they stood after step `at` (`-1`: an hour ago, before any change),
 * sorted by kind, then name.
 */
export function namespaceAt(steps: readonly ReplayChange[], at: number): ReplayObject[] {
  const byKey = new Map<string, ReplayObject>();
  steps.forEach((c, i) => {
    const key = objectKeyOf(c);
    const seen = byKey.get(key);
    const base = { key, resource: c.resource ?? "", name: c.object.metadata?.name ?? "" };
    if (i <= at) {
      byKey.set(key, { ...base, state: c.type === "DELETED" ? "gone" : "present", change: c, changedHere: i === at });
    } else if (!seen) {
      // First seen after the step: not there yet if the window created it, otherwise there from before.
      byKey.set(key, { ...base, state: c.type === "ADDED" ? "gone" : "older", changedHere: false });
    }
  });
  return [...byKey.values()].sort((a, b) => (a.resource === b.resource ? a.name.localeCompare(b.name) : a.resource.localeCompare(b.resource)));
}
