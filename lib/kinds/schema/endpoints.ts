// Endpoints (spec 2.2). No patch tags anywhere: a strategic merge patch replaces `subsets` whole.
import { coreType } from "./names";
import { objectReference } from "./object-reference";
import { arr, describe, int, obj, str } from "./schema";
import { resource } from "./resource";

const endpointAddress = obj(
  {
    hostname: str({ description: "Hostname of this endpoint." }),
    ip: str({ description: "IP address of the endpoint; not loopback, link-local or link-local multicast." }),
    nodeName: str({ description: "Node hosting the endpoint." }),
    targetRef: describe(objectReference, "The object (usually a Pod) providing the endpoint."),
  },
  { name: coreType("EndpointAddress"), description: "One IP address of an endpoint.", required: ["ip"] },
);

const endpointPort = obj(
  {
    name: str({ description: "Name of the port; must match the Service port name. Optional with a single port." }),
    port: int({ description: "Port number." }),
    protocol: str({ description: "TCP, UDP or SCTP. Defaults to TCP.", enum: ["SCTP", "TCP", "UDP"] }),
    // Newer than the spec (Kubernetes 1.32):
    appProtocol: str({ description: "Application protocol of the port, e.g. kubernetes.io/h2c or a domain-prefixed name." }),
  },
  { name: coreType("EndpointPort"), description: "A port of the endpoints.", required: ["port"] },
);

const endpointSubset = obj(
  {
    addresses: arr(endpointAddress, { description: "Addresses ready to receive traffic on the subset's ports." }),
    notReadyAddresses: arr(endpointAddress, { description: "Addresses not ready yet (or that recently failed a readiness check)." }),
    ports: arr(endpointPort, { description: "Ports available on every address of the subset." }),
  },
  { name: coreType("EndpointSubset"), description: "A group of addresses sharing the same ports: every address pairs with every port." },
);

export const endpointsSchema = resource(
  "Endpoints",
  { subsets: arr(endpointSubset, { description: "Sets of addresses and ports that together make up the service." }) },
  { description: "The network endpoints (addresses and ports) implementing a service; named like the Service." },
);
