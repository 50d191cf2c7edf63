"use client";
// One shared one-second clock for the cells that show ages and countdowns. Only those cells subscribe, so a
// tick re-renders a few text nodes, not every row of the table.
import { createContext, useContext, useSyncExternalStore } from "react";

let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, 1_000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

const snapshot = () => now;

/**
 * The time a server-rendered page was rendered at. Ages in that HTML were computed from it, so the browser's
 * hydrating render uses it too (React would otherwise find "4s" where the server wrote "3s"); the next render
 * uses the browser's clock.
 */
export const RenderedAt = createContext<number | undefined>(undefined);

/** The current time, at most a second old; re-renders the caller each second. */
export function useClock(): number {
  const renderedAt = useContext(RenderedAt);
  return useSyncExternalStore(subscribe, snapshot, () => renderedAt ?? snapshot());
}
