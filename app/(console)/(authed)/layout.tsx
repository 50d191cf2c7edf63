import { getServerSession } from "next-auth";
import type { ReactNode } from "react";
import { AppShell } from "@/components/layout/app-shell";
import { authOptions } from "@/lib/server/sign-in";

// The console shell. Pages check the session themselves (requireSession) because only they know their URL
// for the way back after sign-in; the shell only shows who is signed in.
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const session = await getServerSession(authOptions);
  return <AppShell user={session?.user?.name ?? ""}>{children}</AppShell>;
}
