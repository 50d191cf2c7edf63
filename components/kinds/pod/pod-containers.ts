// A pod's containers as a person reads them: spec and status joined by name (init containers first, in
// order), each container's state in words with its tone, restarts and the last termination, its ports,
// probes ("HTTP GET :8080/healthz every 10s") and resources. Pure: the pod page renders these rows.
import type { KubeObject } from "@/lib/kinds";
import { humanDuration } from "@/lib/kinds/columns";
import { computeQosClass, type Pod } from "@/lib/kinds/pod";
import type { StatusTone } from "@/lib/client/pod-status";
import { statusTone } from "@/lib/client/status-tone";

type Loose = Record<string, any>;

export interface ContainerState {
  /** "Running", "Waiting: CrashLoopBackOff", "Terminated: Error (exit code 1)". */
  text: string;
  tone: StatusTone;
  /** kube's message (a back-off message, a termination message), when it sent one. */
  message?: string;
  /** When the state began (running since, terminated at). */
  since?: string;
}

export interface ContainerRow {
  name: string;
  role: "init" | "sidecar" | "container" | "ephemeral";
  image: string;
  /** The image the runtime reports, when it differs from the spec's (a tag resolved to a digest). */
  imageID?: string;
  state: ContainerState;
  ready?: boolean;
  restarts: number;
  /** The previous run's end: "Error (exit code 1), 3m ago". */
  lastTermination?: string;
  ports: string[];
  probes: { kind: "liveness" | "readiness" | "startup"; text: string }[];
  resources?: string;
}

/** A probe in words, e.g. "HTTP GET :8080/healthz every 10s" (kube's defaults: period 10s, timeout 1s, 3 failures). */
export function probeText(probe: Loose | undefined): string {
  if (!probe || typeof probe !== "object") return "";
  let action: string;
  if (probe.httpGet) {
    const h = probe.httpGet as Loose;
    const scheme = String(h.scheme ?? "HTTP").toUpperCase();
    const path = h.path ? (String(h.path).startsWith("/") ? h.path : `/${h.path}`) : "/";
    action = `${scheme} GET ${h.host ?? ""}:${h.port ?? "?"}${path}`;
  } else if (probe.tcpSocket) {
    action = `TCP ${probe.tcpSocket.host ?? ""}:${probe.tcpSocket.port ?? "?"}`;
  } else if (probe.grpc) {
    action = `gRPC :${probe.grpc.port ?? "?"}${probe.grpc.service ? ` service ${probe.grpc.service}` : ""}`;
  } else if (probe.exec) {
    action = `exec ${((probe.exec.command ?? []) as string[]).join(" ") || "(no command)"}`;
  } else {
    action = "no action";
  }
  const parts = [`${action} every ${probe.periodSeconds ?? 10}s`];
  if (probe.initialDelaySeconds) parts.push(`first after ${probe.initialDelaySeconds}s`);
  parts.push(`timeout ${probe.timeoutSeconds ?? 1}s`);
  const failures = probe.failureThreshold ?? 3;
  parts.push(`fails after ${failures} ${failures === 1 ? "miss" : "misses"}`);
  if (probe.successThreshold && probe.successThreshold > 1) parts.push(`${probe.successThreshold} successes to pass`);
  return parts.join(", ");
}

/** "requests cpu 100m, memory 64Mi; limits cpu 500m" (undefined when the container sets neither). */
export function resourcesText(resources: Loose | undefined): string | undefined {
  const list = (label: string, values: Loose | undefined) => {
    const entries = Object.entries(values ?? {});
    return entries.length ? `${label} ${entries.map(([k, v]) => `${k} ${v}`).join(", ")}` : undefined;
  };
  const text = [list("requests", resources?.requests), list("limits", resources?.limits)].filter(Boolean).join("; ");
  return text || undefined;
}

/** "8080/TCP (http)", with the host port when one is bound. */
export function portText(port: Loose): string {
  const base = `${port.containerPort}/${port.protocol ?? "TCP"}`;
  const host = port.hostPort ? ` → host ${port.hostIP ? `${port.hostIP}:` : ""}${port.hostPort}` : "";
  return `${base}${port.name ? ` (${port.name})` : ""}${host}`;
}

function terminatedText(t: Loose): string {
  const why = t.reason || (t.signal ? `Signal ${t.signal}` : undefined);
  return `${why ? `${why} ` : ""}(exit code ${t.exitCode ?? "?"})`;
}

export function containerState(status: Loose | undefined, role: ContainerRow["role"]): ContainerState {
  const state = (status?.state ?? {}) as Loose;
  if (state.running) {
    const notReady = role !== "init" && status?.ready === false;
    return { text: notReady ? "Running, not ready" : "Running", tone: notReady ? "warning" : "ok", since: state.running.startedAt ?? undefined };
  }
  if (state.terminated) {
    const t = state.terminated as Loose;
    const ok = t.exitCode === 0;
    return { text: `Terminated: ${terminatedText(t)}`, tone: ok ? "neutral" : "error", message: t.message || undefined, since: t.finishedAt ?? undefined };
  }
  if (state.waiting) {
    const reason: string = state.waiting.reason || "Waiting";
    return { text: `Waiting: ${reason}`, tone: statusTone(reason), message: state.waiting.message || undefined };
  }
  return { text: "Not started yet", tone: "neutral" };
}

export function containerRows(pod: KubeObject, now = Date.now()): ContainerRow[] {
  const spec = (pod.spec ?? {}) as Loose;
  const status = (pod.status ?? {}) as Loose;
  const byName = (list: unknown) => new Map(((list ?? []) as Loose[]).map((s) => [s.name, s]));
  const initStatuses = byName(status.initContainerStatuses);
  const statuses = byName(status.containerStatuses);
  const ephemeralStatuses = byName(status.ephemeralContainerStatuses);
  const row = (c: Loose, role: ContainerRow["role"], s: Loose | undefined): ContainerRow => {
    const last = s?.lastState?.terminated as Loose | undefined;
    const probes: ContainerRow["probes"] = [];
    for (const kind of ["startup", "liveness", "readiness"] as const) {
      const text = probeText(c[`${kind}Probe`]);
      if (text) probes.push({ kind, text });
    }
    const finished = last?.finishedAt ? Date.parse(last.finishedAt) : NaN;
    return {
      name: c.name,
      role,
      image: c.image ?? "",
      imageID: s?.imageID && s.imageID !== c.image ? s.imageID : undefined,
      state: containerState(s, role),
      ready: role === "init" ? undefined : s ? !!s.ready : undefined,
      restarts: s?.restartCount ?? 0,
      lastTermination: last ? `${terminatedText(last)}${Number.isNaN(finished) ? "" : `, ${humanDuration(now - finished)} ago`}` : undefined,
      ports: ((c.ports ?? []) as Loose[]).map(portText),
      probes,
      resources: resourcesText(c.resources),
    };
  };
  return [
    ...((spec.initContainers ?? []) as Loose[]).map((c) => row(c, c.restartPolicy === "Always" ? "sidecar" : "init", initStatuses.get(c.name))),
    ...((spec.containers ?? []) as Loose[]).map((c) => row(c, "container", statuses.get(c.name))),
    ...((spec.ephemeralContainers ?? []) as Loose[]).map((c) => row(c, "ephemeral", ephemeralStatuses.get(c.name))),
  ];
}

/** status.qosClass, or (before the server has set it) the class kube computes from the containers' resources. */
export function qosClass(pod: KubeObject): string {
  return ((pod.status as Loose | undefined)?.qosClass as string | undefined) || computeQosClass(pod as Pod);
}

/** Every pod IP (dual stack), else the single podIP. */
export function podIPs(pod: KubeObject): string[] {
  const status = (pod.status ?? {}) as Loose;
  const ips = ((status.podIPs ?? []) as Loose[]).map((p) => p.ip).filter(Boolean) as string[];
  return ips.length ? ips : status.podIP ? [status.podIP] : [];
}
