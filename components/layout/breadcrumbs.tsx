"use client";
// namespace › kind › object, above every list and object page, with Pin (the list or object) and, on an
// object page, a copy button for its name. From the URL alone, so it shows before any data arrives.
import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { breadcrumbTrail } from "@/lib/client/navigation";
import { kindSegment } from "@/lib/client/custom-kinds";
import { useConsoleKinds } from "@/lib/client/use-console-kinds";
import { CopyButton } from "../ui/copy-button";
import { PinButton } from "./pin-button";

const roleText = { namespace: "Namespace", scope: "", kind: "", object: "", action: "" } as const;

export function Breadcrumbs() {
  const pathname = usePathname();
  const search = useSearchParams();
  const kinds = useConsoleKinds();
  const { crumbs, target } = breadcrumbTrail(pathname, search, kinds);
  if (crumbs.length === 0) return null;
  const kind = target ? kinds.find((k) => kindSegment(k) === target.plural) : undefined;
  const what = target && kind ? (target.name ? `${kind.kind} ${target.name}` : `${crumbs[crumbs.length - 1].label} ${target.namespace ? `in ${target.namespace}` : crumbs[0].label.toLowerCase()}`) : "";
  return (
    <div className="flex min-h-9 flex-wrap items-center gap-x-3 gap-y-1 border-b border-slate-200 px-4 py-1 dark:border-slate-800" data-testid="breadcrumb-bar">
      <nav aria-label="Breadcrumb" className="min-w-0 text-sm">
        <ol className="flex flex-wrap items-center gap-x-1">
          {crumbs.map((c, i) => {
            const last = i === crumbs.length - 1;
            return (
              <li key={`${c.role}-${i}`} className="flex min-w-0 items-center gap-x-1">
                {c.href && !last ? (
                  <Link href={c.href} className="break-all text-blue-800 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-blue-300">
                    {roleText[c.role] && <span className="sr-only">{roleText[c.role]} </span>}
                    {c.label}
                  </Link>
                ) : (
                  <span aria-current={last ? "page" : undefined} className={`break-all ${last ? "font-medium" : "text-slate-600 dark:text-slate-400"}`}>
                    {c.label}
                  </span>
                )}
                {!last && (
                  <span aria-hidden="true" className="text-slate-500 dark:text-slate-400">
                    ›
                  </span>
                )}
              </li>
            );
          })}
        </ol>
      </nav>
      {target && (
        <div className="ml-auto flex items-center gap-2">
          {target.name && <CopyButton text={target.name} label="Copy name" testId="copy-name" />}
          <PinButton target={target} what={what} />
        </div>
      )}
    </div>
  );
}
