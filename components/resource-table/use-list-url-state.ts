"use client";
// Filter, label selector, sort and wide mode live in the query string, so the view is a deep link:
// reload or share it and the same rows come back in the same order.
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";

export interface ListUrlState {
  text: string;
  labels: string;
  sort?: string;
  descending: boolean;
  wide: boolean;
}

type Patch = Partial<Record<"q" | "l" | "sort" | "desc" | "wide", string | undefined>>;

export function useListUrlState() {
  const search = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const fromUrl: ListUrlState = {
    text: search.get("q") ?? "",
    labels: search.get("l") ?? "",
    sort: search.get("sort") ?? undefined,
    descending: search.get("desc") === "1",
    wide: search.get("wide") === "1",
  };
  // Inputs update at once; the URL follows shortly after (no history entry per keystroke).
  const [text, setText] = useState(fromUrl.text);
  const [labels, setLabels] = useState(fromUrl.labels);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const pending = useRef<Patch | undefined>(undefined);

  const write = useCallback(
    (patch: Patch) => {
      const params = new URLSearchParams(window.location.search);
      for (const [k, v] of Object.entries(patch)) {
        if (v === undefined || v === "") params.delete(k);
        else params.set(k, v);
      }
      const q = params.toString();
      router.replace(`${pathname}${q ? `?${q}` : ""}`, { scroll: false });
    },
    [router, pathname],
  );

  // A filter typed just before leaving (`g p`, a link) must not pull the user back: the list view may stay
  // mounted across routes of the same shape, so the pending write is dropped when the path changes, and a
  // write that fires anyway only ever touches the path it was made for. A navigation started while the write
  // waits has not changed the path yet, though: so the write is made at once when the field is left
  // (`flush`, on blur and Escape), before any shortcut or link can start one, and the router keeps the order.
  useEffect(
    () => () => {
      clearTimeout(timer.current);
      pending.current = undefined;
    },
    [pathname],
  );

  const flush = () => {
    clearTimeout(timer.current);
    const patch = pending.current;
    pending.current = undefined;
    if (patch && window.location.pathname === pathname) write(patch);
  };

  const debounced = (patch: Patch) => {
    pending.current = { ...pending.current, ...patch };
    clearTimeout(timer.current);
    timer.current = setTimeout(flush, 250);
  };

  return {
    text,
    labels,
    sort: fromUrl.sort,
    descending: fromUrl.descending,
    wide: fromUrl.wide,
    setText: (v: string) => {
      setText(v);
      debounced({ q: v });
    },
    setLabels: (v: string) => {
      setLabels(v);
      debounced({ l: v });
    },
    setSort: (column: string, descending: boolean) => write({ sort: column, desc: descending ? "1" : undefined }),
    setWide: (wide: boolean) => write({ wide: wide ? "1" : undefined }),
    /** Writes a pending filter to the URL now (the field is being left). */
    flush,
    clearFilters: () => {
      clearTimeout(timer.current);
      pending.current = undefined;
      setText("");
      setLabels("");
      write({ q: undefined, l: undefined });
    },
  };
}
