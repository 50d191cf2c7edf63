// Continue tokens in kube-apiserver's meta.k8s.io/v1 form: base64url (no padding) of
// {"v":"meta.k8s.io/v1","rv":<snapshot revision>,"start":"<next key>"}. Clients treat it as opaque.
import { errors } from "../status";

export interface ContinueToken {
  rv: number;
  /** Storage key (namespace/name) to continue from; the page starts strictly after `after`. */
  after: string;
}

export function encodeContinue(rv: number, lastKey: string): string {
  return Buffer.from(JSON.stringify({ v: "meta.k8s.io/v1", rv, start: `${lastKey}\u0000` })).toString("base64url");
}

export function decodeContinue(token: string): ContinueToken {
  let parsed: { v?: unknown; rv?: unknown; start?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
  } catch {
    throw errors.badRequest("invalid continue token: continue key is not valid: illegal base64 data");
  }
  if (parsed?.v !== "meta.k8s.io/v1") throw errors.badRequest("invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)");
  if (typeof parsed.rv !== "number" || !Number.isInteger(parsed.rv) || parsed.rv === 0) {
    throw errors.badRequest("invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)");
  }
  if (typeof parsed.start !== "string" || parsed.start === "" || parsed.start.split("/").includes("..")) {
    throw errors.badRequest("invalid continue token: continue key is not valid: key is not valid");
  }
  const start = parsed.start.endsWith("\u0000") ? parsed.start.slice(0, -1) : parsed.start;
  return { rv: parsed.rv, after: start };
}
