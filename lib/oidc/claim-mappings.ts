// kube's claim mappings for one verified token (plugin/pkg/authenticator/token/oidc's getUsername, getGroups,
// getUID, getExtra, then required claims, claim validation rules and user validation rules), with its messages:
// username from a claim (plus prefix; `email` needs `email_verified`, when present, to be the JSON `true`) or CEL;
// groups as a string or an array, or CEL; uid; `authentication.kubernetes.io/credential-id: ["JTI=<jti>"]` for any
// token with a `jti`, then the CEL extras.
import type { UserInfo } from "../auth/user-info";
import { celStringList, type CompiledExpression } from "./claims-cel";
import type { CompiledJWTAuthenticator } from "./validation";

export type Claims = Record<string, unknown>;

/** The JSON type's name as Go's decoding errors print it. */
export const goType = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v === "boolean" ? "bool" : typeof v === "object" ? "object" : typeof v);

export const CREDENTIAL_ID_KEY = "authentication.kubernetes.io/credential-id";

const cannotUnmarshal = (v: unknown, into: string) => `json: cannot unmarshal ${goType(v)} into Go value of type ${into}`;

function stringClaim(c: Claims, name: string): string {
  if (!(name in c)) throw new Error("claim not present");
  const v = c[name];
  if (v === null) return "";
  if (typeof v !== "string") throw new Error(cannotUnmarshal(v, "string"));
  return v;
}

function evaluateString(expr: CompiledExpression, claims: Claims, what: string): string {
  let value: unknown;
  try {
    value = expr.evaluate(claims);
  } catch (err) {
    throw new Error(`oidc: error evaluating ${what} claim expression: ${(err as Error).message}`);
  }
  if (typeof value !== "string") throw new Error(`oidc: error evaluating ${what} claim expression: ${what} claim expression must return a string`);
  return value;
}

/** kube's getUsername, getGroups, getUID, getExtra, required claims, claim and user rules, in its order. */
export function mapClaims(c: CompiledJWTAuthenticator, claims: Claims): UserInfo {
  const mappings = c.config.claimMappings;
  let username: string;
  if (c.username) {
    username = evaluateString(c.username, claims, "username");
    if (username === "") throw new Error("oidc: empty username via CEL expression is not allowed");
  } else {
    const claim = mappings.username.claim ?? "";
    try {
      username = stringClaim(claims, claim);
    } catch (err) {
      throw new Error(`oidc: parse username claims ${JSON.stringify(claim)}: ${(err as Error).message}`);
    }
    if (claim === "email" && "email_verified" in claims) {
      const verified = claims.email_verified;
      if (typeof verified !== "boolean" && verified !== null) throw new Error(`oidc: parse 'email_verified' claim: ${cannotUnmarshal(verified, "bool")}`);
      if (verified !== true) throw new Error("oidc: email not verified");
    }
    if (mappings.username.prefix) username = mappings.username.prefix + username;
  }

  let groups: string[] = [];
  const groupsClaim = mappings.groups?.claim ?? "";
  if (groupsClaim && groupsClaim in claims) {
    const v = claims[groupsClaim];
    if (typeof v === "string") groups = [v];
    else if (Array.isArray(v) && v.every((g) => typeof g === "string")) groups = [...v];
    else if (v === null) groups = [];
    else throw new Error(`oidc: parse groups claim ${JSON.stringify(groupsClaim)}: ${cannotUnmarshal(v, "string")}`);
    const prefix = mappings.groups?.prefix;
    if (prefix) groups = groups.map((g) => prefix + g);
  } else if (c.groups) {
    try {
      groups = celStringList(c.groups.evaluate(claims));
    } catch (err) {
      throw new Error(`oidc: error evaluating group claim expression: ${(err as Error).message}`);
    }
  }

  let uid = "";
  const uidClaim = mappings.uid?.claim ?? "";
  if (uidClaim) {
    try {
      uid = stringClaim(claims, uidClaim);
    } catch (err) {
      throw new Error(`oidc: parse uid claim ${JSON.stringify(uidClaim)}: ${(err as Error).message}`);
    }
  } else if (c.uid) {
    uid = evaluateString(c.uid, claims, "uid");
  }

  const extra: Record<string, string[]> = {};
  if (typeof claims.jti === "string" && claims.jti !== "") extra[CREDENTIAL_ID_KEY] = [`JTI=${claims.jti}`];
  for (const { key, value } of c.extra) {
    let values: string[];
    try {
      values = celStringList(value.evaluate(claims));
    } catch (err) {
      throw new Error(`oidc: error evaluating extra claim expression: ${value.expression}: ${(err as Error).message}`);
    }
    if (values.length) extra[key] = values;
  }

  for (const rule of c.config.claimValidationRules ?? []) {
    if (!rule.claim) continue;
    const claim = rule.claim;
    const want = rule.requiredValue ?? "";
    if (!(claim in claims)) throw new Error(`oidc: required claim ${claim} not present in ID token`);
    let got: string;
    try {
      got = stringClaim(claims, claim);
    } catch (err) {
      throw new Error(`oidc: parse claim ${claim}: ${(err as Error).message}`);
    }
    if (got !== want) throw new Error(`oidc: required claim ${claim} value does not match. Got = ${got}, want = ${want}`);
  }

  for (const { rule, message } of c.claimValidationRules) {
    const failure = checkRule(rule, claims);
    if (failure !== undefined) throw new Error(`oidc: error evaluating claim validation expression: ${failure || `validation expression '${rule.expression}' failed: ${message}`}`);
  }

  const user: UserInfo = { username, groups };
  if (uid) user.uid = uid;
  if (Object.keys(extra).length) user.extra = extra;
  if (c.userValidationRules.length) {
    const view = { username, uid, groups, extra };
    for (const { rule, message } of c.userValidationRules) {
      const failure = checkRule(rule, view);
      if (failure !== undefined) throw new Error(`oidc: error evaluating user info validation rule: ${failure || `validation expression '${rule.expression}' failed: ${message}`}`);
    }
  }
  return user;
}

/** undefined when the rule holds; "" when it is false; otherwise the evaluation problem. */
function checkRule(rule: CompiledExpression, input: unknown): string | undefined {
  let value: unknown;
  try {
    value = rule.evaluate(input);
  } catch (err) {
    return (err as Error).message;
  }
  if (typeof value !== "boolean") return "validation expression must return a boolean";
  return value ? undefined : "";
}
