// Service (spec 2.9): `spec.ports` merge by port (two ports with the same number and different protocols
// collide, as in kube-apiserver); `selector` is a map; externalIPs, loadBalancerSourceRanges and
// `status.loadBalancer.ingress` are atomic.
import { coreType, metaType } from "./names";
import { arr, bool, int, int64, intOrString, map, obj, str, time } from "./schema";
import { resource } from "./resource";

const condition = obj(
  {
    lastTransitionTime: time({ description: "When the status last changed." }),
    message: str({ description: "Human-readable details." }),
    observedGeneration: int64({ description: "metadata.generation the condition was set for." }),
    reason: str({ description: "Machine-readable reason in CamelCase." }),
    status: str({ description: "True, False or Unknown." }),
    type: str({ description: "Condition type in CamelCase." }),
  },
  {
    name: metaType("Condition"),
    description: "One aspect of the current state of an object.",
    required: ["type", "status", "lastTransitionTime", "reason", "message"],
  },
);

const servicePort = obj(
  {
    name: str({ description: "Name of the port (DNS label), unique within the service; required when there are several." }),
    nodePort: int({ description: "Port on every node for NodePort and LoadBalancer services; allocated when unset." }),
    port: int({ description: "Port the service exposes." }),
    protocol: str({ description: "TCP, UDP or SCTP. Defaults to TCP.", enum: ["SCTP", "TCP", "UDP"] }),
    targetPort: intOrString({ description: "Port number or name on the selected pods; defaults to port." }),
    // Newer than the spec (Kubernetes 1.32):
    appProtocol: str({ description: "Application protocol of the port, e.g. kubernetes.io/h2c or a domain-prefixed name." }),
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
        selector: map(str(), { mapType: "atomic", description: "Label selector of the pods traffic goes to; without it, Endpoints are managed by hand." }),
        sessionAffinity: str({ description: "ClientIP (sticky per client IP) or None. Defaults to None.", enum: ["ClientIP", "None"] }),
        type: str({
          description: "ClusterIP (default), NodePort, LoadBalancer or ExternalName.",
          enum: ["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"],
        }),
        // Newer than the spec (Kubernetes 1.32):
        allocateLoadBalancerNodePorts: bool({ description: "Whether a LoadBalancer service gets node ports. Defaults to true." }),
        clusterIPs: arr(str(), { description: "Cluster IPs (one per IP family); the first equals clusterIP." }),
        internalTrafficPolicy: str({ description: "Cluster (default) or Local for traffic from inside the cluster.", enum: ["Cluster", "Local"] }),
        ipFamilies: arr(str({ enum: ["IPv4", "IPv6"] }), { description: "IP families of the service: IPv4, IPv6, or both in order." }),
        ipFamilyPolicy: str({ description: "SingleStack, PreferDualStack or RequireDualStack.", enum: ["PreferDualStack", "RequireDualStack", "SingleStack"] }),
        loadBalancerClass: str({ description: "Load balancer implementation to use; cannot change once set." }),
        publishNotReadyAddresses: bool({ description: "Publish endpoints of pods that are not ready (DNS for StatefulSet peers)." }),
        sessionAffinityConfig: obj(
          {
            clientIP: obj(
              { timeoutSeconds: int({ description: "Seconds a client stays with one endpoint (1-86400). Defaults to 10800." }) },
              { name: coreType("ClientIPConfig"), description: "ClientIP affinity settings." },
            ),
          },
          { name: coreType("SessionAffinityConfig"), description: "Settings of the session affinity." },
        ),
        trafficDistribution: str({ description: "Preference for routing, e.g. PreferClose." }),
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
                  // Newer than the spec (Kubernetes 1.32):
                  ipMode: str({ description: "VIP or Proxy: how traffic reaches the load balancer IP." }),
                  ports: arr(
                    obj(
                      {
                        error: str({ description: "Problem with this port, if any." }),
                        port: int({ description: "Port number." }),
                        protocol: str({ description: "TCP, UDP or SCTP." }),
                      },
                      { name: coreType("PortStatus"), description: "Status of one port.", required: ["port", "protocol"] },
                    ),
                    { description: "Status of the service ports." },
                  ),
                },
                { name: coreType("LoadBalancerIngress"), description: "An ingress point of the load balancer." },
              ),
              { description: "Ingress points of the load balancer." },
            ),
          },
          { name: coreType("LoadBalancerStatus"), description: "Status of the load balancer, if any." },
        ),
        // Newer than the spec (Kubernetes 1.32):
        conditions: arr(condition, { mergeKey: "type", strategy: "merge", description: "Current conditions of the service." }),
      },
      { name: coreType("ServiceStatus"), description: "Current state of the service." },
    ),
  },
  { description: "A named abstraction of a software service: a port the proxy listens on and a selector choosing the pods that answer." },
);
