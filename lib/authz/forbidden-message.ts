// kube's 403 Status text: apimachinery errors.NewForbidden, and the authorization filter's message
// (endpoints/handlers/responsewriters Forbidden + forbiddenMessage) built on it.
import { StatusError } from "../status";
import type { Attributes } from "./attributes";
import { goErrorfNoArgs, goQuote } from "./go-format";

export interface ForbiddenDetails {
  name?: string;
  group?: string;
  /** The plural resource, as kube puts it in details.kind. */
  kind?: string;
}

/** errors.NewForbidden(groupResource, name, err): `<resource>[.<group>] ["<name>" ]is forbidden: <err>`. */
export function newForbidden(group: string, resource: string, name: string, errorText: string): StatusError {
  let message: string;
  if (group === "" && resource === "") message = `forbidden: ${errorText}`;
  else {
    const gr = group ? `${resource}.${group}` : resource;
    message = name === "" ? `${gr} is forbidden: ${errorText}` : `${gr} ${goQuote(name)} is forbidden: ${errorText}`;
  }
  // Only non-empty fields are set, so the JSON matches kube's omitempty Status details (`{}` for paths).
  const details: ForbiddenDetails = {};
  if (name) details.name = name;
  if (group) details.group = group;
  if (resource) details.kind = resource;
  return new StatusError(403, "Forbidden", message, details);
}

// Keeps an error from reading as HTML, as kube's sanitizer does; the reason is appended unsanitized.
function sanitize(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** The sentence after `is forbidden: ` (responsewriters forbiddenMessage). */
export function forbiddenReason(attrs: Attributes): string {
  const user = goQuote(attrs.user?.username ?? "");
  if (attrs.type !== "resource") return `User ${user} cannot ${attrs.verb} path ${goQuote(attrs.path)}`;
  const resource = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  const where = attrs.namespace ? `in the namespace ${goQuote(attrs.namespace)}` : "at the cluster scope";
  return `User ${user} cannot ${attrs.verb} resource ${goQuote(resource)} in API group ${goQuote(attrs.apiGroup)} ${where}`;
}

/**
 * The 403 for a request the authorizer did not allow. `reason` is the Decision's reason (non-empty when
 * RBAC could not resolve a binding's role); kube appends it after `: `.
 */
export function forbiddenError(attrs: Attributes, reason = ""): StatusError {
  const msg = sanitize(forbiddenReason(attrs));
  // kube passes the joined text to fmt.Errorf as the format, so `%` sequences come out mangled.
  const errorText = goErrorfNoArgs(reason ? `${msg}: ${reason}` : msg);
  if (attrs.type !== "resource") return newForbidden("", "", "", errorText);
  return newForbidden(attrs.apiGroup, attrs.resource, attrs.name, errorText);
}
