"use client";
// The console shell: header, sidebar, breadcrumbs and the page. Below the `md` breakpoint (a phone) the
// sidebar folds behind the header's menu button: a disclosure (aria-expanded) that Escape, a click outside
// or a navigation closes, giving focus back to the button.
import { usePathname } from "next/navigation";
import { Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { CommandPalette } from "../palette/command-palette";
import type { CustomKindInfo } from "@/lib/client/custom-kinds";
import { Breadcrumbs } from "./breadcrumbs";
import { CustomKindsProvider } from "./custom-kinds-provider";
import { Header } from "./header";
import { KeyboardShortcuts } from "./keyboard-shortcuts";
import { ShellUserProvider } from "./shell-user";
import { Sidebar } from "./sidebar";

const SIDEBAR_ID = "console-sidebar";

export function AppShell({ user, customKinds = [], children }: { user: string; customKinds?: CustomKindInfo[]; children: ReactNode }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const sidebar = useRef<HTMLElement>(null);
  const pathname = usePathname();

  const closeMenu = useCallback((returnFocus: boolean) => {
    setMenuOpen(false);
    if (returnFocus) menuButton.current?.focus();
  }, []);

  useEffect(() => setMenuOpen(false), [pathname]);

  useEffect(() => {
    if (!menuOpen) return;
    sidebar.current?.querySelector<HTMLElement>("a[href]")?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      e.preventDefault();
      closeMenu(true);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [menuOpen, closeMenu]);

  return (
    <ShellUserProvider user={user}>
      <CustomKindsProvider initial={customKinds} />
      <div className="flex h-full flex-col">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-sm dark:focus:bg-slate-900">
          Skip to content
        </a>
        <Header user={user} menu={{ open: menuOpen, controls: SIDEBAR_ID, ref: menuButton, toggle: () => (menuOpen ? closeMenu(true) : setMenuOpen(true)) }} />
        <div className="relative flex min-h-0 flex-1">
          {menuOpen && <div className="absolute inset-0 z-30 bg-slate-950/40 md:hidden" aria-hidden="true" onClick={() => closeMenu(true)} data-testid="menu-backdrop" />}
          <aside
            id={SIDEBAR_ID}
            ref={sidebar}
            data-open={menuOpen}
            className={`${menuOpen ? "absolute inset-y-0 left-0 z-40 block w-72 max-w-[85vw] shadow-xl" : "hidden"} shrink-0 border-r border-slate-200 bg-slate-50 md:static md:block md:w-60 md:shadow-none dark:border-slate-800 dark:bg-slate-900`}
          >
            <Suspense fallback={null}>
              <Sidebar />
            </Suspense>
          </aside>
          <main id="main" className="flex min-w-0 flex-1 flex-col">
            <Suspense fallback={null}>
              <Breadcrumbs />
            </Suspense>
            {children}
          </main>
        </div>
        <Suspense fallback={null}>
          <KeyboardShortcuts />
          <CommandPalette />
        </Suspense>
      </div>
    </ShellUserProvider>
  );
}
