"use client";
import type { Favourite } from "@/lib/client/favourites";
import { useFavourites } from "./use-favourites";

/** Pins (or unpins) a list or an object to the sidebar and the palette; a toggle button. */
export function PinButton({ target, what }: { target: Favourite; what: string }) {
  const { isPinned, toggle } = useFavourites();
  const pinned = isPinned(target);
  return (
    <button
      type="button"
      aria-pressed={pinned}
      aria-label={`Pin ${what}`}
      title={pinned ? `Unpin ${what}` : `Pin ${what} to the sidebar`}
      onClick={() => toggle(target)}
      data-testid="pin-button"
      className="inline-flex items-center gap-1 rounded-md border border-slate-300 px-2 py-0.5 text-xs font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-600 aria-pressed:border-amber-600 aria-pressed:bg-amber-50 aria-pressed:text-amber-900 dark:border-slate-600 dark:text-slate-200 dark:hover:bg-slate-800 dark:aria-pressed:bg-amber-950 dark:aria-pressed:text-amber-100"
    >
      <span aria-hidden="true">{pinned ? "★" : "☆"}</span>
      <span aria-hidden="true">{pinned ? "Pinned" : "Pin"}</span>
    </button>
  );
}
