"use client";
// A Service as its users read it: how it is reached (type, cluster IPs, node ports, external addresses) and,
// live, which pods answer (its Endpoints object, kept by the endpoints controller).
import { useMemo } from "react";
import { formatEndpointPort, groupEndpoints } from "@/lib/client/endpoints-addresses";
import { useResourceList } from "@/lib/client/use-resource-list";
import { kindByPlural, type KubeObject } from "@/lib/kinds";
import { LiveIndicator } from "../../resource-table/live-indicator";
import { EndpointAddressTable } from "../endpoints/endpoint-addresses";
import { FieldList, LoadNote, Muted, ObjectLink } from "../field-list";
import { DetailTable } from "../../ui/detail-table";

type Loose = Record<string, any>;

const endpointsKind = kindByPlural("endpoints");

function ServicePorts({ ports, showNodePorts }: { ports: Loose[]; showNodePorts: boolean }) {
  if (ports.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-400">No ports.</p>;
  return (
    <DetailTable caption="Ports" columns={["Name", "Protocol", "Port", "Target port", ...(showNodePorts ? ["Node port"] : []), "App protocol"]} testId="service-ports">
      <tbody>
        {ports.map((p, i) => (
          <tr key={`${p.name ?? ""}-${p.port}-${p.protocol ?? "TCP"}-${i}`} className="border-t border-slate-100 font-mono text-xs dark:border-slate-800" data-testid="service-port" data-port={p.port}>
            <td className="py-1 pr-3">{p.name || <Muted>—</Muted>}</td>
            <td className="py-1 pr-3">{p.protocol ?? "TCP"}</td>
            <td className="py-1 pr-3">{p.port}</td>
            <td className="py-1 pr-3">{p.targetPort ?? p.port}</td>
            {showNodePorts && (
              <td className="py-1 pr-3" data-testid="node-port">
                {p.nodePort ?? <Muted>not allocated</Muted>}
              </td>
            )}
            <td className="py-1">{p.appProtocol ?? ""}</td>
          </tr>
        ))}
      </tbody>
    </DetailTable>
  );
}

function ServiceEndpoints({ service }: { service: KubeObject }) {
  const namespace = service.metadata.namespace;
  const name = service.metadata.name ?? "";
  const list = useResourceList(endpointsKind, { namespace, fieldSelector: `metadata.name=${name}` });
  const endpoints = list.data?.items.get(`${namespace}/${name}`);
  const groups = useMemo(() => groupEndpoints(endpoints), [endpoints]);
  const selector = ((service.spec as Loose | undefined)?.selector ?? {}) as Record<string, string>;
  const type = (service.spec as Loose | undefined)?.type;
  return (
    <div className="mt-4" data-testid="service-endpoints">
      <div className="mb-1 flex items-center gap-3">
        <h3 className="text-sm font-semibold">
          Endpoints{" "}
          {endpoints && (
            <span className="font-normal text-slate-600 dark:text-slate-400" data-testid="endpoints-summary">
              ({groups.ready.length} ready, {groups.notReady.length} not ready)
            </span>
          )}
        </h3>
        {!list.error && <LiveIndicator status={list.status} detail={list.statusDetail} />}
        {endpoints && (
          <ObjectLink kind="Endpoints" namespace={namespace} name={name}>
            open Endpoints {name}
          </ObjectLink>
        )}
      </div>
      <LoadNote error={list.error} loading={!list.data && !list.error} what="Endpoints" />
      {list.data &&
        (endpoints ? (
          <>
            {groups.ports.length > 0 && <p className="mb-1 font-mono text-xs text-slate-600 dark:text-slate-400">ports {groups.ports.map(formatEndpointPort).join(", ")}</p>}
            <EndpointAddressTable groups={groups} />
          </>
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="no-endpoints">
            {type === "ExternalName"
              ? "An ExternalName Service has no Endpoints: clients are sent to the external name."
              : Object.keys(selector).length === 0
                ? "No Endpoints object: a Service without a selector gets the Endpoints someone writes by hand."
                : "No Endpoints object yet: the endpoints controller creates it for a Service with a selector."}
          </p>
        ))}
    </div>
  );
}

export function ServiceDetails({ obj }: { obj: KubeObject }) {
  const spec = (obj.spec ?? {}) as Loose;
  const status = (obj.status ?? {}) as Loose;
  const type: string = spec.type ?? "ClusterIP";
  const clusterIPs: string[] = spec.clusterIPs?.length ? spec.clusterIPs : spec.clusterIP ? [spec.clusterIP] : [];
  const ingress = ((status.loadBalancer?.ingress ?? []) as Loose[]).map((i) => i.ip ?? i.hostname).filter(Boolean) as string[];
  const selector = Object.entries((spec.selector ?? {}) as Record<string, string>);
  const showNodePorts = type === "NodePort" || type === "LoadBalancer" || ((spec.ports ?? []) as Loose[]).some((p) => p.nodePort);
  return (
    <div data-testid="service-details">
      <FieldList
        fields={[
          ["Type", type, "service-type"],
          [
            "Cluster IPs",
            clusterIPs.length === 0 ? (
              type === "ExternalName" ? <Muted>none (ExternalName)</Muted> : <Muted>not allocated yet</Muted>
            ) : clusterIPs[0] === "None" ? (
              "None (headless: DNS answers with the pods' addresses)"
            ) : (
              <span className="font-mono">{clusterIPs.join(", ")}</span>
            ),
            "cluster-ips",
          ],
          ["IP families", spec.ipFamilies?.length ? `${spec.ipFamilies.join(", ")}${spec.ipFamilyPolicy ? ` (${spec.ipFamilyPolicy})` : ""}` : undefined, "ip-families"],
          ["External name", spec.externalName, "external-name"],
          ["External IPs", spec.externalIPs?.length ? <span className="font-mono">{spec.externalIPs.join(", ")}</span> : undefined, "external-ips"],
          [
            "Load balancer",
            type === "LoadBalancer" ? ingress.length ? <span className="font-mono">{ingress.join(", ")}</span> : <Muted>pending: no ingress reported yet</Muted> : undefined,
            "load-balancer-ingress",
          ],
          ["Selector", selector.length ? <span className="font-mono text-xs">{selector.map(([k, v]) => `${k}=${v}`).join(", ")}</span> : <Muted>none</Muted>, "service-selector"],
          ["Session affinity", spec.sessionAffinity],
          ["External traffic policy", spec.externalTrafficPolicy],
          ["Internal traffic policy", spec.internalTrafficPolicy],
          ["Health check node port", spec.healthCheckNodePort !== undefined ? String(spec.healthCheckNodePort) : undefined],
        ]}
      />
      <h3 className="mb-1 mt-4 text-sm font-semibold">Ports</h3>
      <ServicePorts ports={(spec.ports ?? []) as Loose[]} showNodePorts={showNodePorts} />
      <ServiceEndpoints service={obj} />
    </div>
  );
}
