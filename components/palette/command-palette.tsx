"use client";
// Find anything: Ctrl-K / Cmd-K (or the header's Search button) opens a combobox over every object the user
// may list, by name or label (`app=web` reads as a label selector), grouped by kind, plus "go to" commands
// (kinds, namespaces, the overview) and the pinned favourites. Arrows move, Enter opens, Escape closes and
// gives focus back to where it was.
import { useRouter } from "next/navigation";
import { useDeferredValue, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from "react";
import { listHref, namespaceHref, objectHref } from "@/lib/client/console-routes";
import { favouriteHref, favouriteId, favouriteLabel } from "@/lib/client/favourites";
import { kindTitle, navigationGroups } from "@/lib/client/navigation";
import { useConsoleKinds } from "@/lib/client/use-console-kinds";
import { kindSegment } from "@/lib/client/custom-kinds";
import { parsePaletteQuery, rank, rankGroups, searchObjects } from "@/lib/client/palette-search";
import { useNamespaces } from "@/lib/client/use-namespaces";
import { useCurrentNamespace } from "../layout/use-current-namespace";
import { useFavourites } from "../layout/use-favourites";
import { OPEN_PALETTE_EVENT } from "./palette-events";
import { useSearchSources } from "./use-search-sources";

interface Item {
  id: string;
  /** How well it matches the typed text (`Rank` of lib/client/palette-search): exact names first. */
  rank: number;
  title: string;
  detail?: string;
  href: string;
}

interface Group {
  id: string;
  label: string;
  items: Item[];
}


export function CommandPalette() {
  const [open, setOpen] = useState(false);
  const [input, setInput] = useState("");
  const [active, setActive] = useState(0);
  const dialog = useRef<HTMLDialogElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  const kinds = useConsoleKinds();
  const orderedKinds = useMemo(() => navigationGroups(kinds).flatMap((g) => g.kinds), [kinds]);
  const listId = useId();
  const router = useRouter();
  const { namespace } = useCurrentNamespace();
  const { favourites } = useFavourites();
  const { namespaces } = useNamespaces(open, namespace);
  const { sources, fetching, notListed } = useSearchSources(open);
  const text = useDeferredValue(input);

  useEffect(() => {
    const show = () => {
      returnFocus.current = document.activeElement as HTMLElement | null;
      setInput("");
      setActive(0);
      setOpen(true);
    };
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === "k") {
        e.preventDefault();
        show();
      }
    };
    window.addEventListener("keydown", onKey);
    window.addEventListener(OPEN_PALETTE_EVENT, show);
    return () => {
      window.removeEventListener("keydown", onKey);
      window.removeEventListener(OPEN_PALETTE_EVENT, show);
    };
  }, []);

  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (open && !el.open) {
      el.showModal();
      inputRef.current?.focus();
    }
    if (!open && el.open) el.close();
  }, [open]);

  const close = () => {
    setOpen(false);
    const target = returnFocus.current;
    if (target?.isConnected) setTimeout(() => target.focus(), 0);
  };

  const query = useMemo(() => parsePaletteQuery(text), [text]);
  const groups = useMemo((): Group[] => {
    if (!open) return [];
    const out: Group[] = [];
    const words = query.selector ? "" : query.text;
    // Empty text matches every "go to" entry equally.
    const rankOf = (...candidates: (string | undefined)[]) => (words ? rank(words, ...candidates) : 0);
    const pinned: Item[] = [];
    for (const f of favourites) {
      const label = favouriteLabel(f);
      const r = rankOf(label.title, label.detail);
      if (r !== undefined) pinned.push({ id: `pin-${favouriteId(f)}`, rank: r, title: label.title, detail: label.detail, href: favouriteHref(f) });
    }
    if (pinned.length && !query.selector) out.push({ id: "pinned", label: "Pinned", items: pinned });
    if (!query.selector) {
      const goTo: Item[] = [];
      const overview = rankOf("Overview", "home", "all namespaces");
      if (overview !== undefined) goTo.push({ id: "go-overview", rank: overview, title: "Overview", detail: "all namespaces", href: "/" });
      for (const kind of orderedKinds) {
        const r = rankOf(kindTitle(kind), kindSegment(kind), kind.kind, ...(kind.shortNames ?? []));
        if (r === undefined) continue;
        const scope = kind.namespaced ? (namespace ? `in ${namespace}` : "in all namespaces") : "cluster";
        goTo.push({ id: `go-kind-${kindSegment(kind)}`, rank: r, title: kindTitle(kind), detail: scope, href: listHref(kind, namespace) });
      }
      out.push({ id: "go", label: "Go to", items: goTo });
      const ns: Item[] = [];
      for (const n of namespaces) {
        const r = rankOf(n);
        if (r !== undefined) ns.push({ id: `go-ns-${n}`, rank: r, title: n, detail: "namespace live view", href: namespaceHref(n) });
      }
      out.push({ id: "namespaces", label: "Go to namespace", items: ns });
    }
    for (const { kind, hits, total } of searchObjects(sources, query)) {
      const items: Item[] = hits.map(({ obj, label, score }) => ({
        id: `obj-${kindSegment(kind)}-${obj.metadata.namespace ?? ""}-${obj.metadata.name}`,
        rank: score,
        title: obj.metadata.name ?? "",
        detail: [obj.metadata.namespace, label].filter(Boolean).join(" · ") || undefined,
        href: objectHref(kind, obj.metadata.namespace, obj.metadata.name ?? ""),
      }));
      if (total > hits.length) {
        const param = query.selector ? `l=${encodeURIComponent(query.text)}` : `q=${encodeURIComponent(query.text)}`;
        items.push({ id: `more-${kindSegment(kind)}`, rank: Infinity, title: `All ${total} matching ${kindTitle(kind)}`, detail: "open the list", href: `${listHref(kind)}?${param}` });
      }
      out.push({ id: `kind-${kindSegment(kind)}`, label: `${kindTitle(kind)} (${total})`, items });
    }
    // Exact names first, then prefixes, then the rest, whatever kind of entry they are.
    return rankGroups(out.filter((g) => g.items.length > 0));
  }, [open, query, favourites, namespace, namespaces, sources, orderedKinds]);

  const flat = groups.flatMap((g) => g.items);
  const activeIndex = Math.min(active, Math.max(flat.length - 1, 0));
  const activeItem = flat[activeIndex];
  const optionId = (i: number) => `${listId}-opt-${i}`;

  useEffect(() => {
    if (!open) return;
    document.getElementById(optionId(activeIndex))?.scrollIntoView({ block: "nearest" });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [activeIndex, open]);

  const go = (item: Item | undefined) => {
    if (!item) return;
    returnFocus.current = null;
    setOpen(false);
    router.push(item.href);
  };

  const onKeyDown = (e: ReactKeyboardEvent) => {
    const n = flat.length;
    if (e.key === "ArrowDown") setActive(n ? (activeIndex + 1) % n : 0);
    else if (e.key === "ArrowUp") setActive(n ? (activeIndex - 1 + n) % n : 0);
    else if (e.key === "Home" && e.ctrlKey) setActive(0);
    else if (e.key === "End" && e.ctrlKey) setActive(Math.max(n - 1, 0));
    else if (e.key === "Enter") go(activeItem);
    else return;
    e.preventDefault();
  };

  let index = -1;
  const objectCount = groups.filter((g) => g.id.startsWith("kind-")).reduce((sum, g) => sum + g.items.filter((i) => !i.id.startsWith("more-")).length, 0);
  return (
    <dialog
      ref={dialog}
      aria-label="Search"
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
      onClick={(e) => e.target === dialog.current && close()}
      className="mx-auto mt-[10vh] w-[calc(100%-1rem)] max-w-2xl rounded-xl border border-slate-200 bg-white p-0 text-slate-900 shadow-2xl backdrop:bg-slate-950/50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
      data-testid="palette"
    >
      {open && (
        <div className="flex max-h-[75vh] flex-col">
          <div className="flex items-center gap-2 border-b border-slate-200 px-3 dark:border-slate-700">
            <svg aria-hidden="true" width="16" height="16" viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" className="text-slate-500 dark:text-slate-400">
              <circle cx="8.5" cy="8.5" r="5.5" />
              <path d="M13 13l4 4" />
            </svg>
            <input
              ref={inputRef}
              role="combobox"
              aria-expanded="true"
              aria-controls={listId}
              aria-autocomplete="list"
              aria-activedescendant={activeItem ? optionId(activeIndex) : undefined}
              aria-label="Search names and labels, or go to a kind or namespace"
              aria-describedby={`${listId}-hint`}
              value={input}
              onChange={(e) => {
                setInput(e.target.value);
                setActive(0);
              }}
              onKeyDown={onKeyDown}
              placeholder="Search names, labels (app=web), kinds, namespaces…"
              className="min-w-0 flex-1 bg-transparent py-3 text-base outline-none placeholder:text-slate-500 dark:placeholder:text-slate-400"
              data-testid="palette-input"
            />
            <kbd data-shortcut-hint className="hidden rounded border border-slate-300 px-1 font-mono text-[10px] text-slate-600 sm:inline dark:border-slate-600 dark:text-slate-400">Esc</kbd>
          </div>
          <div id={listId} role="listbox" aria-label="Results" className="min-h-0 flex-1 overflow-y-auto py-1" data-testid="palette-results">
            {groups.map((group) => (
              <div key={group.id} role="group" aria-labelledby={`${listId}-${group.id}`} data-testid={`palette-group-${group.id}`}>
                <div id={`${listId}-${group.id}`} role="presentation" className="px-3 pb-1 pt-2 text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400">
                  {group.label}
                </div>
                {group.items.map((item) => {
                  index++;
                  const i = index;
                  const selected = i === activeIndex;
                  return (
                    <div
                      key={item.id}
                      id={optionId(i)}
                      role="option"
                      aria-selected={selected}
                      onMouseMove={() => active !== i && setActive(i)}
                      onClick={() => go(item)}
                      data-href={item.href}
                      className={`mx-1 flex cursor-pointer items-baseline justify-between gap-3 rounded-md px-2 py-1.5 text-sm ${selected ? "bg-blue-700 text-white" : ""}`}
                    >
                      <span className="min-w-0 break-all font-medium">{item.title}</span>
                      {item.detail && <span className={`shrink-0 truncate text-xs ${selected ? "text-blue-50" : "text-slate-600 dark:text-slate-400"}`}>{item.detail}</span>}
                    </div>
                  );
                })}
              </div>
            ))}
            {flat.length === 0 && <p className="px-3 py-4 text-sm text-slate-600 dark:text-slate-400">Nothing matches “{input}”.</p>}
          </div>
          <p id={`${listId}-hint`} className="border-t border-slate-200 px-3 py-1.5 text-xs text-slate-600 dark:border-slate-700 dark:text-slate-400" data-testid="palette-status">
            <span role="status">
              {fetching ? "Loading lists… " : ""}
              {text.trim() ? `${objectCount} objects found. ` : ""}
            </span>
            <span data-shortcut-hint>↑↓ to move, Enter to open.</span>
            {notListed.length > 0 && ` Not searched (your roles do not allow listing): ${notListed.map(kindTitle).join(", ")}.`}
          </p>
        </div>
      )}
    </dialog>
  );
}
