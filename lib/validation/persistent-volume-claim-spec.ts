// PersistentVolumeClaim spec rules (ValidatePersistentVolumeClaimSpec, and the update rules of
// ValidatePersistentVolumeClaimUpdate with RecoverVolumeExpansionFailure on, as in 1.32).
import { field, type FieldError } from "../status";
import { validateAccessModes } from "./access-modes";
import { dns1123SubdomainErrors, dnsLabelNameErrors } from "./dns-names";
import { validateLabelSelector } from "./label-selector";
import { compareQuantities } from "./quantity";
import { quantityOf, validatePositiveQuantity, validateResourceQuantityValue } from "./resource-requirements";
import { describeChanges, semanticEqual } from "./semantic-equal";
import { validateClassName } from "./volume-source";
import { isSet, listOf, objectOf, stringOf, type JsonObject } from "./zero-values";

const BETA_STORAGE_CLASS = "volume.beta.kubernetes.io/storage-class";

function validateDataSource(source: unknown, path: string, withNamespace: boolean): FieldError[] {
  const ref = objectOf(source);
  const kind = stringOf(ref.kind);
  const apiGroup = stringOf(ref.apiGroup);
  const errs: FieldError[] = [];
  if (!stringOf(ref.name)) errs.push(field.required(`${path}.name`));
  if (!kind) errs.push(field.required(`${path}.kind`));
  if (!apiGroup && kind !== "PersistentVolumeClaim") errs.push(field.invalid(path, kind, "must be 'PersistentVolumeClaim' when referencing the default apiGroup"));
  if (apiGroup) for (const m of dns1123SubdomainErrors(apiGroup)) errs.push(field.invalid(`${path}.apiGroup`, apiGroup, m));
  const ns = stringOf(ref.namespace);
  if (withNamespace && ns) for (const m of dnsLabelNameErrors(ns)) errs.push(field.invalid(`${path}.namespace`, ns, m));
  return errs;
}

/** ValidatePersistentVolumeClaimSpec at spec. */
export function validatePersistentVolumeClaimSpec(specValue: unknown, path = "spec"): FieldError[] {
  const spec = objectOf(specValue);
  const errs: FieldError[] = [];
  const modes = listOf(spec.accessModes);
  if (modes.length === 0) errs.push(field.required(`${path}.accessModes`, "at least 1 access mode is required"));
  if (isSet(spec.selector)) errs.push(...validateLabelSelector(spec.selector, `${path}.selector`));
  errs.push(...validateAccessModes(modes, `${path}.accessModes`));
  const requests = objectOf(objectOf(spec.resources).requests);
  const storagePath = `${path}.resources[storage]`;
  if (!("storage" in requests)) {
    errs.push(field.required(storagePath));
  } else {
    const q = quantityOf(requests.storage);
    const positive = validatePositiveQuantity(q, storagePath);
    errs.push(...(positive.length ? positive : validateResourceQuantityValue("storage", q, storagePath)));
  }
  const className = stringOf(spec.storageClassName);
  if (className) errs.push(...validateClassName(className, `${path}.storageClassName`));
  if (isSet(spec.volumeMode) && !["Block", "Filesystem"].includes(stringOf(spec.volumeMode))) {
    errs.push(field.notSupported(`${path}.volumeMode`, spec.volumeMode, ["Block", "Filesystem"]));
  }
  if (isSet(spec.dataSource)) errs.push(...validateDataSource(spec.dataSource, `${path}.dataSource`, false));
  if (isSet(spec.dataSourceRef)) errs.push(...validateDataSource(spec.dataSourceRef, `${path}.dataSourceRef`, true));
  const vac = stringOf(spec.volumeAttributesClassName);
  if (vac) errs.push(...validateClassName(vac, `${path}.volumeAttributesClassName`));
  return errs;
}

/**
 * The update-only rules: a claim's spec is fixed once created, except that volumeName may be set once, the
 * storage request (and volumeAttributesClassName) of a Bound claim may change, storageClassName may move from
 * the beta annotation or from unset, and the request never drops to status.capacity or below.
 */
export function validatePersistentVolumeClaimUpdate(pvc: JsonObject, old: JsonObject): FieldError[] {
  const spec = objectOf(pvc.spec);
  const oldSpec = objectOf(old.spec);
  const annotations = objectOf(objectOf(pvc.metadata).annotations);
  const oldAnnotations = objectOf(objectOf(old.metadata).annotations);
  const errs: FieldError[] = [];
  const next: JsonObject = { ...spec };
  const prev: JsonObject = { ...oldSpec };
  if (!stringOf(oldSpec.volumeName)) prev.volumeName = next.volumeName;
  const oldBeta = oldAnnotations[BETA_STORAGE_CLASS];
  const newBeta = annotations[BETA_STORAGE_CLASS];
  const upgradeFromAnnotation = BETA_STORAGE_CLASS in oldAnnotations && !isSet(oldSpec.storageClassName) &&
    isSet(spec.storageClassName) && spec.storageClassName === oldBeta && (!(BETA_STORAGE_CLASS in annotations) || newBeta === oldBeta);
  if (upgradeFromAnnotation) {
    delete next.storageClassName;
  } else {
    if (stringOf(newBeta) !== stringOf(oldBeta)) {
      errs.push(field.invalid(`metadata.annotations.${BETA_STORAGE_CLASS}`, stringOf(newBeta), "field is immutable"));
    }
    if (isSet(spec.storageClassName) && !isSet(oldSpec.storageClassName) && (!(BETA_STORAGE_CLASS in oldAnnotations) || spec.storageClassName === oldBeta)) {
      next.storageClassName = oldSpec.storageClassName;
    }
  }
  const bound = objectOf(pvc.status).phase === "Bound";
  if (bound && isSet(objectOf(spec.resources).requests)) {
    const resources = objectOf(spec.resources);
    next.resources = { ...resources, requests: { ...objectOf(resources.requests), storage: objectOf(objectOf(oldSpec.resources).requests).storage } };
  }
  if (bound && isSet(spec.volumeAttributesClassName)) next.volumeAttributesClassName = oldSpec.volumeAttributesClassName;
  if (!semanticEqual(next, prev)) {
    const diff = ["  core.PersistentVolumeClaimSpec{", ...describeChanges(prev, next).map((l) => `${l[0]} \t${l.slice(2)},`), "  }"].join("\n");
    errs.push(field.forbidden("spec", `spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n${diff}`));
  }
  const newSize = quantityOf(objectOf(objectOf(spec.resources).requests).storage);
  const oldSize = quantityOf(objectOf(objectOf(oldSpec.resources).requests).storage);
  const statusSize = quantityOf(objectOf(objectOf(old.status).capacity).storage);
  if (compareQuantities(newSize, oldSize) < 0 && compareQuantities(newSize, statusSize) <= 0) {
    errs.push(field.forbidden("spec.resources.requests.storage", "field can not be less than status.capacity"));
  }
  if ((spec.volumeMode ?? null) !== (oldSpec.volumeMode ?? null)) {
    errs.push(field.invalid("volumeMode", isSet(spec.volumeMode) ? spec.volumeMode : "null", "field is immutable"));
  }
  if (isSet(oldSpec.volumeAttributesClassName) && spec.volumeAttributesClassName !== oldSpec.volumeAttributesClassName) {
    if (!isSet(spec.volumeAttributesClassName)) errs.push(field.forbidden("spec.volumeAttributesClassName", "update from non-nil value to nil is forbidden"));
    else if (!stringOf(spec.volumeAttributesClassName)) errs.push(field.forbidden("spec.volumeAttributesClassName", "update from non-nil value to an empty string is forbidden"));
  }
  return errs;
}

