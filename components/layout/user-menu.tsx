"use client";
import { signOut } from "next-auth/react";

export function UserMenu({ user }: { user: string }) {
  return (
    <div className="flex items-center gap-2 text-sm">
      <span className="text-slate-600 dark:text-slate-400" title="Signed in">
        {user}
      </span>
      <button
        type="button"
        onClick={() => void signOut({ callbackUrl: "/signin" })}
        className="rounded-md border border-slate-300 px-2 py-1 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-slate-700 dark:hover:bg-slate-800"
      >
        Sign out
      </button>
    </div>
  );
}
