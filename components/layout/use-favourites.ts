"use client";
// The signed-in user's pinned favourites, shared live by every component (sidebar, pin buttons, palette) and
// across tabs (the storage event).
import { useCallback, useSyncExternalStore } from "react";
import { favouritesStorageKey, parseFavourites, sameFavourite, toggleFavourite, type Favourite } from "@/lib/client/favourites";
import { useShellUser } from "./shell-user";

const CHANGED = "cc-favourites";

function subscribe(listener: () => void): () => void {
  window.addEventListener(CHANGED, listener);
  window.addEventListener("storage", listener);
  return () => {
    window.removeEventListener(CHANGED, listener);
    window.removeEventListener("storage", listener);
  };
}

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

const parsed = new Map<string, { text: string | null; list: Favourite[] }>();
function snapshot(key: string): Favourite[] {
  const text = read(key);
  const cached = parsed.get(key);
  if (cached && cached.text === text) return cached.list;
  const list = parseFavourites(text);
  parsed.set(key, { text, list });
  return list;
}

const EMPTY: Favourite[] = [];

export function useFavourites(): { favourites: Favourite[]; isPinned: (f: Favourite) => boolean; toggle: (f: Favourite) => void } {
  const user = useShellUser();
  const key = favouritesStorageKey(user);
  const favourites = useSyncExternalStore(subscribe, () => snapshot(key), () => EMPTY);
  const toggle = useCallback(
    (f: Favourite) => {
      try {
        localStorage.setItem(key, JSON.stringify(toggleFavourite(snapshot(key), f)));
      } catch {
        // storage unavailable: nothing is kept
      }
      window.dispatchEvent(new Event(CHANGED));
    },
    [key],
  );
  return { favourites, isPinned: (f) => favourites.some((x) => sameFavourite(x, f)), toggle };
}
