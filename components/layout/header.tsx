"use client";
import Link from "next/link";
import { Suspense, type RefObject } from "react";
import { openPalette } from "../palette/palette-events";
import { ThemeToggle } from "../theme/theme-toggle";
import { NamespaceSwitcher } from "./namespace-switcher";
import { UserMenu } from "./user-menu";

export interface MenuButtonState {
  open: boolean;
  controls: string;
  ref: RefObject<HTMLButtonElement | null>;
  toggle: () => void;
}

const iconButton =
  "inline-flex items-center gap-1 rounded-md px-2 py-1 text-sm text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-slate-300 dark:hover:bg-slate-800";

// One row at every width (e2e/console/fits-widths.spec.ts measures it at 375, 768 and 1440 px): on a phone
// labels fold to icons and the namespace switcher takes the room left; items wrap onto a second line only
// when even that is not enough (a very narrow screen), rather than widen the page.
export function Header({ user, menu }: { user: string; menu: MenuButtonState }) {
  return (
    <header className="flex min-h-12 shrink-0 flex-wrap items-center gap-x-2 gap-y-1 border-b border-slate-200 px-2 py-1 md:gap-4 md:px-4 dark:border-slate-800">
      <button
        ref={menu.ref}
        type="button"
        aria-expanded={menu.open}
        aria-controls={menu.controls}
        onClick={menu.toggle}
        className={`${iconButton} md:hidden`}
        data-testid="menu-button"
      >
        <svg aria-hidden="true" width="18" height="18" viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
          <path d="M3 5h14M3 10h14M3 15h14" />
        </svg>
        <span className="sr-only">Menu</span>
      </button>
      <Link href="/" className="flex items-center gap-2 font-semibold focus-visible:outline-2 focus-visible:outline-blue-600">
        <svg aria-hidden="true" width="22" height="22" viewBox="0 0 32 32">
          <rect width="32" height="32" rx="7" fill="#1d4ed8" />
          <path d="M16 5l9.5 5.5v11L16 27l-9.5-5.5v-11z" fill="none" stroke="#fff" strokeWidth="2.2" strokeLinejoin="round" />
          <circle cx="16" cy="16" r="3.2" fill="#fff" />
        </svg>
        <span className="max-sm:sr-only">Cluster Core</span>
      </Link>
      <Suspense fallback={<div className="h-7 min-w-0 flex-1 sm:w-40 sm:flex-none" />}>
        <NamespaceSwitcher />
      </Suspense>
      <div className="ml-auto flex shrink-0 items-center gap-1 md:gap-2">
        <button type="button" onClick={openPalette} className={`${iconButton} border border-slate-300 dark:border-slate-700`} data-testid="palette-button" aria-keyshortcuts="Control+K Meta+K">
          <svg aria-hidden="true" width="14" height="14" viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            <circle cx="8.5" cy="8.5" r="5.5" />
            <path d="M13 13l4 4" />
          </svg>
          <span className="max-sm:sr-only">Search</span>
          <kbd data-shortcut-hint className="hidden rounded border border-slate-300 px-1 font-mono text-[10px] text-slate-600 lg:inline dark:border-slate-600 dark:text-slate-400">Ctrl K</kbd>
        </button>
        <span data-shortcut-hint className="hidden text-xs text-slate-600 xl:inline dark:text-slate-400">
          Press <kbd className="rounded border border-slate-300 px-1 dark:border-slate-600">?</kbd> for shortcuts
        </span>
        <ThemeToggle />
        <UserMenu user={user} />
      </div>
    </header>
  );
}
