// kube's ValidateAuthenticationConfiguration (apiserver/pkg/apis/apiserver/validation), with its field paths and
// messages, compiling every CEL expression once as it goes. Used for AUTHENTICATION_CONFIG and for the single
// issuer the OIDC_* settings describe (kube validates both the same way).
import { X509Certificate } from "node:crypto";
import { field, type FieldError } from "../status/field-error";
import type { AuthenticationConfiguration, JWTAuthenticator, PrefixedClaimOrExpression } from "./authentication-configuration";
import { CelCompileError, compileExpression, type CelVariable, type CompiledExpression } from "./claims-cel";

export interface CompiledRule { rule: CompiledExpression; message: string }

/** One issuer's settings with its expressions compiled. */
export interface CompiledJWTAuthenticator {
  config: JWTAuthenticator;
  username?: CompiledExpression;
  groups?: CompiledExpression;
  uid?: CompiledExpression;
  extra: { key: string; value: CompiledExpression }[];
  claimValidationRules: CompiledRule[];
  userValidationRules: CompiledRule[];
}

const MAX_AUTHENTICATORS = 64;

/** kube's utilerrors aggregate text: one message alone, several as `[a, b]`. */
export function aggregate(errors: readonly FieldError[]): string {
  const messages = [...new Set(errors.map((e) => `${e.field}: ${e.detail}`))];
  return messages.length === 1 ? messages[0] : `[${messages.join(", ")}]`;
}

function validateURL(url: string, disallowed: ReadonlySet<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (disallowed.has(url)) {
    errs.push(field.invalid(path, url, `URL must not overlap with disallowed issuers: [${[...disallowed].sort().join(" ")}]`));
  }
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    errs.push(field.invalid(path, url, `parse ${JSON.stringify(url)}: invalid URI for request`));
    return errs;
  }
  if (u.protocol !== "https:") errs.push(field.invalid(path, url, "URL scheme must be https"));
  if (u.username || u.password) errs.push(field.invalid(path, url, "URL must not contain a username or password"));
  if (u.search.length > 1 || url.includes("?")) errs.push(field.invalid(path, url, "URL must not contain a query"));
  if (u.hash.length > 1 || url.includes("#")) errs.push(field.invalid(path, url, "URL must not contain a fragment"));
  return errs;
}

function validateCertificateAuthority(pem: string, path: string): FieldError[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  let ok = 0;
  for (const block of blocks) {
    try {
      new X509Certificate(block);
      ok++;
    } catch {
      return [field.invalid(path, "<omitted>", "x509: malformed certificate")];
    }
  }
  return ok ? [] : [field.invalid(path, "<omitted>", "data does not contain any valid RSA or ECDSA certificates")];
}

function compile(expression: string, variable: CelVariable, path: string, errs: FieldError[]): CompiledExpression | undefined {
  try {
    return compileExpression(expression, variable);
  } catch (err) {
    if (err instanceof CelCompileError) errs.push(field.invalid(path, expression, err.message));
    else throw err;
    return undefined;
  }
}

function validatePrefixed(m: PrefixedClaimOrExpression | undefined, path: string, required: boolean, errs: FieldError[]): CompiledExpression | undefined {
  const claim = m?.claim ?? "";
  const expression = m?.expression ?? "";
  if (expression && claim) {
    errs.push(field.invalid(path, "", "claim and expression can't both be set"));
  } else if (!expression && !claim && required) {
    errs.push(field.required(path, "claim or expression is required"));
  } else if (expression) {
    if (m?.prefix !== undefined) errs.push(field.invalid(`${path}.prefix`, m.prefix, "may not be specified when expression is set"));
    return compile(expression, "claims", `${path}.expression`, errs);
  } else if (claim && m?.prefix === undefined) {
    errs.push(field.required(`${path}.prefix`, "prefix is required when claim is set. It can be set to an empty string to disable prefixing"));
  }
  return undefined;
}

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function validateExtraKey(key: string, path: string): FieldError[] {
  if (!key) return [field.required(path, "")];
  const slash = key.indexOf("/");
  if (slash <= 0 || slash === key.length - 1) return [field.invalid(path, key, `must be a domain-prefixed path (such as "acme.io/foo")`)];
  const domain = key.slice(0, slash);
  const errs: FieldError[] = [];
  if (domain.length > 253 || !DNS1123_SUBDOMAIN.test(domain)) {
    errs.push(field.invalid(path, domain, "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"));
  }
  if (!/^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/.test(key.slice(slash + 1))) {
    errs.push(field.invalid(path, key, "Invalid path"));
  }
  if (key !== key.toLowerCase()) errs.push(field.invalid(path, key, "must be lowercase"));
  if (/^(.+\.)?(kubernetes\.io|k8s\.io)$/.test(domain)) errs.push(field.invalid(path, key, "k8s.io, kubernetes.io and their subdomains are reserved for Kubernetes use"));
  return errs;
}

function validateJWTAuthenticator(a: JWTAuthenticator, path: string, disallowed: ReadonlySet<string>, errs: FieldError[]): CompiledJWTAuthenticator {
  const out: CompiledJWTAuthenticator = { config: a, extra: [], claimValidationRules: [], userValidationRules: [] };
  const issuer = a.issuer;
  const ip = `${path}.issuer`;
  if (!issuer.url) errs.push(field.required(`${ip}.url`, ""));
  else errs.push(...validateURL(issuer.url, disallowed, `${ip}.url`));
  if (issuer.discoveryURL) {
    if (issuer.url && issuer.url.replace(/\/+$/, "") === issuer.discoveryURL.replace(/\/+$/, "")) {
      errs.push(field.invalid(`${ip}.discoveryURL`, issuer.discoveryURL, "discoveryURL must be different from URL"));
    }
    errs.push(...validateURL(issuer.discoveryURL, new Set(), `${ip}.discoveryURL`));
  }
  const audiences = issuer.audiences ?? [];
  if (audiences.length === 0) {
    errs.push(field.required(`${ip}.audiences`, `at least one ${ip}.audiences is required`));
  } else {
    const seen = new Set<string>();
    audiences.forEach((aud, i) => {
      if (!aud) errs.push(field.required(`${ip}.audiences[${i}]`, ""));
      if (seen.has(aud)) errs.push(field.duplicate(`${ip}.audiences[${i}]`, aud));
      seen.add(aud);
    });
    const policy = issuer.audienceMatchPolicy ?? "";
    if (audiences.length > 1 && policy !== "MatchAny") {
      errs.push(field.invalid(`${ip}.audienceMatchPolicy`, policy, "audienceMatchPolicy must be MatchAny for multiple audiences"));
    }
    if (audiences.length === 1 && policy !== "" && policy !== "MatchAny") {
      errs.push(field.invalid(`${ip}.audienceMatchPolicy`, policy, "audienceMatchPolicy must be empty or MatchAny for single audience"));
    }
  }
  if (issuer.certificateAuthority) errs.push(...validateCertificateAuthority(issuer.certificateAuthority, `${ip}.certificateAuthority`));

  let usesEmailVerified = false;
  const seenClaims = new Set<string>();
  const seenExpressions = new Set<string>();
  (a.claimValidationRules ?? []).forEach((rule, i) => {
    const rp = `${path}.claimValidationRules[${i}]`;
    const claim = rule.claim ?? "";
    const expression = rule.expression ?? "";
    if (claim && expression) errs.push(field.invalid(rp, claim, "claim and expression can't both be set"));
    else if (!claim && !expression) errs.push(field.required(rp, "claim or expression is required"));
    else if (claim) {
      if (rule.message) errs.push(field.invalid(`${rp}.message`, rule.message, "may not be specified when claim is set"));
      if (seenClaims.has(claim)) errs.push(field.duplicate(`${rp}.claim`, claim));
      seenClaims.add(claim);
    } else {
      if (rule.requiredValue) errs.push(field.invalid(`${rp}.requiredValue`, rule.requiredValue, "may not be specified when expression is set"));
      if (seenExpressions.has(expression)) {
        errs.push(field.duplicate(`${rp}.expression`, expression));
        return;
      }
      seenExpressions.add(expression);
      const compiled = compile(expression, "claims", `${rp}.expression`, errs);
      if (compiled) {
        out.claimValidationRules.push({ rule: compiled, message: rule.message ?? "" });
        usesEmailVerified ||= compiled.selects.has("email_verified");
      }
    }
  });

  const mp = `${path}.claimMappings`;
  const m = a.claimMappings;
  out.username = validatePrefixed(m.username, `${mp}.username`, true, errs);
  out.groups = validatePrefixed(m.groups, `${mp}.groups`, false, errs);
  if (m.uid?.claim && m.uid?.expression) errs.push(field.invalid(`${mp}.uid`, "", "claim and expression can't both be set"));
  else if (m.uid?.expression) out.uid = compile(m.uid.expression, "claims", `${mp}.uid.expression`, errs);
  const seenKeys = new Set<string>();
  (m.extra ?? []).forEach((mapping, i) => {
    const ep = `${mp}.extra[${i}]`;
    errs.push(...validateExtraKey(mapping.key ?? "", `${ep}.key`));
    if (seenKeys.has(mapping.key)) {
      errs.push(field.duplicate(`${ep}.key`, mapping.key));
      return;
    }
    seenKeys.add(mapping.key);
    if (!mapping.valueExpression) {
      errs.push(field.required(`${ep}.valueExpression`, ""));
      return;
    }
    const compiled = compile(mapping.valueExpression, "claims", `${ep}.valueExpression`, errs);
    if (compiled) {
      out.extra.push({ key: mapping.key, value: compiled });
      usesEmailVerified ||= compiled.selects.has("email_verified");
    }
  });
  if (out.username) usesEmailVerified ||= out.username.selects.has("email_verified");
  if (out.username?.selects.has("email") && !usesEmailVerified) {
    errs.push(field.invalid(`${mp}.username.expression`, m.username.expression,
      "claims.email_verified must be used in claimMappings.username.expression or claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when claims.email is used in claimMappings.username.expression"));
  }

  const seenUserRules = new Set<string>();
  (a.userValidationRules ?? []).forEach((rule, i) => {
    const up = `${path}.userValidationRules[${i}]`;
    if (!rule.expression) {
      errs.push(field.required(`${up}.expression`, ""));
      return;
    }
    if (seenUserRules.has(rule.expression)) {
      errs.push(field.duplicate(`${up}.expression`, rule.expression));
      return;
    }
    seenUserRules.add(rule.expression);
    const compiled = compile(rule.expression, "user", `${up}.expression`, errs);
    if (compiled) out.userValidationRules.push({ rule: compiled, message: rule.message ?? "" });
  });
  return out;
}

/** Validates the whole configuration; `disallowedIssuers` are the ServiceAccount token issuers. */
export function validateAuthenticationConfiguration(
  config: AuthenticationConfiguration,
  disallowedIssuers: readonly string[],
): { errors: FieldError[]; authenticators: CompiledJWTAuthenticator[] } {
  const errors: FieldError[] = [];
  if (config.jwt.length > MAX_AUTHENTICATORS) return { errors: [field.tooMany("jwt", config.jwt.length, MAX_AUTHENTICATORS)], authenticators: [] };
  const disallowed = new Set(disallowedIssuers);
  const seenIssuers = new Set<string>();
  const seenDiscovery = new Set<string>();
  const authenticators = config.jwt.map((a, i) => {
    const compiled = validateJWTAuthenticator(a, `jwt[${i}]`, disallowed, errors);
    if (seenIssuers.has(a.issuer.url)) errors.push(field.duplicate(`jwt[${i}].issuer.url`, a.issuer.url));
    seenIssuers.add(a.issuer.url);
    if (a.issuer.discoveryURL) {
      if (seenDiscovery.has(a.issuer.discoveryURL)) errors.push(field.duplicate(`jwt[${i}].issuer.discoveryURL`, a.issuer.discoveryURL));
      seenDiscovery.add(a.issuer.discoveryURL);
    }
    return compiled;
  });
  if (config.anonymous?.enabled) {
    errors.push(field.forbidden("anonymous", "anonymous authentication is not supported by this server"));
  }
  return { errors, authenticators };
}
