import type { Metadata } from "next";
import { getServerSession } from "next-auth";
import { redirect } from "next/navigation";
import { safeCallbackUrl } from "@/components/auth/safe-callback";
import { ProviderSignIn } from "@/components/auth/provider-sign-in";
import { signInErrorMessage } from "@/components/auth/sign-in-errors";
import { SignInForm } from "@/components/auth/sign-in-form";
import { TokenHelp } from "@/components/auth/token-help";
import { authOptions, oidcProviderName } from "@/lib/server/sign-in";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = safeCallbackUrl(params.callbackUrl);
  const expired = params.expired === "1";
  const error = signInErrorMessage(typeof params.error === "string" ? params.error : undefined);
  if (!expired && (await getServerSession(authOptions))) redirect(callbackUrl);
  return (
    <main className="flex min-h-full items-center justify-center bg-slate-50 px-4 py-16 dark:bg-slate-950">
      <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-8 shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <h1 className="mb-1 text-xl font-semibold">Sign in to Cluster Core</h1>
        <p className="mb-6 text-sm text-slate-600 dark:text-slate-400">
          {oidcProviderName ? "Sign in with your organization's identity provider, or paste a bearer token." : "Paste a bearer token to open the console."} You see and change what that
          identity may.
        </p>
        {error && (
          <p role="alert" data-testid="signin-provider-error" className="mb-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
            {error}
          </p>
        )}
        {oidcProviderName && <ProviderSignIn name={oidcProviderName} callbackUrl={callbackUrl} />}
        <SignInForm callbackUrl={callbackUrl} expired={expired} />
        <TokenHelp />
      </div>
    </main>
  );
}
