import Link from "next/link";
import { Suspense } from "react";
import { ThemeToggle } from "../theme/theme-toggle";
import { NamespaceSwitcher } from "./namespace-switcher";
import { UserMenu } from "./user-menu";

export function Header({ user }: { user: string }) {
  return (
    <header className="flex h-12 shrink-0 items-center gap-4 border-b border-slate-200 px-4 dark:border-slate-800">
      <Link href="/" className="flex items-center gap-2 font-semibold focus-visible:outline-2 focus-visible:outline-blue-600">
        <svg aria-hidden="true" width="22" height="22" viewBox="0 0 32 32">
          <rect width="32" height="32" rx="7" fill="#1d4ed8" />
          <path d="M16 5l9.5 5.5v11L16 27l-9.5-5.5v-11z" fill="none" stroke="#fff" strokeWidth="2.2" strokeLinejoin="round" />
          <circle cx="16" cy="16" r="3.2" fill="#fff" />
        </svg>
        Cluster Core
      </Link>
      <Suspense fallback={<div className="h-7 w-56" />}>
        <NamespaceSwitcher />
      </Suspense>
      <div className="ml-auto flex items-center gap-2">
        <span className="hidden text-xs text-slate-600 md:inline dark:text-slate-400">
          Press <kbd className="rounded border border-slate-300 px-1 dark:border-slate-600">?</kbd> for shortcuts
        </span>
        <ThemeToggle />
        <UserMenu user={user} />
      </div>
    </header>
  );
}
