import { getServerSession } from "next-auth";
import { Suspense, type ReactNode } from "react";
import { Header } from "@/components/layout/header";
import { KeyboardShortcuts } from "@/components/layout/keyboard-shortcuts";
import { Sidebar } from "@/components/layout/sidebar";
import { authOptions } from "@/lib/auth/next-auth-options";

// The console shell. Pages check the session themselves (requireSession) because only they know their URL
// for the way back after sign-in; the shell only shows who is signed in.
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const session = await getServerSession(authOptions);
  return (
    <div className="flex h-full flex-col">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-sm">
        Skip to content
      </a>
      <Header user={session?.user?.name ?? ""} />
      <div className="flex min-h-0 flex-1">
        <aside className="w-60 shrink-0 border-r border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900/40">
          <Suspense fallback={null}>
            <Sidebar />
          </Suspense>
        </aside>
        <main id="main" className="flex min-w-0 flex-1 flex-col">
          {children}
        </main>
      </div>
      <Suspense fallback={null}>
        <KeyboardShortcuts />
      </Suspense>
    </div>
  );
}
