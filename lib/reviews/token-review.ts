// TokenReview (authentication.k8s.io/v1): another system asks whether a bearer token is valid and whose it
// is. Answered with the same authenticator the API uses; the token itself is never echoed back.
import type { ActionHandler } from "../registry/action-handler";
import { errors } from "../status";
import type { AuthenticationResult } from "../auth/authenticator";
import { answer, asObject, objectField } from "./review-object";

const API_VERSION = "authentication.k8s.io/v1";

export function tokenReview(
  authenticate: (token: string, opts: { audiences?: readonly string[] }) => Promise<AuthenticationResult>,
): ActionHandler {
  return async ({ body }) => {
    const request = asObject(body, "TokenReview", API_VERSION);
    const spec = objectField(request, "spec") ?? {};
    const token = typeof spec.token === "string" ? spec.token : "";
    if (!token) {
      throw errors.invalid("TokenReview", "", [{ type: "FieldValueRequired", field: "spec.token", detail: "Required value" }], "authentication.k8s.io");
    }
    const audiences = Array.isArray(spec.audiences) ? spec.audiences.filter((a): a is string => typeof a === "string") : [];
    const result = await authenticate(token, audiences.length ? { audiences } : {});
    const echoed = { ...spec };
    delete echoed.token; // kube echoes the token back; we never repeat a credential
    const status = result.authenticated
      ? { authenticated: true, user: result.user, audiences: result.audiences }
      : { user: {}, ...(result.error ? { error: result.error } : {}) };
    return answer("TokenReview", API_VERSION, request, echoed, status);
  };
}
