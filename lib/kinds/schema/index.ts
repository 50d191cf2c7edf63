// Schemas of the twelve kinds (spec section 2, exact field names) and what is built on them: unknown-field and
// duplicate-key detection. Pure data and functions, safe in the browser; imports nothing outside this folder
// except the `yaml` package.
export * from "./schema";
export * from "./names";
export { findUnknownFields, stripUnknownFields } from "./fields";
export { findDuplicateJsonKeys, findDuplicateKeys, findDuplicateYamlKeys } from "./duplicate-keys";
export { objectMeta, listMeta, status, statusDetails, statusCause, ownerReference } from "./object-meta";
export { objectReference, localObjectReference } from "./object-reference";
export { labelSelector } from "./label-selector";
export { container } from "./container";
export { configMapSchema } from "./config-map";
export { endpointsSchema } from "./endpoints";
export { eventSchema } from "./event";
export { limitRangeSchema } from "./limit-range";
export { persistentVolumeSchema } from "./persistent-volume";
export { persistentVolumeClaimSchema } from "./persistent-volume-claim";
export { podSchema } from "./pod";
export { resourceQuotaSchema } from "./resource-quota";
export { secretSchema } from "./secret";
export { securityContextConstraintsSchema } from "./security-context-constraints";
export { serviceSchema } from "./service";
export { serviceAccountSchema } from "./service-account";
export { roleSchema } from "./role";
export { clusterRoleSchema } from "./cluster-role";
export { roleBindingSchema } from "./role-binding";
export { clusterRoleBindingSchema } from "./cluster-role-binding";
