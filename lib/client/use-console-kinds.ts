"use client";
// The console's kinds (console-kinds.ts) for React views: re-rendered when the custom kinds change.
import { useSyncExternalStore } from "react";
import type { AnyKind } from "../kinds";
import { consoleKind, consoleKinds, subscribeConsoleKinds } from "./console-kinds";

/** Every kind, re-rendering when the custom kinds change. */
export function useConsoleKinds(): AnyKind[] {
  return useSyncExternalStore(subscribeConsoleKinds, consoleKinds, consoleKinds);
}

/** The kind at a route segment, re-rendering when the custom kinds change (undefined until discovery has it). */
export function useConsoleKind(segment: string): AnyKind | undefined {
  useSyncExternalStore(subscribeConsoleKinds, consoleKinds, consoleKinds);
  return consoleKind(segment);
}
