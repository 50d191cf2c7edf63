// SubjectAccessReview, LocalSubjectAccessReview and SelfSubjectAccessReview (authorization.k8s.io/v1):
// "may this user do this?", answered by the same authorizer that guards every request (`kubectl auth can-i`).
import type { ActionHandler } from "../registry/action-handler";
import { errors, type FieldError } from "../status";
import type { UserInfo } from "../auth/user-info";
import type { Attributes, Authorizer } from "../authz/attributes";
import { answer, asObject, objectField, type Obj } from "./review-object";

const API_VERSION = "authorization.k8s.io/v1";
const GROUP = "authorization.k8s.io";

type Variant = "SubjectAccessReview" | "LocalSubjectAccessReview" | "SelfSubjectAccessReview";

const str = (v: unknown) => (typeof v === "string" ? v : "");

function attributesFor(user: UserInfo, spec: Obj): Attributes {
  const res = objectField(spec, "resourceAttributes");
  if (res) {
    return {
      type: "resource", user, verb: str(res.verb), apiGroup: str(res.group), resource: str(res.resource),
      subresource: str(res.subresource), namespace: str(res.namespace), name: str(res.name),
    };
  }
  const non = objectField(spec, "nonResourceAttributes") ?? {};
  return { type: "nonResource", user, verb: str(non.verb), path: str(non.path) };
}

function validate(kind: Variant, spec: Obj, pathNamespace: string): FieldError[] {
  const errs: FieldError[] = [];
  const res = objectField(spec, "resourceAttributes");
  const non = objectField(spec, "nonResourceAttributes");
  if (!!res === !!non) {
    errs.push({ type: "FieldValueInvalid", field: "spec.resourceAttributes", detail: `Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified` });
  }
  if (kind !== "SelfSubjectAccessReview" && !str(spec.user) && !(Array.isArray(spec.groups) && spec.groups.length)) {
    errs.push({ type: "FieldValueInvalid", field: "spec.user", detail: `Invalid value: "": at least one of user or group must be specified` });
  }
  if (kind === "LocalSubjectAccessReview") {
    if (non) errs.push({ type: "FieldValueInvalid", field: "spec.nonResourceAttributes", detail: "Invalid value: \"\": disallowed on this kind of request" });
    if (res && str(res.namespace) !== pathNamespace) {
      errs.push({ type: "FieldValueInvalid", field: "spec.resourceAttributes.namespace", detail: `Invalid value: ${JSON.stringify(str(res.namespace))}: must match metadata.namespace` });
    }
  }
  return errs;
}

function subjectOf(spec: Obj): UserInfo {
  const groups = Array.isArray(spec.groups) ? spec.groups.filter((g): g is string => typeof g === "string") : [];
  const extra = objectField(spec, "extra") as Record<string, string[]> | undefined;
  return { username: str(spec.user), ...(str(spec.uid) ? { uid: str(spec.uid) } : {}), groups, ...(extra ? { extra } : {}) };
}

export function accessReview(kind: Variant, authorizer: Authorizer): ActionHandler {
  return async ({ user, body, namespace }) => {
    const request = asObject(body, kind, API_VERSION);
    const spec = { ...(objectField(request, "spec") ?? {}) };
    if (kind === "LocalSubjectAccessReview") {
      const meta = objectField(request, "metadata") ?? {};
      if (str(meta.namespace) && str(meta.namespace) !== namespace) {
        throw errors.badRequest("namespace of the provided object does not match the namespace sent on the request");
      }
      request.metadata = { ...meta, namespace };
      const res = objectField(spec, "resourceAttributes");
      if (res && !str(res.namespace)) spec.resourceAttributes = { ...res, namespace };
    }
    const errs = validate(kind, spec, namespace);
    if (errs.length) throw errors.invalid(kind, "", errs, GROUP);
    const subject = kind === "SelfSubjectAccessReview" ? user : subjectOf(spec);
    const decision = authorizer.authorize(attributesFor(subject, spec));
    const status = decision.allowed ? { allowed: true, ...(decision.reason ? { reason: decision.reason } : {}) } : { allowed: false };
    return answer(kind, API_VERSION, request, spec, status);
  };
}
