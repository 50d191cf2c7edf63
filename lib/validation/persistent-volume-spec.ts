// PersistentVolume spec rules (ValidatePersistentVolumeSpec for a non-inline volume, and the update rules of
// ValidatePersistentVolumeUpdate, 1.32).
import { field, type FieldError } from "../status";
import { validateAccessModes } from "./access-modes";
import { validateNodeSelector } from "./affinity";
import { validateImmutableField } from "./immutable-field";
import { quantityOf, validateBasicResource, validatePositiveQuantity } from "./resource-requirements";
import { describeChanges, semanticEqual } from "./semantic-equal";
import { invalidRendered, notSupportedRendered } from "./rendered-value";
import { persistentVolumeSourceKeys, validateClassName, validatePersistentVolumeSource } from "./volume-source";
import { isObject, isSet, listOf, objectOf, sortedEntries, stringOf, type JsonObject } from "./zero-values";

/** %#v of a core.ResourceList (the capacity in "supported values" errors). */
function renderResourceList(list: unknown): string {
  if (!isObject(list)) return "core.ResourceList(nil)";
  const entries = sortedEntries(list).map(([name, value]) => {
    const q = quantityOf(value);
    return `${JSON.stringify(name)}:resource.Quantity{i:resource.int64Amount{value:${q.mantissa}, scale:${q.exponent}}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"", Format:${JSON.stringify(q.format)}}`;
  });
  return `core.ResourceList{${entries.join(", ")}}`;
}

const RECLAIM_POLICIES = ["Delete", "Recycle", "Retain"];

/** path.Clean(p) == "/" for the hostPath-of-root Recycle rule. */
const isRoot = (p: string) => p.length > 0 && p.split("/").every((part) => part === "" || part === ".");

export function validatePersistentVolumeSpec(pv: JsonObject): FieldError[] {
  const spec = objectOf(pv.spec);
  const name = stringOf(objectOf(pv.metadata).name);
  const errs: FieldError[] = [];
  const modes = listOf(spec.accessModes);
  if (modes.length === 0) errs.push(field.required("spec.accessModes"));
  errs.push(...validateAccessModes(modes, "spec.accessModes"));
  const capacity = objectOf(spec.capacity);
  const keys = Object.keys(capacity);
  if (keys.length === 0) errs.push(field.required("spec.capacity"));
  if (!keys.includes("storage") || keys.length > 1) {
    errs.push(notSupportedRendered("spec.capacity", isObject(spec.capacity) ? renderResourceList(spec.capacity) : "core.ResourceList(nil)", ["storage"]));
  }
  for (const [resource, value] of sortedEntries(capacity)) {
    const q = quantityOf(value);
    errs.push(...validateBasicResource(q, `spec.capacity[${resource}]`), ...validatePositiveQuantity(q, `spec.capacity[${resource}]`));
  }
  const policy = stringOf(spec.persistentVolumeReclaimPolicy);
  if (policy && !RECLAIM_POLICIES.includes(policy)) errs.push(field.notSupported("spec.persistentVolumeReclaimPolicy", policy, RECLAIM_POLICIES));
  let nodeAffinitySet = false;
  if (isSet(spec.nodeAffinity)) {
    nodeAffinitySet = true;
    const required = objectOf(spec.nodeAffinity).required;
    if (isSet(required)) errs.push(...validateNodeSelector(required, "spec.nodeAffinity.required"));
    else errs.push(field.required("spec.nodeAffinity.required", "must specify required node constraints"));
  }
  errs.push(...validatePersistentVolumeSource(spec, name, "spec", nodeAffinitySet));
  if (isObject(spec.hostPath) && isRoot(stringOf(spec.hostPath.path)) && policy === "Recycle") {
    errs.push(field.forbidden("spec.persistentVolumeReclaimPolicy", "may not be 'recycle' for a hostPath mount of '/'"));
  }
  const className = stringOf(spec.storageClassName);
  if (className) errs.push(...validateClassName(className, "spec.storageClassName"));
  if (isSet(spec.volumeMode) && !["Block", "Filesystem"].includes(stringOf(spec.volumeMode))) {
    errs.push(field.notSupported("spec.volumeMode", spec.volumeMode, ["Block", "Filesystem"]));
  }
  if (isSet(spec.volumeAttributesClassName)) {
    const vac = stringOf(spec.volumeAttributesClassName);
    if (!vac) errs.push(field.required("spec.volumeAttributesClassName", "an empty string is disallowed"));
    else errs.push(...validateClassName(vac, "spec.volumeAttributesClassName"));
    if (!isSet(spec.csi)) errs.push(field.required("spec.csi", "has to be specified when using volumeAttributesClassName"));
  }
  return errs;
}

const sourceOf = (spec: JsonObject) => Object.fromEntries(persistentVolumeSourceKeys.filter((k) => isSet(spec[k])).map((k) => [k, spec[k]]));

/** The update-only rules: the volume source, volumeMode and (once set) nodeAffinity may not change. */
export function validatePersistentVolumeUpdate(pv: JsonObject, old: JsonObject): FieldError[] {
  const spec = objectOf(pv.spec);
  const oldSpec = objectOf(old.spec);
  const errs: FieldError[] = [];
  const source = sourceOf(spec);
  const oldSource = sourceOf(oldSpec);
  // A CSI volume may gain a controllerExpandSecretRef.
  if (isObject(source.csi) && isObject(oldSource.csi) && !isSet(oldSource.csi.controllerExpandSecretRef)) {
    source.csi = { ...source.csi, controllerExpandSecretRef: undefined };
  }
  if (!semanticEqual(source, oldSource)) {
    const diff = ["  core.PersistentVolumeSource{", ...describeChanges(oldSource, source).map((l) => `${l[0]} \t${l.slice(2)},`), "  }"].join("\n");
    errs.push(field.forbidden("spec.persistentvolumesource", `spec.persistentvolumesource is immutable after creation\n${diff}`));
  }
  errs.push(...validateImmutableField(spec.volumeMode ?? "null", oldSpec.volumeMode ?? "null", "volumeMode"));
  if (isSet(oldSpec.nodeAffinity) && !semanticEqual(spec.nodeAffinity, oldSpec.nodeAffinity)) {
    errs.push(invalidRendered("nodeAffinity", isSet(spec.nodeAffinity) ? "&core.VolumeNodeAffinity{Required:(*core.NodeSelector)(0xc000000000)}" : "null",
      "field is immutable, except for updating from beta label to GA"));
  }
  return errs;
}
