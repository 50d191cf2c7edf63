// The one read the console needs that kube has no API for: the namespaces the caller's roles reach.
//   GET /apis/access.cluster-core.dev/v1/selfnamespaces
// A user bound only inside namespaces may list neither namespaces nor RoleBindings cluster-wide, so without
// this they cannot find where they may look (OpenShift answers it with its projects list). It speaks only of
// the caller, as SelfSubjectRulesReview does, and is authorized as that review: whoever may ask for their
// rules in any namespace they name may ask which namespaces give them some. Like history.cluster-core.dev,
// the group is not advertised in discovery, so kube clients see nothing new.
export const ACCESS_GROUP = "access.cluster-core.dev";
export const ACCESS_API_VERSION = `${ACCESS_GROUP}/v1`;
export const SELF_NAMESPACES_PATH = `/apis/${ACCESS_API_VERSION}/selfnamespaces`;

/** Whether `path` (as sent; a trailing slash allowed) asks for the caller's namespaces. */
export function isSelfNamespacesPath(path: string): boolean {
  return path === SELF_NAMESPACES_PATH || path === `${SELF_NAMESPACES_PATH}/`;
}
