// The error factories, named after Kubernetes reasons, with kube-apiserver's exact messages.
import { StatusError, type StatusDetails } from "./status-error";
import type { FieldError } from "./field-error";
import { goQuote } from "./go-quote";

// Factories take kube's group-resource string (`pods`, `roles.rbac.authorization.k8s.io`): the message shows
// it whole, details split it into group and resource as kube's StatusDetails do.
const gr = (resource: string) => resource;
function grDetails(resource: string): { group?: string; kind: string } {
  const dot = resource.indexOf(".");
  return dot < 0 ? { kind: resource } : { group: resource.slice(dot + 1), kind: resource.slice(0, dot) };
}

export const errors = {
  notFound: (resource: string, name: string) =>
    new StatusError(404, "NotFound", `${gr(resource)} ${goQuote(name)} not found`, { name, ...grDetails(resource) }),
  routeNotFound: () =>
    new StatusError(404, "NotFound", "the server could not find the requested resource", {}),
  alreadyExists: (resource: string, name: string, terminating = false) =>
    new StatusError(409, "AlreadyExists", `${terminating ? "object is being deleted: " : ""}${gr(resource)} ${goQuote(name)} already exists`, { name, ...grDetails(resource) }),
  generateNameExhausted: (resource: string, name: string) =>
    new StatusError(409, "AlreadyExists", `${gr(resource)} ${goQuote(name)} already exists, the server was not able to generate a unique name for the object`, { name, ...grDetails(resource), retryAfterSeconds: 1 }),
  conflict: (resource: string, name: string, detail = "the object has been modified; please apply your changes to the latest version and try again") =>
    new StatusError(409, "Conflict", `Operation cannot be fulfilled on ${gr(resource)} ${goQuote(name)}: ${detail}`, { name, ...grDetails(resource) }),
  /** 422 Invalid for an object of `kind` (the Kind, not the plural, goes in details.kind). */
  invalid: (kind: string, name: string, errs: FieldError[], group?: string) => {
    const rendered = [...new Set(errs.map((e) => `${e.field}: ${e.detail}`))];
    const list = rendered.length === 1 ? rendered[0] : `[${rendered.join(", ")}]`;
    const gk = group ? `${kind}.${group}` : kind;
    const details: StatusDetails = { name, ...(group ? { group } : {}), kind, causes: errs.map((e) => ({ reason: e.type, message: e.detail, field: e.field })) };
    return new StatusError(422, "Invalid", `${gk} ${goQuote(name)} is invalid: ${list}`, details);
  },
  /** 422 for bad query options (ListOptions, DeleteOptions, ...) in group meta.k8s.io. */
  invalidOptions: (optionsKind: string, errs: FieldError[]) => errors.invalid(optionsKind, "", errs, "meta.k8s.io"),
  badRequest: (message: string) => new StatusError(400, "BadRequest", message),
  unauthorized: () => new StatusError(401, "Unauthorized", "Unauthorized"),
  /** 403 with kube's message; `resource` is a group-resource string when the refusal names one. */
  forbidden: (message: string, resource?: string, name?: string) =>
    new StatusError(403, "Forbidden", message, resource === undefined ? {} : { ...(name ? { name } : {}), ...grDetails(resource) }),
  methodNotAllowed: () =>
    new StatusError(405, "MethodNotAllowed", "the server does not allow this method on the requested resource", {}),
  verbNotSupported: (verb: string, resource: string) =>
    new StatusError(405, "MethodNotAllowed", `${verb} is not supported on resources of kind "${gr(resource)}"`, { kind: resource }),
  notAcceptable: (types: string) =>
    new StatusError(406, "NotAcceptable", `only the following media types are accepted: ${types}`),
  /** An `as=` conversion that does not fit the answer (e.g. PartialObjectMetadata of a list). */
  conversionNotAcceptable: (message: string) => new StatusError(406, "NotAcceptable", message),
  gone: (message: string, listMeta: { continue?: string } = {}) => new StatusError(410, "Expired", message, undefined, listMeta),
  tooLarge: (limit: number) =>
    new StatusError(413, "RequestEntityTooLarge", `Request entity too large: limit is ${limit}`),
  unsupportedMediaType: (accepted: string) =>
    new StatusError(415, "UnsupportedMediaType", `the body of the request was in an unknown format - accepted media types include: ${accepted}`),
  tooManyRequests: (message: string) =>
    new StatusError(429, "TooManyRequests", message, { retryAfterSeconds: 1 }),
  internal: (message: string) =>
    new StatusError(500, "InternalError", `Internal error occurred: ${message}`, { causes: [{ reason: "", message, field: "" }] }),
  timeout: (message: string, details?: StatusDetails) => new StatusError(504, "Timeout", message, details ?? {}),
};
