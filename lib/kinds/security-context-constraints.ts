import { applySecurityContextConstraintsDefaults, validateSecurityContextConstraints } from "../validation/security-context-constraints";
import { column, nameColumn, NONE } from "./columns";
import { defineKind } from "./define-kind";
import { securityContextConstraintsSchema } from "./schema/security-context-constraints";
import type { SELinuxOptions } from "./shared/container";
import type { KubeObject } from "./types";

export interface IDRange {
  max?: number;
  min?: number;
}

/** An OpenShift SecurityContextConstraints; top-level fields, no spec. */
export interface SecurityContextConstraints extends KubeObject {
  allowHostDirVolumePlugin?: boolean;
  allowHostIPC?: boolean;
  allowHostNetwork?: boolean;
  allowHostPID?: boolean;
  allowHostPorts?: boolean;
  allowPrivilegedContainer?: boolean;
  allowedCapabilities?: string[] | null;
  allowedFlexVolumes?: { driver: string }[] | null;
  defaultAddCapabilities?: string[] | null;
  fsGroup?: { ranges?: IDRange[]; type?: string };
  groups?: string[] | null;
  priority?: number | null;
  readOnlyRootFilesystem?: boolean;
  requiredDropCapabilities?: string[] | null;
  runAsUser?: { type?: string; uid?: number; uidRangeMax?: number; uidRangeMin?: number };
  seLinuxContext?: { seLinuxOptions?: SELinuxOptions; type?: string };
  seccompProfiles?: string[] | null;
  supplementalGroups?: { ranges?: IDRange[]; type?: string };
  users?: string[] | null;
  volumes?: string[] | null;
}

// --- columns --------------------------------------------------------------------------------------------------

/**
 * A cell as OpenShift's CRD printer columns render a JSONPath result: a field present but null prints
 * `<no value>`, a list prints as compact JSON, a scalar as text. Fields OpenShift always serialises (priority,
 * the capability lists, volumes) are treated as null when absent; a missing nested value is `<none>`.
 */
function jsonPathCell(value: unknown, alwaysSerialised: boolean): string {
  if (value === undefined) return alwaysSerialised ? "<no value>" : NONE;
  if (value === null) return "<no value>";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

// --- declaration ----------------------------------------------------------------------------------------------

export const securityContextConstraints = defineKind<SecurityContextConstraints>({
  kind: "SecurityContextConstraints",
  schema: securityContextConstraintsSchema,
  // OpenShift 4 serves SCCs only under this group; clients and manifests use it (spec: "use the group").
  alsoServedBy: [{ group: "security.openshift.io", typeName: (type) => `com.github.openshift.api.security.v1.${type}` }],
  plural: "securitycontextconstraints",
  singular: "securitycontextconstraints",
  shortNames: ["scc"],
  categories: [],
  namespaced: false,
  nameRule: "dns1123-subdomain",
  hasStatus: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  deleteReturns: "object",
  selectableFields: {},
  fieldSelectorError: "known-only",

  // OpenShift 4's printer columns for the CRD; the booleans are never omitted on the wire, so absent means false.
  columns: [
    nameColumn,
    column<SecurityContextConstraints>({ name: "Priv", description: "Determines if a container can request to be run as privileged", cell: (scc) => jsonPathCell(scc.allowPrivilegedContainer ?? false, true) }),
    column<SecurityContextConstraints>({ name: "Caps", description: "A list of capabilities that can be requested to add to the container", cell: (scc) => jsonPathCell(scc.allowedCapabilities, true) }),
    column<SecurityContextConstraints>({ name: "SELinux", description: "Strategy that will dictate what labels will be set in the SecurityContext", cell: (scc) => jsonPathCell(scc.seLinuxContext?.type, false) }),
    column<SecurityContextConstraints>({ name: "RunAsUser", description: "Strategy that will dictate what RunAsUser is used in the SecurityContext", cell: (scc) => jsonPathCell(scc.runAsUser?.type, false) }),
    column<SecurityContextConstraints>({ name: "FSGroup", description: "Strategy that will dictate what fs group is used by the SecurityContext", cell: (scc) => jsonPathCell(scc.fsGroup?.type, false) }),
    column<SecurityContextConstraints>({ name: "SupGroup", description: "Strategy that will dictate what supplemental groups are used by the SecurityContext", cell: (scc) => jsonPathCell(scc.supplementalGroups?.type, false) }),
    column<SecurityContextConstraints>({ name: "Priority", description: "Sort order of SCCs", cell: (scc) => jsonPathCell(scc.priority, true) }),
    column<SecurityContextConstraints>({ name: "ReadOnlyRootFS", description: "Force containers to run with a read only root file system", cell: (scc) => jsonPathCell(scc.readOnlyRootFilesystem ?? false, true) }),
    column<SecurityContextConstraints>({ name: "Volumes", description: "White list of allowed volume plugins", cell: (scc) => jsonPathCell(scc.volumes, true) }),
  ],

  // Modelled on OpenShift's `restricted` SCC, granted to no one until users or groups are added.
  template: {
    apiVersion: "v1",
    kind: "SecurityContextConstraints",
    metadata: {
      name: "restricted-custom",
      annotations: { "kubernetes.io/description": "Like restricted: no host access, a UID from the namespace range, MCS labels." },
    },
    allowHostDirVolumePlugin: false,
    allowHostIPC: false,
    allowHostNetwork: false,
    allowHostPID: false,
    allowHostPorts: false,
    allowPrivilegedContainer: false,
    allowedCapabilities: null,
    defaultAddCapabilities: null,
    fsGroup: { type: "MustRunAs" },
    groups: [],
    priority: null,
    readOnlyRootFilesystem: false,
    requiredDropCapabilities: ["KILL", "MKNOD", "SETUID", "SETGID"],
    runAsUser: { type: "MustRunAsRange" },
    seLinuxContext: { type: "MustRunAs" },
    supplementalGroups: { type: "RunAsAny" },
    users: [],
    volumes: ["configMap", "downwardAPI", "emptyDir", "persistentVolumeClaim", "projected", "secret"],
  },

  applyDefaults: applySecurityContextConstraintsDefaults,
  validate: validateSecurityContextConstraints,
});
