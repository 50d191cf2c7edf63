// SelfSubjectRulesReview (authorization.k8s.io/v1, `kubectl auth can-i --list`): every rule the caller holds
// in a namespace, from the authorizer's index.
import type { ActionHandler } from "../registry/action-handler";
import { errors } from "../status";
import type { UserInfo } from "../auth/user-info";
import { answer, asObject, objectField } from "./review-object";

const API_VERSION = "authorization.k8s.io/v1";

export interface RulesSource {
  rulesFor(user: UserInfo, namespace: string): { resourceRules: unknown[]; nonResourceRules: unknown[]; incomplete: boolean; evaluationError?: string };
}

export function selfSubjectRulesReview(source: RulesSource): ActionHandler {
  return async ({ user, body }) => {
    const request = asObject(body, "SelfSubjectRulesReview", API_VERSION);
    const spec = objectField(request, "spec") ?? {};
    const namespace = typeof spec.namespace === "string" ? spec.namespace : "";
    if (!namespace) {
      throw errors.invalid("SelfSubjectRulesReview", "", [{ type: "FieldValueRequired", field: "spec.namespace", detail: "Required value" }], "authorization.k8s.io");
    }
    const rules = source.rulesFor(user, namespace);
    return answer("SelfSubjectRulesReview", API_VERSION, request, spec, {
      resourceRules: rules.resourceRules, nonResourceRules: rules.nonResourceRules, incomplete: rules.incomplete,
      ...(rules.evaluationError ? { evaluationError: rules.evaluationError } : {}),
    });
  };
}
