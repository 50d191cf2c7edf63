// Service (spec 2.9): `spec.ports` merge by port (two ports with the same number and different protocols
// collide, as in kube-apiserver); `selector` is a map; externalIPs, loadBalancerSourceRanges and
// `status.loadBalancer.ingress` are atomic.
import { coreType } from "./names";
import { arr, int, intOrString, map, obj, str } from "./schema";
import { resource } from "./resource";

const servicePort = obj(
  {
    name: str({ description: "Name of the port (DNS label), unique within the service; required when there are several." }),
    nodePort: int({ description: "Port on every node for NodePort and LoadBalancer services; allocated when unset." }),
    port: int({ description: "Port the service exposes." }),
    protocol: str({ description: "TCP, UDP or SCTP. Defaults to TCP.", enum: ["SCTP", "TCP", "UDP"] }),
    targetPort: intOrString({ description: "Port number or name on the selected pods; defaults to port." }),
  },
  { name: coreType("ServicePort"), description: "A port the service exposes.", required: ["port"] },
);

export const serviceSchema = resource(
  "Service",
  {
    spec: obj(
      {
        clusterIP: str({ description: "Virtual IP of the service, allocated when empty; None makes a headless service. Cannot change once set." }),
        externalIPs: arr(str(), { description: "Extra IPs, routed to a node, on which the service also accepts traffic." }),
        externalName: str({ description: "DNS name the service aliases (CNAME); type must be ExternalName." }),
        externalTrafficPolicy: str({
          description: "Cluster (spread over all endpoints) or Local (node-local endpoints only, keeps client IPs) for external traffic.",
          enum: ["Cluster", "Local"],
        }),
        healthCheckNodePort: int({ description: "Node port for load balancer health checks with externalTrafficPolicy Local." }),
        loadBalancerIP: str({ description: "Requested load balancer IP, when the cloud provider supports it." }),
        loadBalancerSourceRanges: arr(str(), { description: "Client CIDRs the load balancer admits." }),
        ports: arr(servicePort, {
          mergeKey: "port",
          strategy: "merge",
          listMapKeys: ["port", "protocol"],
          description: "Ports the service exposes.",
        }),
        selector: map(str(), { description: "Label selector of the pods traffic goes to; without it, Endpoints are managed by hand." }),
        sessionAffinity: str({ description: "ClientIP (sticky per client IP) or None. Defaults to None.", enum: ["ClientIP", "None"] }),
        type: str({
          description: "ClusterIP (default), NodePort, LoadBalancer or ExternalName.",
          enum: ["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"],
        }),
      },
      { name: coreType("ServiceSpec"), description: "Desired behaviour of the service." },
    ),
    status: obj(
      {
        loadBalancer: obj(
          {
            ingress: arr(
              obj(
                {
                  hostname: str({ description: "Hostname of the load balancer (DNS based)." }),
                  ip: str({ description: "IP of the load balancer (IP based)." }),
                },
                { name: coreType("LoadBalancerIngress"), description: "An ingress point of the load balancer." },
              ),
              { description: "Ingress points of the load balancer." },
            ),
          },
          { name: coreType("LoadBalancerStatus"), description: "Status of the load balancer, if any." },
        ),
      },
      { name: coreType("ServiceStatus"), description: "Current state of the service." },
    ),
  },
  { description: "A named abstraction of a software service: a port the proxy listens on and a selector choosing the pods that answer." },
);
