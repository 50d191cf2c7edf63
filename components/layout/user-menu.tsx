"use client";
// Who the console acts as, from the server's own answer (SelfSubjectReview), so a ServiceAccount or a
// token-file user sees exactly the name and groups RBAC sees. The session's name shows until it answers.
import { signOut } from "next-auth/react";
import { useEffect, useId, useRef, useState } from "react";
import { useWhoAmI } from "@/lib/client/use-access";
import { signOutDestination } from "../auth/session-refresh";

/** Ends the console's session, then the identity provider's where it offers that (OIDC end_session). */
async function signOutEverywhere() {
  const destination = await signOutDestination().catch(() => "/signin");
  await signOut({ redirect: false });
  window.location.assign(destination);
}

export function UserMenu({ user }: { user: string }) {
  const { user: me } = useWhoAmI();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const name = me?.username || user;

  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent | KeyboardEvent) => {
      if (e instanceof KeyboardEvent ? e.key === "Escape" : !ref.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("mousedown", close);
      document.removeEventListener("keydown", close);
    };
  }, [open]);

  return (
    <div ref={ref} className="relative flex items-center gap-2 text-sm">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen(!open)}
        title="Signed in as"
        className="max-w-28 truncate rounded-md sm:max-w-64 px-2 py-1 text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-slate-300 dark:hover:bg-slate-800"
      >
        <span className="sr-only">Signed in as </span>
        <span data-testid="user-name">{name}</span>
      </button>
      {open && (
        <div id={menuId} className="absolute right-0 top-9 z-40 w-80 max-w-[calc(100vw-1rem)] rounded-lg border border-slate-200 bg-white p-3 shadow-lg dark:border-slate-700 dark:bg-slate-900" data-testid="user-details">
          <p className="text-xs text-slate-600 dark:text-slate-400">Signed in as</p>
          <p className="break-all font-mono text-sm">{name}</p>
          {me?.uid && <p className="mt-1 break-all text-xs text-slate-600 dark:text-slate-400">uid {me.uid}</p>}
          <p className="mt-3 text-xs text-slate-600 dark:text-slate-400">Groups</p>
          {me ? (
            <ul className="mt-1 flex flex-wrap gap-1" data-testid="user-groups">
              {me.groups.map((g) => (
                <li key={g} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs dark:bg-slate-800">
                  {g}
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-xs text-slate-600 dark:text-slate-400">Asking the server…</p>
          )}
          <button
            type="button"
            onClick={() => void signOutEverywhere()}
            className="mt-3 w-full rounded-md border border-slate-300 px-2 py-1 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-slate-700 dark:hover:bg-slate-800"
          >
            Sign out
          </button>
        </div>
      )}
      {!open && (
        <button
          type="button"
          onClick={() => void signOutEverywhere()}
          className="hidden rounded-md border sm:inline-block border-slate-300 px-2 py-1 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-slate-700 dark:hover:bg-slate-800"
        >
          Sign out
        </button>
      )}
    </div>
  );
}
