import { getServerSession } from "next-auth";
import type { ReactNode } from "react";
import { AppShell } from "@/components/layout/app-shell";
import { authOptions } from "@/lib/server/sign-in";
import { servedCustomKinds } from "./served-custom-kinds";

// The console shell. Pages check the session themselves (requireSession) because only they know their URL
// for the way back after sign-in; the shell only shows who is signed in. The custom kinds served when the page
// renders seed the browser's (kept live there), so the first render already shows them.
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const session = await getServerSession(authOptions);
  const customKinds = session ? await servedCustomKinds() : [];
  return <AppShell user={session?.user?.name ?? ""} customKinds={customKinds}>{children}</AppShell>;
}
