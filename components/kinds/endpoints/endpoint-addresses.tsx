"use client";
// The addresses behind a Service: ready first, then not ready, each with its pod, node and ports. Used by
// the Endpoints page and, live, by the Service page.
import type { EndpointsGroups } from "@/lib/client/endpoints-addresses";
import { formatEndpointPort } from "@/lib/client/endpoints-addresses";
import type { KubeObject } from "@/lib/kinds";
import { groupEndpoints } from "@/lib/client/endpoints-addresses";
import { Muted, ObjectLink } from "../field-list";
import { DetailTable } from "../../ui/detail-table";

export function EndpointAddressTable({ groups }: { groups: EndpointsGroups }) {
  const rows = [...groups.ready, ...groups.notReady];
  if (rows.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="no-endpoint-addresses">No addresses: no ready or not-ready pod backs this Service.</p>;
  return (
    <DetailTable caption="Endpoint addresses" columns={["Address", "Ready", "Target", "Node", "Ports"]} testId="endpoint-addresses">
      <tbody>
        {rows.map((r) => (
          <tr key={`${r.ready}/${r.ip}`} className="border-t border-slate-100 dark:border-slate-800" data-testid="endpoint-address" data-ip={r.ip} data-ready={String(r.ready)}>
            <td className="py-1 pr-3 font-mono">{r.ip}</td>
            <td className={`py-1 pr-3 ${r.ready ? "text-green-800 dark:text-green-300" : "text-amber-800 dark:text-amber-300"}`}>{r.ready ? "Ready" : "Not ready"}</td>
            <td className="py-1 pr-3">
              {r.target ? (
                <ObjectLink kind={r.target.kind} namespace={r.target.namespace} name={r.target.name}>
                  {r.target.kind === "Pod" ? r.target.name : `${r.target.kind} ${r.target.name}`}
                </ObjectLink>
              ) : (
                <Muted>{r.hostname ?? "—"}</Muted>
              )}
            </td>
            <td className="py-1 pr-3">{r.nodeName ?? <Muted>—</Muted>}</td>
            <td className="py-1 font-mono text-xs">{r.ports.map(formatEndpointPort).join(", ") || "—"}</td>
          </tr>
        ))}
      </tbody>
    </DetailTable>
  );
}

export function EndpointsDetails({ obj }: { obj: KubeObject }) {
  const groups = groupEndpoints(obj);
  return (
    <div data-testid="endpoints-details">
      <p className="mb-2 text-sm text-slate-600 dark:text-slate-400">
        {groups.ready.length} ready, {groups.notReady.length} not ready{groups.ports.length ? ` · ports ${groups.ports.map(formatEndpointPort).join(", ")}` : ""}
      </p>
      <EndpointAddressTable groups={groups} />
    </div>
  );
}
