// The console's sign-in options bound to this process's authenticator, so every identity the API accepts can
// sign in, and to the organization's OpenID Connect provider when one is configured (CONSOLE_OIDC_* or the
// API's OIDC_* settings). The runtime is imported on the first sign-in only: pages that merely read the
// session (getServerSession) neither boot it nor bundle it. A broken OIDC setting stops the start in the
// runtime's own configuration check; here it only leaves the button out.
import { readFileSync } from "node:fs";
import type { ConsoleOidc } from "../auth/console-oidc";
import { signInOptions } from "../auth/next-auth-options";
import { loadConsoleOidcConfig } from "../config/console-oidc";

function consoleOidc(): ConsoleOidc | undefined {
  try {
    const config = loadConsoleOidcConfig(process.env);
    if (!config) return undefined;
    const { caFile, ...rest } = config;
    return { ...rest, ca: caFile ? readFileSync(caFile, "utf8") : undefined };
  } catch (err) {
    console.error(`cluster-core: console sign-in with OIDC is off: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}

const oidc = consoleOidc();

/** The name of the console's OIDC provider ("Sign in with <name>"), when there is one. */
export const oidcProviderName = oidc?.name;

export const authOptions = signInOptions(
  async (token) => {
    const { getRuntime } = await import("./runtime");
    return (await getRuntime()).authenticate(token);
  },
  {
    oidc,
    consoleUrl: () => process.env.NEXTAUTH_URL,
    onRefreshError: (message) => console.warn(`cluster-core: console session refresh failed: ${message}`),
  },
);
