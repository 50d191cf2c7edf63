// kube's AuthenticationConfiguration (apiserver.config.k8s.io/v1beta1, also v1alpha1; the same shape in 1.32):
// the types and the strict decoding kube applies to AUTHENTICATION_CONFIG (YAML or JSON): an unknown or
// duplicated field refuses the file, naming the field, as `strict decoding error: unknown field "jwt[0].x"`.
import { parse } from "yaml";

export const API_VERSIONS = ["apiserver.config.k8s.io/v1beta1", "apiserver.config.k8s.io/v1alpha1"] as const;

export interface Issuer {
  url: string;
  discoveryURL?: string;
  certificateAuthority?: string;
  audiences: string[];
  audienceMatchPolicy?: string;
}
export interface ClaimValidationRule { claim?: string; requiredValue?: string; expression?: string; message?: string }
export interface PrefixedClaimOrExpression { claim?: string; prefix?: string; expression?: string }
export interface ClaimOrExpression { claim?: string; expression?: string }
export interface ExtraMapping { key: string; valueExpression: string }
export interface ClaimMappings {
  username: PrefixedClaimOrExpression;
  groups?: PrefixedClaimOrExpression;
  uid?: ClaimOrExpression;
  extra?: ExtraMapping[];
}
export interface UserValidationRule { expression: string; message?: string }
export interface JWTAuthenticator {
  issuer: Issuer;
  claimValidationRules?: ClaimValidationRule[];
  claimMappings: ClaimMappings;
  userValidationRules?: UserValidationRule[];
}
export interface AnonymousAuthConfig { enabled: boolean; conditions?: { path: string }[] }
export interface AuthenticationConfiguration {
  apiVersion?: string;
  kind?: string;
  jwt: JWTAuthenticator[];
  anonymous?: AnonymousAuthConfig;
}

// The schema strict decoding checks against: a field is a scalar type, a struct, or a list of either.
type Shape = "string" | "boolean" | { struct: Record<string, Shape> } | { list: Shape };
const str: Shape = "string";
const struct = (fields: Record<string, Shape>): Shape => ({ struct: fields });
const list = (of: Shape): Shape => ({ list: of });
const prefixed = struct({ claim: str, prefix: str, expression: str });
const SCHEMA = struct({
  apiVersion: str,
  kind: str,
  jwt: list(struct({
    issuer: struct({ url: str, discoveryURL: str, certificateAuthority: str, audiences: list(str), audienceMatchPolicy: str }),
    claimValidationRules: list(struct({ claim: str, requiredValue: str, expression: str, message: str })),
    claimMappings: struct({
      username: prefixed,
      groups: prefixed,
      uid: struct({ claim: str, expression: str }),
      extra: list(struct({ key: str, valueExpression: str })),
    }),
    userValidationRules: list(struct({ expression: str, message: str })),
  })),
  anonymous: struct({ enabled: "boolean", conditions: list(struct({ path: str })) }),
});

const jsonType = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

function check(value: unknown, shape: Shape, path: string, unknown: string[], wrong: string[]): unknown {
  if (value === null || value === undefined) return undefined; // Go leaves the zero value
  if (shape === "string" || shape === "boolean") {
    if (typeof value !== shape) wrong.push(`${path || "<root>"}: expected ${shape}, got ${jsonType(value)}`);
    return value;
  }
  if ("list" in shape) {
    if (!Array.isArray(value)) {
      wrong.push(`${path}: expected array, got ${jsonType(value)}`);
      return undefined;
    }
    return value.map((v, i) => check(v, shape.list, `${path}[${i}]`, unknown, wrong));
  }
  if (typeof value !== "object" || Array.isArray(value)) {
    wrong.push(`${path || "<root>"}: expected object, got ${jsonType(value)}`);
    return undefined;
  }
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const fieldPath = path ? `${path}.${key}` : key;
    const fieldShape = shape.struct[key];
    if (!fieldShape) {
      unknown.push(`unknown field ${JSON.stringify(fieldPath)}`);
      continue;
    }
    const checked = check(v, fieldShape, fieldPath, unknown, wrong);
    if (checked !== undefined) out[key] = checked;
  }
  return out;
}

/** Decodes the file's text strictly, or throws kube's message. Semantic checks are validation.ts's. */
export function decodeAuthenticationConfiguration(text: string): AuthenticationConfiguration {
  if (text.trim() === "") throw new Error("empty config data");
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (err) {
    const e = err as Error & { code?: string; linePos?: { line: number }[] };
    if (e.code === "DUPLICATE_KEY") {
      const line = e.linePos?.[0]?.line ?? 0;
      const key = /^\s*-?\s*"?([^":]+)"?\s*:/.exec(text.split("\n")[line - 1] ?? "")?.[1] ?? "";
      throw new Error(`strict decoding error: yaml: unmarshal errors:\n  line ${line}: key ${JSON.stringify(key)} already set in map`);
    }
    throw new Error(`error converting YAML to JSON: ${e.message.split("\n")[0]}`);
  }
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw new Error("couldn't get version/kind; json parse error: not an object");
  const { apiVersion, kind } = raw as { apiVersion?: unknown; kind?: unknown };
  if (typeof kind !== "string" || kind === "") throw new Error(`Object 'Kind' is missing in '${JSON.stringify(raw).slice(0, 200)}'`);
  if (typeof apiVersion !== "string" || !(API_VERSIONS as readonly string[]).includes(apiVersion) || kind !== "AuthenticationConfiguration") {
    throw new Error(`no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(String(apiVersion ?? ""))} in scheme "pkg/kubeapiserver/options/authentication.go"`);
  }
  const unknown: string[] = [];
  const wrong: string[] = [];
  const decoded = check(raw, SCHEMA, "", unknown, wrong) as Partial<AuthenticationConfiguration>;
  if (wrong.length) throw new Error(wrong.join(", "));
  if (unknown.length) throw new Error(`strict decoding error: ${unknown.join(", ")}`);
  const config: AuthenticationConfiguration = { ...decoded, jwt: decoded.jwt ?? [] } as AuthenticationConfiguration;
  for (const a of config.jwt) {
    a.issuer ??= { url: "", audiences: [] };
    a.issuer.audiences ??= [];
    a.issuer.url ??= "";
    a.claimMappings ??= { username: {} };
    a.claimMappings.username ??= {};
  }
  return config;
}
