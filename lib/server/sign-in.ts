// The console's sign-in options bound to this process's authenticator, so every identity the API accepts can
// sign in. The runtime is imported on the first sign-in only: pages that merely read the session
// (getServerSession) neither boot it nor bundle it.
import { signInOptions } from "../auth/next-auth-options";

export const authOptions = signInOptions(async (token) => {
  const { getRuntime } = await import("./runtime");
  return (await getRuntime()).authenticate(token);
});
