"use client";
// A pod as people ask about it: its status as kubectl computes it (coloured, in words), where it runs (node,
// IPs, QoS, start time), each container (state, ready, restarts, last termination, image, ports, probes,
// resources), its conditions, what it uses (ServiceAccount, ConfigMaps, Secrets, claims, each with how) and,
// live, the Services whose selector picks it. Its security context follows (pod-security.tsx).
import { useMemo, type ReactNode } from "react";
import { containerRows, podIPs, qosClass, type ContainerRow } from "./pod-containers";
import { podStatus } from "@/lib/client/pod-status";
import { podUsages, servicesSelecting } from "@/lib/client/relations";
import { useResourceList } from "@/lib/client/use-resource-list";
import { humanDuration } from "@/lib/kinds/columns";
import { kindByPlural, type KubeObject } from "@/lib/kinds";
import { ConditionsTable } from "../../resource-details/status-panel";
import { Section } from "../../resource-details/section";
import { FieldList, LoadNote, Muted, ObjectLink } from "../field-list";
import { StatusBadge, toneText } from "../../ui/status-badge";
import { PodSecurity } from "./pod-security";

type Loose = Record<string, any>;

const serviceKind = kindByPlural("services");

const ago = (at: string | undefined, now: number) => {
  const t = at ? Date.parse(at) : NaN;
  return Number.isNaN(t) ? undefined : `${humanDuration(now - t)} ago`;
};

const roleWords: Record<ContainerRow["role"], string> = { init: "init container", sidecar: "sidecar (init, always restarted)", container: "container", ephemeral: "ephemeral container" };

function ContainerCard({ row, now }: { row: ContainerRow; now: number }) {
  const since = ago(row.state.since, now);
  const fields: [string, ReactNode, string?][] = [
    ["Image", <span key="i" className="font-mono text-xs">{row.image}</span>, "container-image"],
    ["Image ID", row.imageID ? <span className="font-mono text-xs">{row.imageID}</span> : undefined],
    ["Ready", row.ready === undefined ? undefined : row.ready ? "yes" : <span className={toneText.warning}>no</span>, "container-ready"],
    ["Restarts", String(row.restarts), "container-restarts"],
    ["Last termination", row.lastTermination, "container-last-termination"],
    ["Ports", row.ports.length ? <span className="font-mono text-xs">{row.ports.join(", ")}</span> : undefined, "container-ports"],
    [
      "Probes",
      row.probes.length ? (
        <ul>
          {row.probes.map((p) => (
            <li key={p.kind} data-testid={`probe-${p.kind}`}>
              <span className="font-medium">{p.kind}:</span> {p.text}
            </li>
          ))}
        </ul>
      ) : undefined,
    ],
    ["Resources", row.resources ?? <Muted>none set</Muted>, "container-resources"],
  ];
  return (
    <li className="rounded-md border border-slate-200 px-3 py-2 dark:border-slate-700" data-testid="container" data-container={row.name} data-role={row.role}>
      <div className="mb-1 flex flex-wrap items-baseline gap-2">
        <h3 className="font-mono text-sm font-semibold">{row.name}</h3>
        <span className="text-xs text-slate-600 dark:text-slate-400">{roleWords[row.role]}</span>
        <StatusBadge tone={row.state.tone} testId="container-state">
          {row.state.text}
        </StatusBadge>
        {since && <span className="text-xs text-slate-600 dark:text-slate-400">{row.state.tone === "ok" || row.state.tone === "warning" ? `since ${since}` : since}</span>}
      </div>
      {row.state.message && (
        <p className="mb-1 text-sm text-slate-700 dark:text-slate-300" data-testid="container-state-message">
          {row.state.message}
        </p>
      )}
      <FieldList fields={fields} />
    </li>
  );
}

function SelectingServices({ pod }: { pod: KubeObject }) {
  const list = useResourceList(serviceKind, { namespace: pod.metadata.namespace });
  const services = useMemo(() => (list.data ? servicesSelecting(pod, list.data.items.values()) : undefined), [list.data, pod]);
  return (
    <div data-testid="pod-services">
      <LoadNote error={list.error} loading={!list.data && !list.error} what="Services" />
      {services &&
        (services.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">No Service in {pod.metadata.namespace} selects this pod.</p>
        ) : (
          <ul className="text-sm">
            {services.map((s) => (
              <li key={s.metadata.name}>
                <ObjectLink kind="Service" namespace={s.metadata.namespace} name={s.metadata.name ?? ""} testId="pod-service-link" />{" "}
                <Muted>
                  selector{" "}
                  {Object.entries(((s.spec as Loose | undefined)?.selector ?? {}) as Record<string, string>)
                    .map(([k, v]) => `${k}=${v}`)
                    .join(", ")}
                </Muted>
              </li>
            ))}
          </ul>
        ))}
    </div>
  );
}

export function PodDetails({ obj, now = Date.now() }: { obj: KubeObject; now?: number }) {
  const spec = (obj.spec ?? {}) as Loose;
  const status = (obj.status ?? {}) as Loose;
  const summary = podStatus(obj, now);
  const rows = containerRows(obj, now);
  const usages = podUsages(obj);
  const ips = podIPs(obj);
  const conditions = (status.conditions ?? []) as Loose[];
  const started = ago(status.startTime, now);
  return (
    <div data-testid="pod-details">
      <Section title="Pod" testId="pod-summary">
        <FieldList
          fields={[
            [
              "Status",
              <span key="s" className="flex flex-wrap items-baseline gap-2">
                <StatusBadge tone={summary.tone} testId="pod-status" title={`phase ${status.phase ?? "not reported"}`}>
                  {summary.text}
                </StatusBadge>
                <span className="text-xs text-slate-600 dark:text-slate-400">phase {status.phase ?? "not reported"}</span>
              </span>,
            ],
            ["Reason", status.reason || status.message ? `${status.reason ?? ""}${status.reason && status.message ? ": " : ""}${status.message ?? ""}` : undefined, "pod-reason"],
            ["Ready", `${summary.ready} containers`, "pod-ready"],
            ["Node", spec.nodeName ? <span className="font-mono">{spec.nodeName}</span> : <Muted>not scheduled</Muted>, "pod-node"],
            ["Pod IPs", ips.length ? <span className="font-mono">{ips.join(", ")}</span> : <Muted>none yet</Muted>, "pod-ips"],
            ["Host IP", status.hostIP ? <span className="font-mono">{status.hostIP}</span> : undefined, "pod-host-ip"],
            ["QoS class", qosClass(obj), "pod-qos"],
            ["Started", status.startTime ? `${status.startTime}${started ? ` (${started})` : ""}` : <Muted>not started</Muted>, "pod-start-time"],
            ["Restart policy", spec.restartPolicy],
            ["Priority", spec.priorityClassName ? `${spec.priorityClassName}${spec.priority !== undefined ? ` (${spec.priority})` : ""}` : undefined],
          ]}
        />
      </Section>
      <Section title="Containers" testId="pod-containers">
        {rows.length === 0 ? <Muted>No containers.</Muted> : (
          <ul className="space-y-2">
            {rows.map((r) => (
              <ContainerCard key={`${r.role}/${r.name}`} row={r} now={now} />
            ))}
          </ul>
        )}
      </Section>
      <Section title="Conditions" testId="pod-conditions">
        {conditions.length ? <ConditionsTable conditions={conditions} now={now} /> : <p className="text-sm text-slate-600 dark:text-slate-400">No conditions reported yet.</p>}
      </Section>
      <Section title="Uses" testId="pod-uses">
        <ul className="text-sm">
          {usages.map((u) => (
            <li key={`${u.kind}/${u.name}`} data-testid="pod-use" data-kind={u.kind} data-name={u.name}>
              <span className="text-slate-600 dark:text-slate-400">{u.kind} </span>
              <ObjectLink kind={u.kind} namespace={obj.metadata.namespace} name={u.name} />
              <span className="text-slate-600 dark:text-slate-400"> — {u.via.join(", ")}</span>
            </li>
          ))}
        </ul>
      </Section>
      <Section title="Selected by Services" testId="pod-selected-by">
        <SelectingServices pod={obj} />
      </Section>
      <Section title="Security" testId="data">
        <PodSecurity obj={obj} />
      </Section>
    </div>
  );
}
