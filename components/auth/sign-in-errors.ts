// The words for next-auth's sign-in error codes (`/signin?error=...`), shown on the sign-in page (a server
// component: this file is not client code).

/** What went wrong on the way back from the provider (next-auth's `error` codes), in words. */
export function signInErrorMessage(code: string | undefined): string | undefined {
  if (!code) return undefined;
  if (code === "NotAccepted") return "Your identity provider signed you in, but this server does not accept its token (issuer, audience or claim rules). Ask your administrator.";
  if (code === "OAuthSignin" || code === "OAuthCallback" || code === "Callback") return "Signing in with your identity provider did not complete. Try again.";
  if (code === "AccessDenied") return "Sign-in was refused.";
  if (code === "CredentialsSignin") return "The server did not accept this token. Check that it is complete and not expired.";
  return "Sign-in failed. Try again.";
}
