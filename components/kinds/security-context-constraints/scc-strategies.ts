// A SecurityContextConstraints read as a table: each strategy (runAsUser, seLinuxContext, fsGroup,
// supplementalGroups) with its type, what it lets a pod do in words, and its ranges; the host access it grants;
// the capabilities and volumes it allows; who may use it. Pure: the SCC page renders these rows.
import type { KubeObject } from "@/lib/kinds";

type Loose = Record<string, any>;

export interface SccStrategyRow {
  strategy: "runAsUser" | "seLinuxContext" | "fsGroup" | "supplementalGroups";
  type: string;
  /** What a pod admitted by this SCC may (or must) use, in words. */
  meaning: string;
  /** The ranges or fixed value, as written on the SCC ("1000–2000", "uid 1001", "s0:c1,c2"); empty when none. */
  values: string;
}

const rangeText = (r: Loose) => (r.min !== undefined && r.max !== undefined && r.min !== r.max ? `${r.min}–${r.max}` : `${r.min ?? r.max ?? "?"}`);

function runAsUserRow(s: Loose): SccStrategyRow {
  const type: string = s.type ?? "(unset)";
  const range = s.uidRangeMin !== undefined || s.uidRangeMax !== undefined ? rangeText({ min: s.uidRangeMin, max: s.uidRangeMax }) : "";
  const meaning: Record<string, string> = {
    MustRunAs: s.uid !== undefined ? `must run as UID ${s.uid}` : "must run as the one UID given (the namespace's first UID when none)",
    MustRunAsRange: range ? `a UID in ${range}` : "a UID in the namespace's range (openshift.io/sa.scc.uid-range), the first by default",
    MustRunAsNonRoot: "any UID but 0; the image or pod must name a non-root user",
    RunAsAny: "any UID, root included",
  };
  return { strategy: "runAsUser", type, meaning: meaning[type] ?? "unknown strategy", values: s.uid !== undefined ? `uid ${s.uid}` : range };
}

function seLinuxRow(s: Loose): SccStrategyRow {
  const type: string = s.type ?? "(unset)";
  const o = (s.seLinuxOptions ?? {}) as Loose;
  const values = ["user", "role", "type", "level"].filter((k) => o[k]).map((k) => `${k} ${o[k]}`).join(", ");
  const meaning: Record<string, string> = {
    MustRunAs: values ? "must use the SELinux options given" : "must use the namespace's MCS level (openshift.io/sa.scc.mcs)",
    RunAsAny: "any SELinux context",
  };
  return { strategy: "seLinuxContext", type, meaning: meaning[type] ?? "unknown strategy", values };
}

function groupsRow(strategy: "fsGroup" | "supplementalGroups", s: Loose): SccStrategyRow {
  const type: string = s.type ?? "(unset)";
  const ranges = ((s.ranges ?? []) as Loose[]).map(rangeText).join(", ");
  const what = strategy === "fsGroup" ? "fsGroup" : "supplemental groups";
  const meaning: Record<string, string> = {
    MustRunAs: ranges ? `${what} within ${ranges}, the first by default` : `${what} within the namespace's range (openshift.io/sa.scc.supplemental-groups)`,
    MayRunAs: ranges ? `${what} within ${ranges} when set; none is set by default` : `${what} within the namespace's range when set`,
    RunAsAny: `any ${what}`,
  };
  return { strategy, type, meaning: meaning[type] ?? "unknown strategy", values: ranges };
}

export function sccStrategies(scc: KubeObject): SccStrategyRow[] {
  const s = scc as Loose;
  return [runAsUserRow(s.runAsUser ?? {}), seLinuxRow(s.seLinuxContext ?? {}), groupsRow("fsGroup", s.fsGroup ?? {}), groupsRow("supplementalGroups", s.supplementalGroups ?? {})];
}

export interface SccFlag {
  label: string;
  allowed: boolean;
}

/** The host access and privilege switches, each allowed or not (absent means not allowed, as OpenShift reads them). */
export function sccFlags(scc: KubeObject): SccFlag[] {
  const s = scc as Loose;
  return [
    { label: "Privileged containers", allowed: s.allowPrivilegedContainer === true },
    { label: "Privilege escalation", allowed: s.allowPrivilegeEscalation !== false },
    { label: "Host network", allowed: s.allowHostNetwork === true },
    { label: "Host ports", allowed: s.allowHostPorts === true },
    { label: "Host PID", allowed: s.allowHostPID === true },
    { label: "Host IPC", allowed: s.allowHostIPC === true },
    { label: "Host directory volumes", allowed: s.allowHostDirVolumePlugin === true },
    { label: "Read-only root filesystem required", allowed: s.readOnlyRootFilesystem === true },
  ];
}
