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

  const write = useCallback(
    (patch: Partial<Record<"q" | "l" | "sort" | "desc" | "wide", string | undefined>>) => {
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
  // write that fires anyway only ever touches the path it was made for.
  useEffect(() => () => clearTimeout(timer.current), [pathname]);

  const debounced = (patch: Parameters<typeof write>[0]) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (window.location.pathname === pathname) write(patch);
    }, 250);
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
    clearFilters: () => {
      setText("");
      setLabels("");
      write({ q: undefined, l: undefined });
    },
  };
}
