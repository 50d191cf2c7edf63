// What a pod's containers actually run with: kube applies the pod's securityContext to every container and
// lets the container's own securityContext override the fields both have (runAsUser, runAsGroup,
// runAsNonRoot, seLinuxOptions, seccompProfile, appArmorProfile, windowsOptions). The rest is per container
// (privileged, capabilities...) or per pod (fsGroup, supplementalGroups, sysctls). SCC admission writes its
// choices into these same fields, so this view shows what the SCC granted.
import type { KubeObject } from "@/lib/kinds";

type Loose = Record<string, any>;

export type SettingSource = "container" | "pod";

export interface SecuritySetting {
  field: string;
  value: string;
  source: SettingSource;
}

export interface ContainerSecurity {
  name: string;
  /** "init" and "ephemeral" containers are marked; regular containers are "container". */
  role: "init" | "container" | "ephemeral";
  settings: SecuritySetting[];
}

/** Fields a container inherits from the pod unless it sets them itself. */
export const inheritedFields = ["runAsUser", "runAsGroup", "runAsNonRoot", "seLinuxOptions", "seccompProfile", "appArmorProfile", "windowsOptions"] as const;
const containerOnlyFields = ["privileged", "allowPrivilegeEscalation", "readOnlyRootFilesystem", "capabilities", "procMount"] as const;
export const podOnlyFields = ["fsGroup", "fsGroupChangePolicy", "supplementalGroups", "supplementalGroupsPolicy", "sysctls"] as const;

/** A field's value in one line: scalars as is, objects as `key=value` pairs (capabilities as add/drop lists). */
export function formatSetting(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.map((v) => (v && typeof v === "object" ? formatSetting(v) : String(v))).join(", ");
  if (typeof value === "object") {
    return Object.entries(value as Loose)
      .filter(([, v]) => v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0))
      .map(([k, v]) => (Array.isArray(v) ? `${k}: ${v.join(", ")}` : `${k}=${typeof v === "object" ? formatSetting(v) : v}`))
      .join("; ");
  }
  return String(value);
}

export function effectiveSecurity(pod: KubeObject): { pod: SecuritySetting[]; containers: ContainerSecurity[] } {
  const spec = (pod.spec ?? {}) as Loose;
  const podContext = (spec.securityContext ?? {}) as Loose;
  const podSettings: SecuritySetting[] = podOnlyFields
    .filter((f) => podContext[f] !== undefined && !(Array.isArray(podContext[f]) && podContext[f].length === 0))
    .map((f) => ({ field: f, value: formatSetting(podContext[f]), source: "pod" }));
  const containers: ContainerSecurity[] = [];
  const add = (list: Loose[] | undefined, role: ContainerSecurity["role"]) => {
    for (const c of list ?? []) {
      const own = (c.securityContext ?? {}) as Loose;
      const settings: SecuritySetting[] = [];
      for (const f of inheritedFields) {
        if (own[f] !== undefined) settings.push({ field: f, value: formatSetting(own[f]), source: "container" });
        else if (podContext[f] !== undefined) settings.push({ field: f, value: formatSetting(podContext[f]), source: "pod" });
      }
      for (const f of containerOnlyFields) if (own[f] !== undefined) settings.push({ field: f, value: formatSetting(own[f]), source: "container" });
      containers.push({ name: String(c.name ?? ""), role, settings });
    }
  };
  add(spec.initContainers, "init");
  add(spec.containers, "container");
  add(spec.ephemeralContainers, "ephemeral");
  return { pod: podSettings, containers };
}

/** The SCC that admitted the pod (OpenShift's annotation), if any. */
export const SCC_ANNOTATION = "openshift.io/scc";

export function admittingScc(pod: KubeObject): string | undefined {
  return pod.metadata.annotations?.[SCC_ANNOTATION] || undefined;
}
