"use client";
// Every kind, grouped; kinds the user's roles do not let them list here are marked (never hidden: the list
// page then says why). Pinned favourites come first.
import Link from "next/link";
import { useParams, usePathname } from "next/navigation";
import { listHref, namespaceHref } from "@/lib/client/console-routes";
import { favouriteHref, favouriteId, favouriteLabel } from "@/lib/client/favourites";
import { useMemo } from "react";
import { useConsoleKinds } from "@/lib/client/use-console-kinds";
import { kindSegment } from "@/lib/client/custom-kinds";
import { jumpKeyFor, kindTitle, navigationGroups } from "@/lib/client/navigation";
import { useListAccess } from "@/lib/client/use-list-access";
import { useCurrentNamespace } from "./use-current-namespace";
import { useFavourites } from "./use-favourites";

const linkClass = (active: boolean) =>
  `flex items-center justify-between gap-2 rounded-md px-2 py-1 text-sm ${
    active
      ? "bg-blue-50 font-medium text-blue-800 dark:bg-blue-950 dark:text-blue-200"
      : "text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
  } focus-visible:outline-2 focus-visible:outline-blue-600`;

const headingClass = "mb-1 px-2 text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400";

export function Sidebar() {
  const { namespace } = useCurrentNamespace();
  const params = useParams<{ plural?: string }>();
  const pathname = usePathname();
  const canList = useListAccess(namespace);
  const { favourites } = useFavourites();
  const kinds = useConsoleKinds();
  const groups = useMemo(() => navigationGroups(kinds), [kinds]);
  // Static routes (/namespaces) carry no [plural] param; their first segment is the kind.
  const activePlural = params.plural ?? (/^\/[^/]+$/.test(pathname) ? pathname.slice(1) : undefined);
  const overviewActive = pathname === "/" || /^\/namespaces\/[^/]+$/.test(pathname);
  return (
    <nav aria-label="Kinds" className="flex h-full flex-col gap-4 overflow-y-auto px-3 py-4">
      <div>
        <Link href={namespaceHref(namespace)} className={linkClass(overviewActive)} aria-current={overviewActive ? "page" : undefined}>
          <span>{namespace ? "Namespace live view" : "Overview"}</span>
          <kbd data-shortcut-hint className="text-[10px] text-slate-600 dark:text-slate-400">g n</kbd>
        </Link>
      </div>
      {favourites.length > 0 && (
        <div data-testid="sidebar-pinned">
          <h2 className={headingClass}>Pinned</h2>
          <ul className="space-y-0.5">
            {favourites.map((f) => {
              const href = favouriteHref(f);
              const { title, detail } = favouriteLabel(f);
              const active = decodeURIComponent(pathname) === decodeURIComponent(href);
              return (
                <li key={favouriteId(f)}>
                  <Link href={href} className={linkClass(active)} aria-current={active ? "page" : undefined}>
                    <span className="min-w-0 truncate" title={`${title} (${detail})`}>
                      {title}
                    </span>
                    <span className="shrink-0 truncate text-[11px] text-slate-600 dark:text-slate-400">{detail}</span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </div>
      )}
      {groups.map((group) => (
        <div key={group.title}>
          <h2 className={headingClass}>{group.title}</h2>
          <ul className="space-y-0.5">
            {group.kinds.map((kind) => {
              const segment = kindSegment(kind);
              const active = activePlural === segment;
              const key = jumpKeyFor(kind.plural);
              const access = canList(kind);
              return (
                <li key={segment}>
                  <Link
                    href={listHref(kind, namespace)}
                    className={linkClass(active)}
                    aria-current={active ? "page" : undefined}
                    data-testid={`nav-${segment}`}
                    data-listable={access.allowed}
                    title={access.allowed ? undefined : access.reason}
                  >
                    <span className={access.allowed ? "" : "text-slate-600 dark:text-slate-400"}>
                      {kindTitle(kind)}
                      {!access.allowed && (
                        <>
                          {" "}
                          <span aria-hidden="true" className="text-[11px]">
                            (no access)
                          </span>
                          <span className="sr-only">, your roles do not allow listing these</span>
                        </>
                      )}
                    </span>
                    {key && <kbd data-shortcut-hint className="text-[10px] text-slate-600 dark:text-slate-400" aria-label={`shortcut g ${key}`}>g {key}</kbd>}
                  </Link>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </nav>
  );
}
