"use client";
import { signIn } from "next-auth/react";
import { useState, type FormEvent } from "react";

export function SignInForm({ callbackUrl, expired }: { callbackUrl: string; expired: boolean }) {
  const [token, setToken] = useState("");
  const [error, setError] = useState<string | undefined>(expired ? "Your session ended. Sign in again." : undefined);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!token.trim()) {
      setError("Paste a bearer token.");
      return;
    }
    setBusy(true);
    setError(undefined);
    const result = await signIn("token", { token: token.trim(), redirect: false, callbackUrl });
    if (result?.ok && !result.error) {
      // A full navigation, so server components render with the new session cookie.
      window.location.assign(callbackUrl);
      return;
    }
    setBusy(false);
    setError(
      result?.error === "CredentialsSignin" || result?.status === 401
        ? "The server did not accept this token. Check that it is complete and not expired."
        : "Sign-in failed. Try again.",
    );
  }

  return (
    <form onSubmit={submit} className="space-y-4" aria-describedby={error ? "signin-error" : undefined}>
      <div>
        <label htmlFor="token" className="block text-sm font-medium">
          Bearer token
        </label>
        <p id="token-help" className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          Any token the API accepts: the admin token, a token-file user&apos;s, or a ServiceAccount token. It stays on the server in an
          encrypted, httpOnly session cookie.
        </p>
        <input
          id="token"
          name="token"
          type="password"
          autoComplete="off"
          autoFocus
          value={token}
          onChange={(e) => setToken(e.target.value)}
          aria-describedby="token-help"
          aria-invalid={!!error}
          className="mt-2 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-sm shadow-sm focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-600/30 dark:border-slate-700 dark:bg-slate-900"
        />
      </div>
      {error && (
        <p id="signin-error" role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
          {error}
        </p>
      )}
      <button
        type="submit"
        disabled={busy}
        className="w-full rounded-md bg-blue-700 px-3 py-2 text-sm font-semibold text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 disabled:opacity-60"
      >
        {busy ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
