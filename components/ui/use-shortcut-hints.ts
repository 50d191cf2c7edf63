"use client";
// Whether to show keyboard-shortcut hints: not on a phone (a narrow screen) nor where the main pointer is a
// finger. The same media query as the `[data-shortcut-hint]` rule in app/globals.css, for text CSS cannot
// hide (a placeholder). The server and hydration render no hint; a desktop gets it right after.
import { useSyncExternalStore } from "react";

export const NO_SHORTCUT_HINTS_QUERY = "(max-width: 639.98px), (pointer: coarse)";

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(NO_SHORTCUT_HINTS_QUERY);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

export function useShortcutHints(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => !window.matchMedia(NO_SHORTCUT_HINTS_QUERY).matches,
    () => false,
  );
}
