import { describe, expect, it } from "vitest";
import { service, type Service } from "./service";
import { create, created, templateOf, update, variant, type Row } from "./validation-harness";

const base = templateOf<Service>(service);
const s = (svc: Service) => svc.spec!;

const rows: Row<Service>[] = [
  ["a name that starts with a digit", (svc) => { svc.metadata.name = "1web"; },
    { field: "metadata.name", reason: "FieldValueInvalid", message: "Invalid value: \"1web\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')" }],
  ["no ports", (svc) => { s(svc).ports = []; }, { field: "spec.ports", reason: "FieldValueRequired", message: "Required value" }],
  ["no ports on a headless service", (svc) => { s(svc).ports = []; s(svc).clusterIP = "None"; }, null],
  ["two ports, one unnamed", (svc) => { s(svc).ports = [{ port: 80 }, { name: "https", port: 443 }]; },
    { field: "spec.ports[0].name", reason: "FieldValueRequired", message: "Required value" }],
  ["two ports with the same name", (svc) => { s(svc).ports = [{ name: "web", port: 80 }, { name: "web", port: 443 }]; },
    { field: "spec.ports[1].name", reason: "FieldValueDuplicate", message: 'Duplicate value: "web"' }],
  ["a port out of range", (svc) => { s(svc).ports = [{ port: 70000 }]; }, [
    { field: "spec.ports[0].port", reason: "FieldValueInvalid", message: "Invalid value: 70000: must be between 1 and 65535, inclusive" },
    { field: "spec.ports[0].targetPort", reason: "FieldValueInvalid", message: "Invalid value: 70000: must be between 1 and 65535, inclusive" },
  ]],
  ["an unknown protocol", (svc) => { s(svc).ports = [{ port: 80, protocol: "HTTP" }]; },
    { field: "spec.ports[0].protocol", reason: "FieldValueNotSupported", message: 'Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"' }],
  ["a named targetPort", (svc) => { s(svc).ports = [{ port: 80, targetPort: "http" }]; }, null],
  ["a numeric string targetPort is a (bad) name", (svc) => { s(svc).ports = [{ port: 80, targetPort: "8080" }]; },
    { field: "spec.ports[0].targetPort", reason: "FieldValueInvalid", message: 'Invalid value: "8080": must contain at least one letter (a-z)' }],
  ["the same port twice", (svc) => { s(svc).ports = [{ name: "a", port: 80 }, { name: "b", port: 80 }]; },
    { field: "spec.ports[1]", reason: "FieldValueDuplicate", message: 'Duplicate value: core.ServicePort{Name:"", Protocol:"TCP", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}' }],
  ["the same port over TCP and UDP", (svc) => { s(svc).ports = [{ name: "a", port: 53 }, { name: "b", port: 53, protocol: "UDP" }]; }, null],
  ["a node port on a ClusterIP service", (svc) => { s(svc).ports = [{ port: 80, nodePort: 30080 }]; },
    { field: "spec.ports[0].nodePort", reason: "FieldValueForbidden", message: "Forbidden: may not be used when `type` is 'ClusterIP'" }],
  ["a node port on a NodePort service", (svc) => { s(svc).type = "NodePort"; s(svc).ports = [{ port: 80, nodePort: 30080 }]; }, null],
  ["the same node port twice", (svc) => {
    s(svc).type = "NodePort";
    s(svc).ports = [{ name: "a", port: 80, nodePort: 30080 }, { name: "b", port: 81, nodePort: 30080 }];
  }, { field: "spec.ports[1].nodePort", reason: "FieldValueDuplicate", message: "Duplicate value: 30080" }],
  ["an unknown type", (svc) => { s(svc).type = "Internal"; },
    { field: "spec.type", reason: "FieldValueNotSupported", message: 'Unsupported value: "Internal": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"' }],
  ["an unknown session affinity", (svc) => { s(svc).sessionAffinity = "Cookie"; },
    { field: "spec.sessionAffinity", reason: "FieldValueNotSupported", message: 'Unsupported value: "Cookie": supported values: "ClientIP", "None"' }],
  ["a cluster IP that is not an IP", (svc) => { s(svc).clusterIP = "10.0.0"; },
    { field: "spec.clusterIPs[0]", reason: "FieldValueInvalid", message: 'Invalid value: "10.0.0": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)' }],
  ["a headless NodePort service", (svc) => { s(svc).type = "NodePort"; s(svc).clusterIP = "None"; },
    { field: "spec.clusterIPs[0]", reason: "FieldValueInvalid", message: "Invalid value: \"None\": may not be set to 'None' for NodePort services" }],
  ["an ExternalName service", (svc) => { svc.spec = { type: "ExternalName", externalName: "db.example.com." }; }, null],
  ["an ExternalName service without a name", (svc) => { svc.spec = { type: "ExternalName" }; },
    { field: "spec.externalName", reason: "FieldValueRequired", message: "Required value" }],
  ["an ExternalName service with a cluster IP", (svc) => { svc.spec = { type: "ExternalName", externalName: "db.example.com", clusterIP: "10.0.0.5" }; },
    { field: "spec.clusterIPs", reason: "FieldValueForbidden", message: "Forbidden: may not be set for ExternalName services" }],
  ["an ExternalName that is not a DNS name", (svc) => { svc.spec = { type: "ExternalName", externalName: "DB_HOST" }; },
    { field: "spec.externalName", reason: "FieldValueInvalid", message: "Invalid value: \"DB_HOST\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')" }],
  ["an external IP on loopback", (svc) => { s(svc).externalIPs = ["127.0.0.2"]; },
    { field: "spec.externalIPs[0]", reason: "FieldValueInvalid", message: 'Invalid value: "127.0.0.2": may not be in the loopback range (127.0.0.0/8, ::1/128)' }],
  ["source ranges on a ClusterIP service", (svc) => { s(svc).loadBalancerSourceRanges = ["10.0.0.0/8"]; },
    { field: "spec.LoadBalancerSourceRanges", reason: "FieldValueForbidden", message: "Forbidden: may only be used when `type` is 'LoadBalancer'" }],
  ["a source range that is not a CIDR", (svc) => { s(svc).type = "LoadBalancer"; s(svc).loadBalancerSourceRanges = ["10.0.0.0/33"]; },
    { field: "spec.LoadBalancerSourceRanges[0]", reason: "FieldValueInvalid", message: 'Invalid value: "10.0.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)' }],
  ["an external traffic policy on an internal service", (svc) => { s(svc).externalTrafficPolicy = "Local"; },
    { field: "spec.externalTrafficPolicy", reason: "FieldValueInvalid", message: 'Invalid value: "Local": may only be set for externally-accessible services' }],
  ["an unknown external traffic policy", (svc) => { s(svc).type = "NodePort"; s(svc).externalTrafficPolicy = "Nearest"; },
    { field: "spec.externalTrafficPolicy", reason: "FieldValueNotSupported", message: 'Unsupported value: "Nearest": supported values: "Cluster", "Local"' }],
  ["a health-check node port without Local", (svc) => { s(svc).type = "NodePort"; s(svc).healthCheckNodePort = 30100; },
    { field: "spec.healthCheckNodePort", reason: "FieldValueInvalid", message: "Invalid value: 30100: may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'" }],
  ["ClientIP affinity with a timeout above a day", (svc) => {
    s(svc).sessionAffinity = "ClientIP";
    s(svc).sessionAffinityConfig = { clientIP: { timeoutSeconds: 90000 } };
  }, { field: "spec.sessionAffinityConfig.clientIP.timeoutSeconds", reason: "FieldValueInvalid", message: "Invalid value: 90000: must be greater than 0 and less than 86400" }],
  ["a selector with a bad key", (svc) => { s(svc).selector = { "-app": "web" }; },
    { field: "spec.selector", reason: "FieldValueInvalid", message: "Invalid value: \"-app\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')" }],
];

describe("Service validation", () => {
  it("accepts its template", () => expect(create(service, base).causes).toEqual([]));

  it.each(rows)("%s", (_name, mutate, expected) => {
    expect(create(service, variant(base, mutate)).causes).toEqual(expected === null ? [] : [expected].flat());
  });

  it("defaults type, affinity, protocol, targetPort and traffic policies", () => {
    const svc = created<Service>(service, variant(base, (v) => { v.spec = { selector: { app: "web" }, ports: [{ port: 80 }] }; }));
    expect(svc.spec).toEqual({
      selector: { app: "web" },
      ports: [{ port: 80, protocol: "TCP", targetPort: 80 }],
      type: "ClusterIP",
      sessionAffinity: "None",
      internalTrafficPolicy: "Cluster",
    });
    const lb = created<Service>(service, variant(base, (v) => { s(v).type = "LoadBalancer"; s(v).sessionAffinity = "ClientIP"; }));
    expect(lb.spec).toMatchObject({
      externalTrafficPolicy: "Cluster",
      allocateLoadBalancerNodePorts: true,
      sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } },
    });
    expect(lb.status).toEqual({ loadBalancer: {} });
  });

  it("keeps an allocated cluster IP the client left out, and refuses to change it", () => {
    const old = created<Service>(service, variant(base, (v) => { s(v).clusterIP = "10.0.0.10"; }));
    const omitted = update(service, old, variant(old, (v) => { delete s(v).clusterIP; }));
    expect(omitted.causes).toEqual([]);
    expect((omitted.object as Service).spec!.clusterIP).toBe("10.0.0.10");
    expect(update(service, old, variant(old, (v) => { s(v).clusterIP = "10.0.0.11"; })).causes).toEqual([
      { field: "spec.clusterIPs[0]", reason: "FieldValueInvalid", message: 'Invalid value: []string{"10.0.0.11"}: may not change once set' },
    ]);
  });

  it("clears the cluster IP when a service becomes ExternalName", () => {
    const old = created<Service>(service, variant(base, (v) => { s(v).clusterIP = "10.0.0.10"; }));
    const result = update(service, old, variant(old, (v) => { s(v).type = "ExternalName"; s(v).externalName = "db.example.com"; }));
    expect(result.causes).toEqual([]);
    expect((result.object as Service).spec!.clusterIP).toBeUndefined();
  });

  it("keeps node ports the client left out", () => {
    const old = created<Service>(service, variant(base, (v) => { s(v).type = "NodePort"; s(v).ports = [{ name: "http", port: 80, nodePort: 30080 }]; }));
    const result = update(service, old, variant(old, (v) => { s(v).ports = [{ name: "http", port: 80 }]; }));
    expect(result.causes).toEqual([]);
    expect((result.object as Service).spec!.ports).toEqual([{ name: "http", port: 80, protocol: "TCP", targetPort: 80, nodePort: 30080 }]);
  });
});
