import { describe, expect, it } from "vitest";
import { humanDuration } from "./columns";
import { endpoints, type Endpoints } from "./endpoints";
import { event, type Event } from "./event";
import { clusterRoleBinding } from "./cluster-role-binding";
import { apiVersionOf, kindByKind, kindByPlural, kinds } from "./index";
import { role } from "./role";
import { roleBinding, type RoleBinding } from "./role-binding";
import { persistentVolumeClaim, type PersistentVolumeClaim } from "./persistent-volume-claim";
import { computeQosClass, pod, type Pod } from "./pod";
import { resourceQuota, type ResourceQuota } from "./resource-quota";
import { maxSecretSize, secret, type Secret } from "./secret";
import { securityContextConstraints } from "./security-context-constraints";
import { service, type Service } from "./service";
import { serviceAccount, type ServiceAccount } from "./service-account";
import type { AnyKind, KubeObject } from "./types";

const now = Date.parse("2025-01-01T12:00:00Z");
const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();
const cells = (kind: AnyKind, obj: KubeObject) => kind.columns.map((c) => c.cell(obj, now));
const cellsByName = (kind: AnyKind, obj: KubeObject) => Object.fromEntries(kind.columns.map((c) => [c.name, c.cell(obj, now)]));
const copy = <T>(value: T): T => structuredClone(value);

describe("kind names", () => {
  it("has every kind, each found by plural and by kind", () => {
    expect(kinds.map((k) => k.kind)).toEqual(expect.arrayContaining(["Pod", "Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding"]));
    for (const kind of kinds) {
      expect(kindByPlural(kind.plural)).toBe(kind);
      expect(kindByKind(kind.kind)).toBe(kind);
    }
    expect(kindByPlural("nodes")).toBeUndefined();
  });

  it("gives every name kubectl resolves (plural, singular, short name, kind) to one kind only", () => {
    const owners = new Map<string, string>();
    for (const kind of kinds) {
      for (const name of new Set([kind.plural, kind.singular, kind.kind.toLowerCase(), ...kind.shortNames])) {
        expect(owners.get(name) ?? kind.kind, `${name} is claimed twice`).toBe(kind.kind);
        owners.set(name, kind.kind);
      }
    }
  });

  it("declares kube-apiserver 1.32's names, scope and flags", () => {
    const table = Object.fromEntries(
      kinds.map((k) => [
        k.kind,
        [k.plural, k.singular, k.shortNames.join(","), k.categories.join(","), k.namespaced, k.nameRule, k.hasStatus, k.allowCreateOnUpdate, k.allowUnconditionalUpdate, k.deleteReturns, k.fieldSelectorError],
      ]),
    );
    expect(table).toEqual({
      Endpoints: ["endpoints", "endpoints", "ep", "", true, "dns1123-subdomain", false, true, true, "status", "known-only"],
      SecurityContextConstraints: ["securitycontextconstraints", "securitycontextconstraints", "scc", "", false, "dns1123-subdomain", false, false, true, "object", "known-only"],
      Secret: ["secrets", "secret", "", "", true, "dns1123-subdomain", false, false, true, "status", "label-not-supported"],
      Event: ["events", "event", "ev", "", true, "path-segment", false, true, true, "status", "label-not-supported"],
      LimitRange: ["limitranges", "limitrange", "limits", "", true, "dns1123-subdomain", false, true, true, "status", "known-only"],
      ResourceQuota: ["resourcequotas", "resourcequota", "quota", "", true, "dns1123-subdomain", true, false, true, "object", "known-only"],
      Pod: ["pods", "pod", "po", "all", true, "dns1123-subdomain", true, false, true, "object", "label-not-supported"],
      ConfigMap: ["configmaps", "configmap", "cm", "", true, "dns1123-subdomain", false, false, true, "status", "known-only"],
      PersistentVolume: ["persistentvolumes", "persistentvolume", "pv", "", false, "dns1123-subdomain", true, false, true, "status", "known-only"],
      PersistentVolumeClaim: ["persistentvolumeclaims", "persistentvolumeclaim", "pvc", "", true, "dns1123-subdomain", true, false, true, "object", "known-only"],
      Service: ["services", "service", "svc", "all", true, "dns1035-label", true, true, true, "object", "label-not-supported"],
      ServiceAccount: ["serviceaccounts", "serviceaccount", "sa", "", true, "dns1123-subdomain", false, false, true, "object", "known-only"],
      Namespace: ["namespaces", "namespace", "ns", "", false, "dns1123-label", true, false, true, "object", "label-not-supported"],
      Role: ["roles", "role", "", "", true, "path-segment", false, true, true, "status", "known-only"],
      ClusterRole: ["clusterroles", "clusterrole", "", "", false, "path-segment", false, true, true, "status", "known-only"],
      RoleBinding: ["rolebindings", "rolebinding", "", "", true, "path-segment", false, true, true, "status", "known-only"],
      ClusterRoleBinding: ["clusterrolebindings", "clusterrolebinding", "", "", false, "path-segment", false, true, true, "status", "known-only"],
      Lease: ["leases", "lease", "", "", true, "dns1123-subdomain", false, true, false, "status", "known-only"],
      CustomResourceDefinition: ["customresourcedefinitions", "customresourcedefinition", "crd,crds", "api-extensions", false, "dns1123-subdomain", true, false, false, "status", "known-only"],
    });
    const groups = Object.fromEntries(kinds.filter((k) => k.group).map((k) => [k.kind, apiVersionOf(k)]));
    expect(groups).toEqual({
      Role: "rbac.authorization.k8s.io/v1",
      ClusterRole: "rbac.authorization.k8s.io/v1",
      RoleBinding: "rbac.authorization.k8s.io/v1",
      ClusterRoleBinding: "rbac.authorization.k8s.io/v1",
      Lease: "coordination.k8s.io/v1",
      CustomResourceDefinition: "apiextensions.k8s.io/v1",
    });
  });

  it("selects on exactly the fields kube-apiserver supports", () => {
    const fields = Object.fromEntries(kinds.map((k) => [k.kind, Object.keys(k.selectableFields).sort()]));
    expect(fields.Pod).toEqual(
      ["spec.host", "spec.hostNetwork", "spec.nodeName", "spec.restartPolicy", "spec.schedulerName", "spec.serviceAccountName", "status.nominatedNodeName", "status.phase", "status.podIP", "status.podIPs"],
    );
    expect(fields.Event).toEqual([
      "involvedObject.apiVersion", "involvedObject.fieldPath", "involvedObject.kind", "involvedObject.name", "involvedObject.namespace",
      "involvedObject.resourceVersion", "involvedObject.uid", "reason", "reportingComponent", "source", "type",
    ]);
    expect(fields.Secret).toEqual(["type"]);
    expect(fields.Service).toEqual(["spec.clusterIP", "spec.type"]);
    expect(fields.Namespace).toEqual(["status.phase"]);
    for (const kind of ["Endpoints", "SecurityContextConstraints", "LimitRange", "ResourceQuota", "ConfigMap", "PersistentVolume", "PersistentVolumeClaim", "ServiceAccount"]) {
      expect(fields[kind], kind).toEqual([]);
    }
    const p = copy(pod.template) as Pod;
    expect(pod.selectableFields["spec.hostNetwork"](p)).toBe("false");
    p.spec!.hostNetwork = true;
    expect(pod.selectableFields["spec.hostNetwork"](p)).toBe("true");
    const e = copy(event.template) as Event;
    expect(event.selectableFields.source(e)).toBe("default-scheduler");
  });
});

describe("templates", () => {
  for (const kind of kinds) {
    it(`${kind.kind}: is a ready-to-create object that passes its own hooks and prints every column`, () => {
      const obj = copy(kind.template);
      expect(obj.apiVersion).toBe(apiVersionOf(kind));
      expect(obj.kind).toBe(kind.kind);
      expect(obj.metadata.name).toBeTruthy();
      expect(obj.metadata.namespace).toBeUndefined();
      expect(kind.decodeError?.(obj)).toBeUndefined();
      kind.applyDefaults?.(obj);
      kind.prepareForCreate?.(obj);
      expect(kind.validate?.(obj) ?? []).toEqual([]);
      kind.canonicalize?.(obj);
      const row = cells(kind, obj);
      expect(row).toHaveLength(kind.columns.length);
      for (const cell of row) expect(["string", "number", "boolean"]).toContain(typeof cell);
    });
  }

  it("has columns in kube-apiserver 1.32 printer order", () => {
    const names = Object.fromEntries(kinds.map((k) => [k.kind, k.columns.map((c) => (c.priority ? `${c.name}*` : c.name))]));
    expect(names).toEqual({
      Endpoints: ["Name", "Endpoints", "Age"],
      SecurityContextConstraints: ["Name", "Priv", "Caps", "SELinux", "RunAsUser", "FSGroup", "SupGroup", "Priority", "ReadOnlyRootFS", "Volumes"],
      Secret: ["Name", "Type", "Data", "Age"],
      Event: ["Last Seen", "Type", "Reason", "Object", "Subobject*", "Source*", "Message", "First Seen*", "Count*", "Name*"],
      LimitRange: ["Name", "Created At"],
      ResourceQuota: ["Name", "Age", "Request", "Limit"],
      Pod: ["Name", "Ready", "Status", "Restarts", "Age", "IP*", "Node*", "Nominated Node*", "Readiness Gates*"],
      ConfigMap: ["Name", "Data", "Age"],
      PersistentVolume: ["Name", "Capacity", "Access Modes", "Reclaim Policy", "Status", "Claim", "StorageClass", "VolumeAttributesClass", "Reason", "Age", "VolumeMode*"],
      PersistentVolumeClaim: ["Name", "Status", "Volume", "Capacity", "Access Modes", "StorageClass", "VolumeAttributesClass", "Age", "VolumeMode*"],
      Service: ["Name", "Type", "Cluster-IP", "External-IP", "Port(s)", "Age", "Selector*"],
      ServiceAccount: ["Name", "Secrets", "Age"],
      Namespace: ["Name", "Status", "Age"],
      Role: ["Name", "Created At"],
      ClusterRole: ["Name", "Created At"],
      RoleBinding: ["Name", "Role", "Age", "Users*", "Groups*", "ServiceAccounts*"],
      ClusterRoleBinding: ["Name", "Role", "Age", "Users*", "Groups*", "ServiceAccounts*"],
      Lease: ["Name", "Holder", "Age"],
      CustomResourceDefinition: ["Name", "Created At"],
    });
    for (const kind of kinds) {
      const formatted = kind.columns.filter((c) => c.format === "name").map((c) => c.name);
      expect(formatted, kind.kind).toEqual(["Name"]);
    }
  });
});

describe("age", () => {
  const second = 1000;
  const minute = 60 * second;
  const hour = 60 * minute;
  const day = 24 * hour;
  const year = 365 * day;
  it.each([
    [-3 * second, "<invalid>"],
    [-1500, "0s"],
    [0, "0s"],
    [5 * second, "5s"],
    [119 * second, "119s"],
    [2 * minute, "2m"],
    [3 * minute + 10 * second, "3m10s"],
    [10 * minute + 30 * second, "10m"],
    [179 * minute, "179m"],
    [3 * hour, "3h"],
    [5 * hour + 3 * minute, "5h3m"],
    [8 * hour + 30 * minute, "8h"],
    [47 * hour, "47h"],
    [2 * day, "2d"],
    [2 * day + 5 * hour, "2d5h"],
    [7 * day + 23 * hour, "7d23h"],
    [8 * day, "8d"],
    [729 * day, "729d"],
    [2 * year, "2y"],
    [2 * year + 326 * day, "2y326d"],
    [8 * year + 100 * day, "8y"],
  ])("%d ms is %s", (ms, text) => {
    expect(humanDuration(ms)).toBe(text);
  });

  it("prints <unknown> without a creationTimestamp", () => {
    const obj = copy(serviceAccount.template);
    expect(cellsByName(serviceAccount, obj).Age).toBe("<unknown>");
    obj.metadata.creationTimestamp = ago(300);
    expect(cellsByName(serviceAccount, obj).Age).toBe("5m");
  });
});

describe("pod", () => {
  const scheduled = (status: Pod["status"] = { phase: "Running" }): Pod => {
    const p = copy(pod.template) as Pod;
    p.spec!.nodeName = "node-1";
    p.status = status;
    return p;
  };

  it("uses the requested grace period, else the pod's own, else 30", () => {
    const p = scheduled();
    expect(pod.gracePeriodSeconds!(p, undefined)).toBe(30);
    expect(pod.gracePeriodSeconds!(p, 5)).toBe(5);
    expect(pod.gracePeriodSeconds!(p, 0)).toBe(0);
    expect(pod.gracePeriodSeconds!(p, -10)).toBe(1);
    p.spec!.terminationGracePeriodSeconds = 60;
    expect(pod.gracePeriodSeconds!(p, undefined)).toBe(60);
  });

  it("deletes unscheduled and finished pods at once", () => {
    const unscheduled = copy(pod.template) as Pod;
    expect(pod.gracePeriodSeconds!(unscheduled, 30)).toBe(0);
    expect(pod.gracePeriodSeconds!(unscheduled, -1)).toBe(0);
    expect(pod.gracePeriodSeconds!(scheduled({ phase: "Succeeded" }), 30)).toBe(0);
    expect(pod.gracePeriodSeconds!(scheduled({ phase: "Failed" }), undefined)).toBe(0);
  });

  it("starts Pending with its QoS class, whatever status was sent", () => {
    const p = copy(pod.template) as Pod;
    p.status = { phase: "Running", podIP: "10.0.0.1" };
    pod.prepareForCreate!(p);
    expect(p.status).toEqual({ phase: "Pending", qosClass: "Burstable" });
  });

  it("computes the QoS class", () => {
    const withResources = (...resources: { requests?: Record<string, string>; limits?: Record<string, string> }[]): Pod => ({
      metadata: { name: "p" },
      spec: { containers: resources.map((r, i) => ({ name: `c${i}`, image: "busybox", resources: r })) },
    });
    expect(computeQosClass(withResources({}))).toBe("BestEffort");
    expect(computeQosClass(withResources({ requests: { cpu: "0" } }))).toBe("BestEffort");
    expect(computeQosClass(withResources({ requests: { cpu: "100m" } }))).toBe("Burstable");
    expect(computeQosClass(withResources({ limits: { cpu: "1", memory: "1Gi" } }))).toBe("Guaranteed");
    expect(computeQosClass(withResources({ requests: { cpu: "1000m", memory: "1024Mi" }, limits: { cpu: "1", memory: "1Gi" } }))).toBe("Guaranteed");
    expect(computeQosClass(withResources({ requests: { cpu: "500m", memory: "1Gi" }, limits: { cpu: "1", memory: "1Gi" } }))).toBe("Burstable");
    expect(computeQosClass(withResources({ limits: { cpu: "1", memory: "1Gi" } }, {}))).toBe("Burstable");
    expect(computeQosClass(withResources({ limits: { cpu: "1", memory: "1Gi", "nvidia.com/gpu": "1" } }))).toBe("Guaranteed");
  });

  it("prints Ready, Status and Restarts as kubectl does", () => {
    const p = scheduled({
      phase: "Running",
      podIP: "10.244.0.7",
      conditions: [{ type: "Ready", status: "True" }],
      containerStatuses: [{ name: "nginx", ready: true, restartCount: 0, state: { running: { startedAt: ago(60) } } }],
    });
    p.metadata.creationTimestamp = ago(90);
    expect(cells(pod, p)).toEqual(["web", "1/1", "Running", "0", "90s", "10.244.0.7", "node-1", "<none>", "<none>"]);

    const crashing = scheduled({
      phase: "Running",
      containerStatuses: [
        {
          name: "nginx",
          ready: false,
          restartCount: 3,
          state: { waiting: { reason: "CrashLoopBackOff" } },
          lastState: { terminated: { exitCode: 1, reason: "Error", finishedAt: ago(300) } },
        },
      ],
    });
    expect(cellsByName(pod, crashing)).toMatchObject({ Ready: "0/1", Status: "CrashLoopBackOff", Restarts: "3 (5m ago)" });

    const initializing = scheduled({ phase: "Pending", initContainerStatuses: [{ name: "setup", state: { running: {} } }] });
    initializing.spec!.initContainers = [{ name: "setup", image: "busybox" }];
    expect(cellsByName(pod, initializing).Status).toBe("Init:0/1");

    const completed = scheduled({
      phase: "Succeeded",
      containerStatuses: [{ name: "nginx", state: { terminated: { exitCode: 0, reason: "Completed" } } }],
    });
    completed.metadata.deletionTimestamp = ago(0);
    expect(cellsByName(pod, completed).Status).toBe("Completed");
    expect(pod.tableRowConditions!(completed)).toEqual([{ type: "Completed", status: "True", reason: "Succeeded", message: "The pod has completed successfully." }]);

    const terminating = scheduled();
    terminating.metadata.deletionTimestamp = ago(0);
    expect(cellsByName(pod, terminating).Status).toBe("Terminating");
  });
});

describe("secret", () => {
  const base64OfZeroBytes = (n: number) => "AAAA".repeat(Math.floor(n / 3)) + ["", "AA==", "AAA="][n % 3];
  const withData = (data: Record<string, string>): Secret => ({ metadata: { name: "s" }, data });

  it("accepts exactly MaxSecretSize decoded bytes and refuses one more on `data`", () => {
    expect(maxSecretSize).toBe(1048576);
    expect(secret.validate!(withData({ a: base64OfZeroBytes(maxSecretSize) }))).toEqual([]);
    expect(secret.validate!(withData({ a: base64OfZeroBytes(maxSecretSize - 10), b: base64OfZeroBytes(10) }))).toEqual([]);
    const errors = secret.validate!(withData({ a: base64OfZeroBytes(maxSecretSize - 10), b: base64OfZeroBytes(11) }));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ type: "FieldValueTooLong", field: "data" });
  });

  it("merges stringData into data and defaults the type", () => {
    const s: Secret = { metadata: { name: "s" }, data: { a: "b2xk", keep: "eA==" }, stringData: { a: "new", "config.yaml": "ü: 1" } };
    secret.applyDefaults!(s);
    expect(s).toEqual({ metadata: { name: "s" }, type: "Opaque", data: { a: "bmV3", keep: "eA==", "config.yaml": "w7w6IDE=" } });
  });

  it("counts stringData towards the size limit", () => {
    const s: Secret = { metadata: { name: "s" }, data: { a: base64OfZeroBytes(maxSecretSize) }, stringData: { b: "x" } };
    secret.applyDefaults!(s);
    expect(secret.validate!(s).map((e) => e.field)).toEqual(["data"]);
  });

  it("refuses values that are not base64 as the decoder does", () => {
    expect(secret.decodeError!(withData({ a: "aGk=" }))).toBeUndefined();
    expect(secret.decodeError!(withData({ a: "aGk" }))).toBe("illegal base64 data at input byte 0");
    expect(secret.decodeError!(withData({ a: "aG!k" }))).toBe("illegal base64 data at input byte 2");
    expect(secret.decodeError!(withData({ a: "aGk=x" }))).toBe("illegal base64 data at input byte 4");
    expect(secret.decodeError!(withData({ a: "aGk=\n" }))).toBeUndefined();
    expect(secret.decodeError!({ metadata: { name: "s" }, data: { a: 5 as unknown as string } })).toBe(
      "json: cannot unmarshal number into Go struct field Secret.data of type []uint8",
    );
    expect(secret.validate!(withData({ a: "a" })).map((e) => e.field)).toEqual(["data[a]"]);
  });

  it("prints type and the number of keys", () => {
    expect(cells(secret, { metadata: { name: "s" }, type: "Opaque", data: { a: "", b: "" } })).toEqual(["s", "Opaque", 2, "<unknown>"]);
  });
});

describe("columns", () => {
  it("Service", () => {
    const svc = copy(service.template) as Service;
    svc.spec!.clusterIP = "10.96.0.12";
    expect(cells(service, svc)).toEqual(["web", "ClusterIP", "10.96.0.12", "<none>", "80/TCP", "<unknown>", "app=web"]);
    svc.spec!.type = "LoadBalancer";
    svc.spec!.ports = [{ port: 80, nodePort: 30080, protocol: "TCP" }, { port: 443, nodePort: 30443, protocol: "TCP" }];
    service.prepareForCreate!(svc);
    expect(cellsByName(service, svc)).toMatchObject({ "External-IP": "<pending>", "Port(s)": "80:30080/TCP,443:30443/TCP" });
    svc.status = { loadBalancer: { ingress: [{ ip: "203.0.113.9" }, { hostname: "lb.example.com" }, { ip: "203.0.113.9" }] } };
    expect(cellsByName(service, svc)["External-IP"]).toBe("203.0.113.9,lb.example.com");
    const headless: Service = { metadata: { name: "db" }, spec: { clusterIP: "None", type: "ClusterIP" } };
    expect(cellsByName(service, headless)).toMatchObject({ "Cluster-IP": "None", "Port(s)": "<none>", Selector: "<none>" });
    expect(cellsByName(service, { metadata: { name: "x" }, spec: { type: "ExternalName", externalName: "db.example.com" } })["External-IP"]).toBe("db.example.com");
  });

  it("Endpoints", () => {
    const ep: Endpoints = {
      metadata: { name: "web" },
      subsets: [
        { addresses: [{ ip: "10.0.0.1" }, { ip: "10.0.0.2" }], ports: [{ port: 80 }, { port: 443 }] },
        { addresses: [{ ip: "fd00::1" }], notReadyAddresses: [{ ip: "10.0.0.9" }] },
      ],
    };
    expect(cellsByName(endpoints, ep).Endpoints).toBe("10.0.0.1:80,10.0.0.2:80,10.0.0.1:443 + 2 more...");
    expect(cellsByName(endpoints, { metadata: { name: "e" } }).Endpoints).toBe("<none>");
    expect(cellsByName(endpoints, { metadata: { name: "e" }, subsets: [{ addresses: [{ ip: "fd00::1" }], ports: [{ port: 53 }] }] }).Endpoints).toBe("[fd00::1]:53");
  });

  it("Event", () => {
    const e = copy(event.template) as Event;
    e.firstTimestamp = ago(600);
    e.lastTimestamp = ago(60);
    e.count = 4;
    e.source = { component: "kubelet", host: "node-1" };
    e.involvedObject.fieldPath = "spec.containers{nginx}";
    expect(cells(event, e)).toEqual([
      "60s", "Normal", "Scheduled", "pod/web", "spec.containers{nginx}", "kubelet, node-1", "Successfully assigned web to node-1", "10m", 4, "web.17a3c2f1b6d84e20",
    ]);
    const modern: Event = { metadata: { name: "m" }, involvedObject: { kind: "Node" }, eventTime: ago(30), reportingComponent: "kubelet" };
    expect(cellsByName(event, modern)).toMatchObject({ "Last Seen": "30s", "First Seen": "30s", Object: "node", Source: "kubelet", Count: 1 });
  });

  it("ResourceQuota", () => {
    const q = copy(resourceQuota.template) as ResourceQuota;
    resourceQuota.prepareForCreate!(q);
    expect(q.status).toEqual({});
    expect(cellsByName(resourceQuota, q)).toMatchObject({ Request: "", Limit: "" });
    q.status = { hard: { ...q.spec!.hard }, used: { pods: "2", "requests.cpu": "500m" } };
    expect(cellsByName(resourceQuota, q)).toMatchObject({
      Request: "pods: 2/10, requests.cpu: 500m/4, requests.memory: 0/8Gi",
      Limit: "limits.cpu: 0/8, limits.memory: 0/16Gi",
    });
  });

  it("PersistentVolumeClaim shows capacity only once bound", () => {
    const pvc = copy(persistentVolumeClaim.template) as PersistentVolumeClaim;
    persistentVolumeClaim.prepareForCreate!(pvc);
    expect(cells(persistentVolumeClaim, pvc)).toEqual(["data", "Pending", "", "", "", "", "<unset>", "<unknown>", "<unset>"]);
    pvc.spec!.volumeName = "pv-0001";
    pvc.status = { phase: "Bound", capacity: { storage: "5Gi" }, accessModes: ["ReadWriteOnce", "ReadWriteMany", "ReadWriteOnce"] };
    expect(cellsByName(persistentVolumeClaim, pvc)).toMatchObject({ Status: "Bound", Capacity: "5Gi", "Access Modes": "RWO,RWX" });
  });

  it("SecurityContextConstraints renders JSONPath values", () => {
    expect(cells(securityContextConstraints, copy(securityContextConstraints.template))).toEqual([
      "restricted-custom", "false", "<no value>", "MustRunAs", "MustRunAsRange", "MustRunAs", "RunAsAny", "<no value>", "false",
      '["configMap","downwardAPI","emptyDir","persistentVolumeClaim","projected","secret"]',
    ]);
  });
});

describe("service account", () => {
  it("keeps only the name of each referenced secret", () => {
    const sa: ServiceAccount = { metadata: { name: "sa" }, secrets: [{ name: "token", namespace: "x", uid: "1", kind: "Secret" }, { uid: "2" }] };
    serviceAccount.canonicalize!(sa);
    expect(sa.secrets).toEqual([{ name: "token" }, {}]);
  });
});

describe("rbac", () => {
  it("prints roles as the default table convertor does: name and creation time", () => {
    const r = copy(role.template);
    expect(cells(role, r)).toEqual(["pod-reader", "0001-01-01T00:00:00Z"]);
    r.metadata.creationTimestamp = "2025-01-01T11:58:20.123Z";
    expect(cells(role, r)).toEqual(["pod-reader", "2025-01-01T11:58:20Z"]);
  });

  it("prints bindings with Kind/name of the role and, wide, their subjects by kind", () => {
    const b: RoleBinding = {
      metadata: { name: "b", creationTimestamp: ago(90) },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "view" },
      subjects: [
        { kind: "User", name: "jane" },
        { kind: "ServiceAccount", name: "builder", namespace: "ci" },
        { kind: "Group", name: "devs" },
        { kind: "User", name: "joe" },
        { kind: "ServiceAccount", name: "default" },
      ],
    };
    expect(cells(roleBinding, b)).toEqual(["b", "ClusterRole/view", "90s", "jane, joe", "devs", "ci/builder, /default"]);
    expect(cells(clusterRoleBinding, { metadata: { name: "c" }, roleRef: { apiGroup: "", kind: "ClusterRole", name: "admin" } }))
      .toEqual(["c", "ClusterRole/admin", "<unknown>", "", "", ""]);
  });
});
