// OpenAPI component names, spelled as kube-apiserver publishes them, so `kubectl explain` and clients that
// look definitions up by name (client-side apply, editors) find them.

/** `io.k8s.api.core.v1.<Type>` */
export const coreType = (type: string) => `io.k8s.api.core.v1.${type}`;
/** `io.k8s.api.rbac.v1.<Type>` (rbac.authorization.k8s.io/v1, Go package k8s.io/api/rbac/v1) */
export const rbacType = (type: string) => `io.k8s.api.rbac.v1.${type}`;
/** `io.k8s.apimachinery.pkg.apis.meta.v1.<Type>` */
export const metaType = (type: string) => `io.k8s.apimachinery.pkg.apis.meta.v1.${type}`;

export const QUANTITY_TYPE = "io.k8s.apimachinery.pkg.api.resource.Quantity";
export const INT_OR_STRING_TYPE = "io.k8s.apimachinery.pkg.util.intstr.IntOrString";
export const TIME_TYPE = metaType("Time");
export const MICRO_TIME_TYPE = metaType("MicroTime");
export const RAW_EXTENSION_TYPE = "io.k8s.apimachinery.pkg.runtime.RawExtension";
