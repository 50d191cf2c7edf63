"use client";
// "Sign in with <provider>": the organization's OpenID Connect provider (authorization code flow with PKCE,
// run by next-auth on the server). The person comes back to the page they were going to.
import { signIn } from "next-auth/react";
import { useState } from "react";

export function ProviderSignIn({ name, callbackUrl }: { name: string; callbackUrl: string }) {
  const [busy, setBusy] = useState(false);
  return (
    <div className="space-y-4" data-testid="provider-sign-in">
      <button
        type="button"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          void signIn("oidc", { callbackUrl });
        }}
        className="w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-semibold text-slate-900 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 disabled:opacity-60 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100 dark:hover:bg-slate-700"
      >
        {busy ? `Going to ${name}…` : `Sign in with ${name}`}
      </button>
      <p className="flex items-center gap-3 text-xs text-slate-600 dark:text-slate-400" aria-hidden="true">
        <span className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
        or paste a token
        <span className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
      </p>
    </div>
  );
}
