// What a Pod update may change (ValidatePodUpdate, 1.32): container and init container images,
// activeDeadlineSeconds (set, or lowered), additions to tolerations (existing ones only in tolerationSeconds),
// removal of scheduling gates, and terminationGracePeriodSeconds from a negative value to 1. Anything else in
// spec is forbidden. The new pod's own validity is checked by the create rules (validatePodCreate).
import { field, type FieldError } from "../status";
import { validateTolerations } from "./toleration";
import { describeChanges, semanticEqual } from "./semantic-equal";
import { isSet, listOf, objectOf, optionalNumber, stringOf, type JsonObject } from "./zero-values";

export const UPDATABLE_POD_SPEC_FIELDS = [
  "`spec.containers[*].image`",
  "`spec.initContainers[*].image`",
  "`spec.activeDeadlineSeconds`",
  "`spec.tolerations` (only additions to existing tolerations)",
  "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)",
];

const MIRROR_ANNOTATION = "kubernetes.io/config.mirror";

/** ValidateContainerUpdates: same number of containers (else stop), every image set and trimmed. */
function containerUpdateErrors(next: unknown[], prev: unknown[], path: string): { errors: FieldError[]; stop: boolean } {
  if (next.length !== prev.length) return { errors: [field.forbidden(path, "pod updates may not add or remove containers")], stop: true };
  const errors: FieldError[] = [];
  next.forEach((c, i) => {
    const image = stringOf(objectOf(c).image);
    if (!image) errors.push(field.required(`${path}[${i}].image`));
    if (image.trim().length !== image.length) errors.push(field.invalid(`${path}[${i}].image`, image, "must not have leading or trailing whitespace"));
  });
  return { errors, stop: false };
}

/** validateOnlyAddedTolerations: every old toleration must still be there, up to its tolerationSeconds. */
function tolerationUpdateErrors(next: unknown[], prev: unknown[], path: string): FieldError[] {
  for (const old of prev) {
    const found = next.some((t) => semanticEqual({ ...objectOf(old), tolerationSeconds: undefined }, { ...objectOf(t), tolerationSeconds: undefined }));
    if (!found) return [field.forbidden(path, "existing toleration can not be modified except its tolerationSeconds")];
  }
  return validateTolerations(next, path);
}

function schedulingGateUpdateErrors(next: unknown[], prev: unknown[], path: string): FieldError[] {
  const old = new Set(prev.map((g) => stringOf(objectOf(g).name)));
  const errs: FieldError[] = [];
  const added = new Map<string, number>();
  next.forEach((g, i) => added.set(stringOf(objectOf(g).name), i));
  for (const [name, i] of added) {
    if (!old.has(name)) errs.push(field.forbidden(`${path}[${i}].name`, `only deletion is allowed, but found new scheduling gate '${name}'`));
  }
  return errs;
}

/** The update-only rules of ValidatePodUpdate, for `pod` replacing `old`. */
export function validatePodUpdate(pod: JsonObject, old: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const annotations = objectOf(objectOf(pod.metadata).annotations);
  const oldAnnotations = objectOf(objectOf(old.metadata).annotations);
  if (MIRROR_ANNOTATION in oldAnnotations && annotations[MIRROR_ANNOTATION] !== oldAnnotations[MIRROR_ANNOTATION]) {
    errs.push(field.forbidden(`metadata.annotations[${MIRROR_ANNOTATION}]`, "may not remove or update mirror pod annotation"));
  }
  if (MIRROR_ANNOTATION in annotations && !(MIRROR_ANNOTATION in oldAnnotations)) {
    errs.push(field.forbidden(`metadata.annotations[${MIRROR_ANNOTATION}]`, "may not add mirror pod annotation"));
  }
  const spec = objectOf(pod.spec);
  const oldSpec = objectOf(old.spec);
  for (const key of ["containers", "initContainers"]) {
    const result = containerUpdateErrors(listOf(spec[key]), listOf(oldSpec[key]), `spec.${key}`);
    errs.push(...result.errors);
    if (result.stop) return errs;
  }
  const deadline = optionalNumber(spec.activeDeadlineSeconds);
  const oldDeadline = optionalNumber(oldSpec.activeDeadlineSeconds);
  if (deadline !== undefined) {
    if (deadline < 0 || deadline > 2147483647) {
      errs.push(field.invalid("spec.activeDeadlineSeconds", deadline, "must be between 0 and 2147483647, inclusive"));
      return errs;
    }
    if (oldDeadline !== undefined && oldDeadline < deadline) {
      errs.push(field.invalid("spec.activeDeadlineSeconds", deadline, "must be less than or equal to previous value"));
      return errs;
    }
  } else if (oldDeadline !== undefined) {
    // Go prints a nil pointer as the string "null" (quoted).
    errs.push(field.invalid("spec.activeDeadlineSeconds", "null", "must not update from a positive integer to nil value"));
  }
  errs.push(...tolerationUpdateErrors(listOf(spec.tolerations), listOf(oldSpec.tolerations), "spec.tolerations"));
  errs.push(...schedulingGateUpdateErrors(listOf(spec.schedulingGates), listOf(oldSpec.schedulingGates), "spec.schedulingGates"));
  if (semanticEqual(spec, oldSpec)) return errs;

  // Put back what may change, then anything still different is forbidden.
  const munged: JsonObject = { ...spec };
  for (const key of ["containers", "initContainers"]) {
    if (isSet(spec[key])) {
      munged[key] = listOf(spec[key]).map((c, i) => ({ ...objectOf(c), image: objectOf(listOf(oldSpec[key])[i]).image }));
    }
  }
  munged.activeDeadlineSeconds = oldSpec.activeDeadlineSeconds;
  munged.schedulingGates = oldSpec.schedulingGates;
  munged.tolerations = oldSpec.tolerations;
  const oldGrace = optionalNumber(oldSpec.terminationGracePeriodSeconds);
  if (oldGrace !== undefined && oldGrace < 0 && munged.terminationGracePeriodSeconds === 1) munged.terminationGracePeriodSeconds = oldGrace;
  if (listOf(oldSpec.schedulingGates).length > 0) {
    // A gated pod may gain node selectors and node-affinity requirements; the scheduler has not placed it yet.
    const oldSelector = objectOf(oldSpec.nodeSelector);
    const selector = objectOf(munged.nodeSelector);
    if (!semanticEqual(selector, oldSelector)) {
      if (Object.entries(oldSelector).some(([k, v]) => selector[k] !== v)) {
        errs.push({ type: "FieldValueInvalid", field: "spec.nodeSelector", detail: `Invalid value: ${goMap(selector)}: only additions to spec.nodeSelector are allowed (no mutations or deletions)` });
      }
      munged.nodeSelector = oldSpec.nodeSelector;
    }
  }
  if (!semanticEqual(munged, oldSpec)) {
    const diff = ["  core.PodSpec{", ...describeChanges(oldSpec, munged).map((l) => `${l[0]} \t${l.slice(2)},`), "  }"].join("\n");
    errs.push(field.forbidden("spec", `pod updates may not change fields other than ${UPDATABLE_POD_SPEC_FIELDS.join(",")}\n${diff}`));
  }
  return errs;
}

const goMap = (m: JsonObject) =>
  `map[string]string{${Object.keys(m).sort().map((k) => `${JSON.stringify(k)}:${JSON.stringify(stringOf(m[k]))}`).join(", ")}}`;
