"use client";
// The console's kinds (console-kinds.ts) for React views: re-rendered when the custom kinds change. While a part of
// the page hydrates it renders the kinds the server rendered it with (a Suspense boundary may hydrate after
// discovery changed them: React #418 otherwise), then the current ones.
import { useSyncExternalStore } from "react";
import type { AnyKind } from "../kinds";
import { consoleKinds, hydrationConsoleKinds, subscribeConsoleKinds } from "./console-kinds";
import { kindSegment } from "./custom-kinds";

/** Every kind, re-rendering when the custom kinds change. */
export function useConsoleKinds(): AnyKind[] {
  return useSyncExternalStore(subscribeConsoleKinds, consoleKinds, hydrationConsoleKinds);
}

/** The kind at a route segment, re-rendering when the custom kinds change (undefined once it is not served). */
export function useConsoleKind(segment: string): AnyKind | undefined {
  return useConsoleKinds().find((k) => kindSegment(k) === segment);
}
