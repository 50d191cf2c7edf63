// SecurityContextConstraints (spec 2.3), OpenShift's legacy exposure under /api/v1. Fields sit at the top level
// (there is no spec); no patch tags, so every list is atomic.
import { seLinuxOptions } from "./container";
import { coreType } from "./names";
import { arr, bool, describe, int, int64, obj, str } from "./schema";
import { resource } from "./resource";

const idRange = obj(
  {
    max: int64({ description: "Upper bound of the range (inclusive)." }),
    min: int64({ description: "Lower bound of the range (inclusive)." }),
  },
  { name: coreType("IDRange"), description: "A range of user or group IDs." },
);

const groupStrategy = (type: string, what: string) =>
  obj(
    {
      ranges: arr(idRange, { description: `Allowed ${what} ranges; with MustRunAs the first range's minimum is the default.` }),
      type: str({ description: `Strategy for ${what}: MustRunAs or RunAsAny.`, enum: ["MustRunAs", "RunAsAny"] }),
    },
    { name: coreType(type), description: `How ${what} are chosen and checked.` },
  );

export const securityContextConstraintsSchema = resource(
  "SecurityContextConstraints",
  {
    allowHostDirVolumePlugin: bool({ description: "Whether pods may use hostPath volumes." }),
    allowHostIPC: bool({ description: "Whether pods may share the host's IPC namespace." }),
    allowHostNetwork: bool({ description: "Whether pods may use the host's network namespace." }),
    allowHostPID: bool({ description: "Whether pods may share the host's process namespace." }),
    allowHostPorts: bool({ description: "Whether containers may bind host ports." }),
    allowPrivilegedContainer: bool({ description: "Whether containers may run privileged." }),
    allowedCapabilities: arr(str(), { description: "Capabilities a container may add; '*' allows any." }),
    allowedFlexVolumes: arr(
      obj({ driver: str({ description: "Name of the FlexVolume driver." }) }, {
        name: coreType("AllowedFlexVolume"),
        description: "A FlexVolume driver pods may use.",
        required: ["driver"],
      }),
      { description: "FlexVolume drivers pods may use; empty allows all when flexVolume is among the allowed volumes." },
    ),
    defaultAddCapabilities: arr(str(), { description: "Capabilities added to every container unless it drops them." }),
    fsGroup: describe(groupStrategy("FSGroupStrategyOptions", "fsGroup IDs"), "How the pod's fsGroup is chosen and checked."),
    groups: arr(str(), { description: "Groups whose members may use this SCC." }),
    priority: int({ description: "Order among matching SCCs: higher first; ties broken by most restrictive, then name." }),
    readOnlyRootFilesystem: bool({ description: "Force containers to run with a read-only root filesystem." }),
    requiredDropCapabilities: arr(str(), { description: "Capabilities dropped from every container." }),
    runAsUser: obj(
      {
        type: str({ description: "MustRunAs, MustRunAsRange, MustRunAsNonRoot or RunAsAny.", enum: ["MustRunAs", "MustRunAsNonRoot", "MustRunAsRange", "RunAsAny"] }),
        uid: int64({ description: "The UID containers must run as (MustRunAs)." }),
        uidRangeMax: int64({ description: "Upper bound of the UID range (MustRunAsRange)." }),
        uidRangeMin: int64({ description: "Lower bound of the UID range (MustRunAsRange)." }),
      },
      { name: coreType("RunAsUserStrategyOptions"), description: "How the container UID is chosen and checked." },
    ),
    seLinuxContext: obj(
      {
        seLinuxOptions: describe(seLinuxOptions, "SELinux labels required with MustRunAs."),
        type: str({ description: "MustRunAs or RunAsAny.", enum: ["MustRunAs", "RunAsAny"] }),
      },
      { name: coreType("SELinuxContextStrategyOptions"), description: "How the SELinux context is chosen and checked." },
    ),
    seccompProfiles: arr(str(), { description: "Seccomp profiles pods may use; the first is the default; '*' allows any." }),
    supplementalGroups: describe(groupStrategy("SupplementalGroupsStrategyOptions", "supplemental groups"), "How supplemental groups are chosen and checked."),
    users: arr(str(), { description: "Users who may use this SCC." }),
    volumes: arr(str(), { description: "Volume source types pods may use (configMap, secret, hostPath, ...); '*' allows all." }),
    // Newer than the spec (OpenShift 4):
    allowPrivilegeEscalation: bool({ description: "Whether a process may gain more privileges than its parent; false forbids it." }),
    allowedUnsafeSysctls: arr(str(), { description: "Unsafe sysctls pods may set ('*' or 'prefix.*' patterns)." }),
    defaultAllowPrivilegeEscalation: bool({ description: "Default for containers that do not set allowPrivilegeEscalation." }),
    forbiddenSysctls: arr(str(), { description: "Sysctls pods may not set ('*' or 'prefix.*' patterns)." }),
    userNamespaceLevel: str({ description: "AllowHostLevel (default) or RequirePodLevel user namespaces." }),
  },
  { description: "OpenShift security context constraints: what security settings pods of the allowed users and service accounts may request." },
);
