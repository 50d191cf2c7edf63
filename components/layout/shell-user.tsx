"use client";
// Who is signed in, as the session names them, for what the shell keeps per user (pinned favourites).
import { createContext, useContext, type ReactNode } from "react";

const ShellUserContext = createContext("");

export function ShellUserProvider({ user, children }: { user: string; children: ReactNode }) {
  return <ShellUserContext.Provider value={user}>{children}</ShellUserContext.Provider>;
}

export function useShellUser(): string {
  return useContext(ShellUserContext);
}
