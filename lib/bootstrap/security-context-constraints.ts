// OpenShift's default SecurityContextConstraints (the cluster-kube-apiserver-operator's scc-manifests), created
// at start when missing, plus the `system:openshift:scc:<name>` ClusterRoles that grant `use` of each and the
// binding that lets every authenticated user use restricted-v2 (OpenShift 4.11+). Objects a user changed or
// deleted on purpose are recreated only when missing, as the operator's create-only manifests are.
import { isStatusError } from "../status";
import { kindByPlural } from "../kinds";
import type { KubeObject } from "../kinds/types";
import type { Registry } from "../registry/registry";

const OPTIONS = { dryRun: false, fieldValidation: "Ignore" } as const;

const RELEASE_ANNOTATIONS = {
  "include.release.openshift.io/hypershift": "true",
  "include.release.openshift.io/ibm-cloud-managed": "true",
  "include.release.openshift.io/self-managed-high-availability": "true",
  "include.release.openshift.io/single-node-developer": "true",
};
const CREATE_ONLY = { "release.openshift.io/create-only": "true" };

/** Volume types of the restricted family. */
const RESTRICTED_VOLUMES = ["configMap", "csi", "downwardAPI", "emptyDir", "ephemeral", "persistentVolumeClaim", "projected", "secret"];
const LEGACY_DROPS = ["KILL", "MKNOD", "SETUID", "SETGID"];

interface SccFields {
  name: string;
  description: string;
  createOnly: boolean;
  hostDir?: boolean; hostIPC?: boolean; hostNetwork?: boolean; hostPID?: boolean; hostPorts?: boolean;
  privilegeEscalation: boolean;
  privileged?: boolean;
  allowedCapabilities?: string[] | null;
  allowedUnsafeSysctls?: string[];
  fsGroup: string;
  groups?: string[];
  priority?: number | null;
  requiredDropCapabilities: string[] | null;
  runAsUser: string;
  seLinux: string;
  seccompProfiles?: string[];
  supplementalGroups: string;
  users?: string[];
  volumes: string[];
}

function scc(f: SccFields): KubeObject {
  return {
    apiVersion: "security.openshift.io/v1",
    kind: "SecurityContextConstraints",
    metadata: {
      name: f.name,
      annotations: { ...RELEASE_ANNOTATIONS, ...(f.createOnly ? CREATE_ONLY : {}), "kubernetes.io/description": f.description },
    },
    allowHostDirVolumePlugin: f.hostDir ?? false,
    allowHostIPC: f.hostIPC ?? false,
    allowHostNetwork: f.hostNetwork ?? false,
    allowHostPID: f.hostPID ?? false,
    allowHostPorts: f.hostPorts ?? false,
    allowPrivilegeEscalation: f.privilegeEscalation,
    allowPrivilegedContainer: f.privileged ?? false,
    allowedCapabilities: f.allowedCapabilities ?? null,
    ...(f.allowedUnsafeSysctls ? { allowedUnsafeSysctls: f.allowedUnsafeSysctls } : {}),
    defaultAddCapabilities: null,
    fsGroup: { type: f.fsGroup },
    groups: f.groups ?? [],
    priority: f.priority ?? null,
    readOnlyRootFilesystem: false,
    requiredDropCapabilities: f.requiredDropCapabilities,
    runAsUser: { type: f.runAsUser },
    seLinuxContext: { type: f.seLinux },
    ...(f.seccompProfiles ? { seccompProfiles: f.seccompProfiles } : {}),
    supplementalGroups: { type: f.supplementalGroups },
    users: f.users ?? [],
    volumes: f.volumes,
  };
}

const V2_SUFFIX = " It also requires to drop ALL capabilities and does not allow privilege escalation binaries. It will also default the seccomp profile to runtime/default if unset, otherwise this seccomp profile is required.";

/** The ten SCCs, in OpenShift's admission order. */
export const DEFAULT_SCCS: KubeObject[] = [
  scc({
    name: "anyuid", createOnly: true, priority: 10, privilegeEscalation: true, fsGroup: "RunAsAny", groups: ["system:cluster-admins"],
    requiredDropCapabilities: ["MKNOD"], runAsUser: "RunAsAny", seLinux: "MustRunAs", supplementalGroups: "RunAsAny", volumes: RESTRICTED_VOLUMES,
    description: "anyuid provides all features of the restricted SCC but allows users to run with any UID and any GID.",
  }),
  scc({
    name: "restricted-v2", createOnly: false, privilegeEscalation: false, allowedCapabilities: ["NET_BIND_SERVICE"], fsGroup: "MustRunAs",
    requiredDropCapabilities: ["ALL"], runAsUser: "MustRunAsRange", seLinux: "MustRunAs", seccompProfiles: ["runtime/default"],
    supplementalGroups: "RunAsAny", volumes: RESTRICTED_VOLUMES,
    description: "restricted-v2 denies access to all host features and requires pods to be run with a UID, and SELinux context that are allocated to the namespace. This is the most restrictive SCC and it is used by default for authenticated users. On top of the legacy 'restricted' SCC, it also requires to drop ALL capabilities and does not allow privilege escalation binaries. It will also default the seccomp profile to runtime/default if unset, otherwise this seccomp profile is required.",
  }),
  scc({
    name: "restricted", createOnly: true, privilegeEscalation: true, fsGroup: "MustRunAs", requiredDropCapabilities: LEGACY_DROPS,
    runAsUser: "MustRunAsRange", seLinux: "MustRunAs", supplementalGroups: "RunAsAny", volumes: RESTRICTED_VOLUMES,
    description: "restricted denies access to all host features and requires pods to be run with a UID, and SELinux context that are allocated to the namespace.",
  }),
  scc({
    name: "nonroot-v2", createOnly: false, privilegeEscalation: false, allowedCapabilities: ["NET_BIND_SERVICE"], fsGroup: "RunAsAny",
    requiredDropCapabilities: ["ALL"], runAsUser: "MustRunAsNonRoot", seLinux: "MustRunAs", seccompProfiles: ["runtime/default"],
    supplementalGroups: "RunAsAny", volumes: RESTRICTED_VOLUMES,
    description: `nonroot provides all features of the restricted SCC but allows users to run with any non-root UID.  The user must specify the UID or it must be specified on the by the manifest of the container runtime. On top of the legacy 'nonroot' SCC,${V2_SUFFIX.replace(" It also", " it also")}`,
  }),
  scc({
    name: "nonroot", createOnly: true, privilegeEscalation: true, fsGroup: "RunAsAny", requiredDropCapabilities: LEGACY_DROPS,
    runAsUser: "MustRunAsNonRoot", seLinux: "MustRunAs", supplementalGroups: "RunAsAny", volumes: RESTRICTED_VOLUMES,
    description: "nonroot provides all features of the restricted SCC but allows users to run with any non-root UID.  The user must specify the UID or it must be specified on the by the manifest of the container runtime.",
  }),
  scc({
    name: "hostmount-anyuid", createOnly: true, hostDir: true, privilegeEscalation: true, fsGroup: "RunAsAny", requiredDropCapabilities: ["MKNOD"],
    runAsUser: "RunAsAny", seLinux: "MustRunAs", supplementalGroups: "RunAsAny",
    users: ["system:serviceaccount:openshift-infra:pv-recycler-controller"],
    volumes: ["configMap", "csi", "downwardAPI", "emptyDir", "ephemeral", "hostPath", "nfs", "persistentVolumeClaim", "projected", "secret"],
    description: "hostmount-anyuid provides all the features of the\nrestricted SCC but allows host mounts and any UID by a pod.  This is primarily\nused by the persistent volume recycler. WARNING: this SCC allows host file\nsystem access as any UID, including UID 0.  Grant with caution.",
  }),
  scc({
    name: "hostnetwork-v2", createOnly: false, hostNetwork: true, hostPorts: true, privilegeEscalation: false, allowedCapabilities: ["NET_BIND_SERVICE"],
    fsGroup: "MustRunAs", requiredDropCapabilities: ["ALL"], runAsUser: "MustRunAsRange", seLinux: "MustRunAs", seccompProfiles: ["runtime/default"],
    supplementalGroups: "MustRunAs", volumes: RESTRICTED_VOLUMES,
    description: `hostnetwork allows using host networking and host ports but still requires pods to be run with a UID and SELinux context that are allocated to the namespace. On top of the legacy 'hostnetwork' SCC,${V2_SUFFIX.replace(" It also", " it also")}`,
  }),
  scc({
    name: "hostnetwork", createOnly: true, hostNetwork: true, hostPorts: true, privilegeEscalation: true, fsGroup: "MustRunAs",
    requiredDropCapabilities: LEGACY_DROPS, runAsUser: "MustRunAsRange", seLinux: "MustRunAs", supplementalGroups: "MustRunAs", volumes: RESTRICTED_VOLUMES,
    description: "hostnetwork allows using host networking and host ports but still requires pods to be run with a UID and SELinux context that are allocated to the namespace.",
  }),
  scc({
    name: "hostaccess", createOnly: true, hostDir: true, hostIPC: true, hostNetwork: true, hostPID: true, hostPorts: true, privilegeEscalation: true,
    fsGroup: "MustRunAs", requiredDropCapabilities: LEGACY_DROPS, runAsUser: "MustRunAsRange", seLinux: "MustRunAs", supplementalGroups: "RunAsAny",
    volumes: ["configMap", "csi", "downwardAPI", "emptyDir", "ephemeral", "hostPath", "persistentVolumeClaim", "projected", "secret"],
    description: "hostaccess allows access to all host namespaces but still requires pods to be run with a UID and SELinux context that are allocated to the namespace. WARNING: this SCC allows host access to namespaces, file systems, and PIDS.  It should only be used by trusted pods.  Grant with caution.",
  }),
  scc({
    name: "privileged", createOnly: true, hostDir: true, hostIPC: true, hostNetwork: true, hostPID: true, hostPorts: true, privilegeEscalation: true,
    privileged: true, allowedCapabilities: ["*"], allowedUnsafeSysctls: ["*"], fsGroup: "RunAsAny",
    groups: ["system:cluster-admins", "system:nodes", "system:masters"], requiredDropCapabilities: null, runAsUser: "RunAsAny", seLinux: "RunAsAny",
    seccompProfiles: ["*"], supplementalGroups: "RunAsAny", users: ["system:admin", "system:serviceaccount:openshift-infra:build-controller"], volumes: ["*"],
    description: "privileged allows access to all privileged and host features and the ability to run as any user, any group, any fsGroup, and with any SELinux context.  WARNING: this is the most relaxed SCC and should be used only for cluster administration. Grant with caution.",
  }),
];

/** `system:openshift:scc:<name>`: the ClusterRole that grants `use` of one SCC (bound by `oc adm policy add-scc-to-*`). */
export function sccUseClusterRole(name: string): KubeObject {
  return {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "ClusterRole",
    metadata: {
      name: `system:openshift:scc:${name}`,
      annotations: { ...RELEASE_ANNOTATIONS, "rbac.authorization.kubernetes.io/autoupdate": "true" },
    },
    rules: [{ apiGroups: ["security.openshift.io"], resourceNames: [name], resources: ["securitycontextconstraints"], verbs: ["use"] }],
  };
}

export const RESTRICTED_V2_BINDING: KubeObject = {
  apiVersion: "rbac.authorization.k8s.io/v1",
  kind: "ClusterRoleBinding",
  metadata: { name: "system:openshift:scc:restricted-v2" },
  roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "system:openshift:scc:restricted-v2" },
  subjects: [{ apiGroup: "rbac.authorization.k8s.io", kind: "Group", name: "system:authenticated" }],
};

async function createIfMissing(registry: Registry, plural: string, obj: KubeObject): Promise<void> {
  if (registry.store.objects.get({ resource: plural, namespace: "", name: obj.metadata.name! })) return;
  try {
    await registry.create(kindByPlural(plural)!, undefined, structuredClone(obj), OPTIONS);
  } catch (err) {
    if (!(isStatusError(err) && err.code === 409)) throw err; // another replica made it first
  }
}

export async function bootstrapSecurityContextConstraints(registry: Registry): Promise<void> {
  // Each kind's objects at once: their writes share commits.
  await Promise.all(DEFAULT_SCCS.map((obj) => createIfMissing(registry, "securitycontextconstraints", obj)));
  await Promise.all(DEFAULT_SCCS.map((obj) => createIfMissing(registry, "clusterroles", sccUseClusterRole(obj.metadata.name!))));
  await createIfMissing(registry, "clusterrolebindings", RESTRICTED_V2_BINDING);
}
