// The OIDC_* settings (kube-apiserver's --oidc-* flags) as the one JWTAuthenticator kube builds from them
// (pkg/kubeapiserver/options/authentication.go): the username prefix defaults to `<issuer>#` for any claim but
// `email`, `-` disables it; the groups prefix is used as given; required claims become claim validation rules;
// OIDC_CA_FILE is read into the issuer's certificateAuthority; OIDC_SIGNING_ALGS applies to these settings only.
import { readFileSync } from "node:fs";
import type { JWTAuthenticator } from "./authentication-configuration";
import { ALL_SIGNING_ALGS } from "./jwt-authenticator";

export interface OidcFlags {
  issuerURL: string;
  clientID: string;
  usernameClaim: string;
  usernamePrefix?: string;
  groupsClaim?: string;
  groupsPrefix?: string;
  requiredClaims: readonly (readonly [string, string])[];
  caFile?: string;
  signingAlgs: readonly string[];
}

/** Throws kube's `oidc: unsupported signing alg: "HS256"` for an algorithm kube does not allow. */
export function checkSigningAlgs(algs: readonly string[]): string[] {
  const list = algs.length ? [...algs] : ["RS256"];
  for (const alg of list) if (!ALL_SIGNING_ALGS.includes(alg)) throw new Error(`oidc: unsupported signing alg: ${JSON.stringify(alg)}`);
  return list;
}

export function jwtAuthenticatorFromFlags(flags: OidcFlags, readFile: (path: string) => string = (p) => readFileSync(p, "utf8")): JWTAuthenticator {
  let usernamePrefix = flags.usernamePrefix ?? "";
  if (usernamePrefix === "" && flags.usernameClaim !== "email") usernamePrefix = `${flags.issuerURL}#`;
  if (flags.usernamePrefix === "-") usernamePrefix = "";
  const authenticator: JWTAuthenticator = {
    issuer: { url: flags.issuerURL, audiences: [flags.clientID] },
    claimMappings: { username: { claim: flags.usernameClaim, prefix: usernamePrefix } },
  };
  if (flags.groupsClaim) authenticator.claimMappings.groups = { claim: flags.groupsClaim, prefix: flags.groupsPrefix ?? "" };
  if (flags.caFile) {
    try {
      authenticator.issuer.certificateAuthority = readFile(flags.caFile);
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      throw new Error(`OIDC_CA_FILE: open ${flags.caFile}: ${e.code === "ENOENT" ? "no such file or directory" : e.message}`);
    }
  }
  if (flags.requiredClaims.length) {
    authenticator.claimValidationRules = flags.requiredClaims.map(([claim, requiredValue]) => ({ claim, requiredValue }));
  }
  return authenticator;
}
