// The 403 a refused request gets, with kube-apiserver's exact message (responsewriters.Forbidden over
// apierrors.NewForbidden): the group-resource and name, then who cannot do what, where.
import type { Attributes } from "../authz/attributes";
import { forbiddenStatus } from "../authz/forbidden-message";
import { StatusError } from "./errors";

export function forbiddenError(attrs: Attributes, reason = ""): StatusError {
  const { message, details } = forbiddenStatus(attrs, reason);
  return new StatusError(403, "Forbidden", message, details);
}
