// Container environment variable names and envFrom prefixes. kube-apiserver 1.32 enables
// RelaxedEnvironmentVariableValidation (beta): any printable ASCII except '='.
export const RELAXED_ENV_VAR_NAME_MSG =
  "a valid environment variable name must consist only of printable ASCII characters other than '='";

export function envVarNameErrors(name: string): string[] {
  const errs: string[] = [];
  if (name.length === 0) errs.push("environment variable name must be non-empty");
  for (const ch of name) {
    const c = ch.codePointAt(0)!;
    if (c > 0x7e || c < 0x20 || ch === "=") {
      errs.push(RELAXED_ENV_VAR_NAME_MSG);
      break;
    }
  }
  return errs;
}
