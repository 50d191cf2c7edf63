// TokenReview (authentication.k8s.io/v1): another system asks whether a bearer token is valid and whose it
// is. Answered with the same authenticator the API uses; the token itself is never echoed back.
import type { ActionHandler } from "../api/handler";
import { errors } from "../api/errors";
import type { UserInfo } from "../auth/user-info";
import { answer, asObject, objectField } from "./review-object";

const API_VERSION = "authentication.k8s.io/v1";

export function tokenReview(authenticate: (token: string) => UserInfo | undefined, apiAudiences: string[]): ActionHandler {
  return async ({ body }) => {
    const request = asObject(body, "TokenReview", API_VERSION);
    const spec = objectField(request, "spec") ?? {};
    const token = typeof spec.token === "string" ? spec.token : "";
    if (!token) {
      throw errors.invalid("TokenReview", "", [{ type: "FieldValueRequired", field: "spec.token", detail: "Required value" }], "authentication.k8s.io");
    }
    const wanted = Array.isArray(spec.audiences) ? spec.audiences.filter((a): a is string => typeof a === "string") : [];
    const audiences = wanted.length ? wanted.filter((a) => apiAudiences.includes(a)) : apiAudiences;
    const user = wanted.length && audiences.length === 0 ? undefined : authenticate(token);
    const echoed = { ...spec, token: undefined };
    delete echoed.token;
    const status = user
      ? { authenticated: true, user: { username: user.username, ...(user.uid ? { uid: user.uid } : {}), groups: user.groups, ...(user.extra ? { extra: user.extra } : {}) }, audiences }
      : { user: {}, error: "[invalid bearer token, token lookup failed]" };
    return answer("TokenReview", API_VERSION, request, echoed, status);
  };
}
