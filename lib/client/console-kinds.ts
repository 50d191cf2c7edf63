// Every kind the console shows: the built-in declarations (lib/kinds) and the custom kinds the server serves now
// (custom-kinds.ts, kept live by components/layout/custom-kinds-provider.tsx). Views look kinds up here by
// their route segment (`configmaps`, `widgets.example.com`) and re-render when the custom kinds change.
import { kindByKind, kindByPlural, kinds as builtInKinds, type AnyKind } from "../kinds";
import { consoleKindOf, kindSegment, type CustomKindInfo } from "./custom-kinds";

let customKinds: AnyKind[] = [];
let all: AnyKind[] = builtInKinds;
let bySegment = new Map<string, AnyKind>();
let signature = "";
/** The kinds the page was rendered with (`seedCustomKinds`): what hydration must render again. */
let seeded: AnyKind[] | undefined;
const listeners = new Set<() => void>();

/** Replace the custom kinds (from discovery); a no-op when nothing changed, so views keep their kind objects. */
export function setCustomKinds(infos: readonly CustomKindInfo[]): void {
  const next = JSON.stringify(infos);
  if (next === signature) return;
  signature = next;
  customKinds = infos.map(consoleKindOf);
  all = [...builtInKinds, ...customKinds];
  bySegment = new Map(customKinds.map((k) => [kindSegment(k), k]));
  for (const l of listeners) l();
}

/**
 * The custom kinds the page was rendered with (the server's render and the browser's first render, both before
 * any view): what hydration renders. Later changes come through `setCustomKinds`.
 */
export function seedCustomKinds(infos: readonly CustomKindInfo[]): void {
  setCustomKinds(infos);
  seeded = all;
}

/** The kind at a console route segment: a built-in plural or a custom kind's `<plural>.<group>`. */
export function consoleKind(segment: string): AnyKind | undefined {
  return kindByPlural(segment) ?? bySegment.get(segment);
}

/** The kind an object names (`apiVersion` and `kind`): a built-in kind by its kind, else a custom kind. */
export function consoleKindOfObject(apiVersion: string | undefined, kind: string): AnyKind | undefined {
  const slash = apiVersion?.lastIndexOf("/") ?? -1;
  const group = apiVersion && slash > 0 ? apiVersion.slice(0, slash) : "";
  const custom = customKinds.find((k) => k.kind === kind && k.group === group);
  return custom ?? kindByKind(kind);
}

/** Every kind: built-in first, then the custom kinds. */
export function consoleKinds(): AnyKind[] {
  return all;
}

/** The kinds the page was rendered with on the server: the snapshot hydration renders (a later change re-renders). */
export function hydrationConsoleKinds(): AnyKind[] {
  return seeded ?? all;
}

export function customConsoleKinds(): AnyKind[] {
  return customKinds;
}

/** Called after every change of the custom kinds (use-console-kinds.ts re-renders views with it). */
export function subscribeConsoleKinds(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The kind stored as `resource` (a plural) in `group` ("" core), as the history API names an object's kind. */
export function consoleKindOfResource(resource: string, group: string | undefined): AnyKind | undefined {
  const builtIn = kindByPlural(resource);
  if (builtIn && (builtIn.group ?? "") === (group ?? "")) return builtIn;
  return group ? bySegment.get(`${resource}.${group}`) : builtIn;
}
