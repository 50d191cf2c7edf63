// Protobuf responses: golden bytes for a small object of every served kind, worked out by hand from the field
// numbers of Kubernetes' generated.proto (core/v1, meta/v1, rbac/v1, coordination/v1, OpenShift security/v1)
// and gogo-protobuf's rules (Go values always written, pointers when set, fields in number order), written
// with an independent writer; lists, Status, the metadata-only views and watch frames; and JSON -> protobuf
// -> JSON identity for a rich object of every kind, singly and in lists.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { errors } from "../../status";
import { decodeMessage, type JsonObject } from "./decode";
import { SAMPLES } from "./fixtures/samples";
import {
  encodeListBody, encodeObjectBody, encodeUnknown, encodeWatchFrame, messageBytes, partialObjectMetadataBytes,
} from "./response";
import { LISTED_KINDS, RESPONSE_KINDS } from "./schema";
import { Reader } from "./wire";
import { openEnvelope } from "./fixtures/envelope";

// ---- an independent wire writer ------------------------------------------------------------------------

type Bytes = number[];
function varint(n: number | bigint): Bytes {
  let x = BigInt.asUintN(64, BigInt(n));
  const out: Bytes = [];
  while (x >= 0x80n) { out.push(Number(x & 0x7fn) | 0x80); x >>= 7n; }
  out.push(Number(x));
  return out;
}
const key = (no: number, wire: number) => varint((no << 3) | wire);
/** A varint field. */
const V = (no: number, n: number) => [...key(no, 0), ...varint(n)];
/** A length-delimited field: a string (UTF-8) or bytes. */
const L = (no: number, payload: Bytes | string) => {
  const bytes = typeof payload === "string" ? [...Buffer.from(payload, "utf8")] : payload;
  return [...key(no, 2), ...varint(bytes.length), ...bytes];
};
/** A message field from its fields. */
const M = (no: number, ...fields: Bytes[]) => L(no, fields.flat());
/** A map entry. */
const E = (no: number, k: string, v: Bytes | string) => M(no, L(1, k), L(2, v));
/** A Quantity value. */
const Q = (s: string) => L(1, s);
const CREATED = "2025-01-02T03:04:05Z";
const SECS = Date.parse(CREATED) / 1000;
const TIME = (no: number) => M(no, V(1, SECS), V(2, 0));
const envelope = (apiVersion: string, kind: string, raw: Bytes) =>
  Buffer.from([0x6b, 0x38, 0x73, 0x00, ...M(1, L(1, apiVersion), L(2, kind)), ...L(2, raw), ...L(3, ""), ...L(4, "")]);

/** ObjectMeta: name=1, generateName=2, namespace=3, selfLink=4, uid=5, resourceVersion=6, generation=7 and creationTimestamp=8 are Go values. */
const metaJson = (name: string, namespace?: string) => ({
  name, ...(namespace ? { namespace } : {}), uid: "u-1", resourceVersion: "5", creationTimestamp: CREATED, labels: { app: "web" },
});
const metaBytes = (name: string, namespace = "") =>
  [...L(1, name), ...L(2, ""), ...L(3, namespace), ...L(4, ""), ...L(5, "u-1"), ...L(6, "5"), ...V(7, 0), ...TIME(8), ...E(11, "app", "web")];

const RBAC = "rbac.authorization.k8s.io";

interface Golden { apiVersion: string; object: Record<string, unknown>; raw: Bytes }

const GOLDEN: Record<string, Golden> = {
  ConfigMap: {
    apiVersion: "v1",
    object: { metadata: metaJson("cm", "ns"), data: { b: "2", a: "1" } },
    raw: [...M(1, metaBytes("cm", "ns")), ...E(2, "a", "1"), ...E(2, "b", "2")],
  },
  Endpoints: {
    apiVersion: "v1",
    object: { metadata: metaJson("web", "ns"), subsets: [{ addresses: [{ ip: "10.0.0.1" }], ports: [{ port: 80, protocol: "TCP" }] }] },
    // EndpointAddress ip=1, hostname=3 (value); EndpointPort name=1, port=2, protocol=3.
    raw: [...M(1, metaBytes("web", "ns")), ...M(2, M(1, L(1, "10.0.0.1"), L(3, "")), M(3, L(1, ""), V(2, 80), L(3, "TCP")))],
  },
  Event: {
    apiVersion: "v1",
    object: {
      metadata: metaJson("web.1", "ns"), involvedObject: { kind: "Pod", name: "web" }, reason: "Started", message: "m",
      source: { component: "kubelet" }, firstTimestamp: CREATED, lastTimestamp: CREATED, count: 1, type: "Normal", eventTime: null,
      reportingComponent: "", reportingInstance: "",
    },
    // ObjectReference's seven strings are values; eventTime=10 (MicroTime value, zero: empty); action=12, reporting*=14/15.
    raw: [
      ...M(1, metaBytes("web.1", "ns")), ...M(2, L(1, "Pod"), L(2, ""), L(3, "web"), L(4, ""), L(5, ""), L(6, ""), L(7, "")),
      ...L(3, "Started"), ...L(4, "m"), ...M(5, L(1, "kubelet"), L(2, "")), ...TIME(6), ...TIME(7), ...V(8, 1), ...L(9, "Normal"),
      ...M(10), ...L(12, ""), ...L(14, ""), ...L(15, ""),
    ],
  },
  LimitRange: {
    apiVersion: "v1",
    object: { metadata: metaJson("limits", "ns"), spec: { limits: [{ type: "Container", max: { cpu: "1" } }] } },
    raw: [...M(1, metaBytes("limits", "ns")), ...M(2, M(1, L(1, "Container"), E(2, "cpu", Q("1"))))],
  },
  Namespace: {
    apiVersion: "v1",
    object: { metadata: metaJson("team"), spec: { finalizers: ["kubernetes"] }, status: { phase: "Active" } },
    raw: [...M(1, metaBytes("team")), ...M(2, L(1, "kubernetes")), ...M(3, L(1, "Active"))],
  },
  PersistentVolume: {
    apiVersion: "v1",
    object: {
      metadata: metaJson("pv"), spec: { capacity: { storage: "1Gi" }, hostPath: { path: "/data" }, accessModes: ["ReadWriteOnce"],
        persistentVolumeReclaimPolicy: "Retain", storageClassName: "slow" }, status: { phase: "Available" },
    },
    // The volume source is inline field 2 (a value), hostPath=3 inside it; reclaim policy=5, class=6; status phase/message/reason.
    raw: [
      ...M(1, metaBytes("pv")),
      ...M(2, E(1, "storage", Q("1Gi")), M(2, M(3, L(1, "/data"))), L(3, "ReadWriteOnce"), L(5, "Retain"), L(6, "slow")),
      ...M(3, L(1, "Available"), L(2, ""), L(3, "")),
    ],
  },
  PersistentVolumeClaim: {
    apiVersion: "v1",
    object: {
      metadata: metaJson("data", "ns"),
      spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } }, storageClassName: "slow", volumeMode: "Filesystem" },
      status: { phase: "Pending" },
    },
    raw: [
      ...M(1, metaBytes("data", "ns")),
      ...M(2, L(1, "ReadWriteOnce"), M(2, E(2, "storage", Q("1Gi"))), L(3, ""), L(5, "slow"), L(6, "Filesystem")),
      ...M(3, L(1, "Pending")),
    ],
  },
  Pod: {
    apiVersion: "v1",
    object: {
      metadata: metaJson("web", "ns"),
      spec: { containers: [{ name: "c", image: "nginx" }], restartPolicy: "Always", terminationGracePeriodSeconds: 30, dnsPolicy: "ClusterFirst",
        schedulerName: "default-scheduler" },
      status: { phase: "Pending", qosClass: "BestEffort" },
    },
    raw: [
      ...M(1, metaBytes("web", "ns")),
      ...M(2,
        // Container: name, image, workingDir=5, resources=8 (a value), terminationMessagePath=13, imagePullPolicy=14,
        // stdin/stdinOnce/tty=16-18, terminationMessagePolicy=20.
        M(2, L(1, "c"), L(2, "nginx"), L(5, ""), M(8), L(13, ""), L(14, ""), V(16, 0), V(17, 0), V(18, 0), L(20, "")),
        L(3, "Always"), V(4, 30), L(6, "ClusterFirst"), L(8, ""), L(9, ""), L(10, ""), V(11, 0), V(12, 0), V(13, 0),
        L(16, ""), L(17, ""), L(19, "default-scheduler"), L(24, "")),
      // PodStatus: phase=1, message=3, reason=4, hostIP=5, podIP=6, qosClass=9, nominatedNodeName=11, resize=14.
      ...M(3, L(1, "Pending"), L(3, ""), L(4, ""), L(5, ""), L(6, ""), L(9, "BestEffort"), L(11, ""), L(14, "")),
    ],
  },
  ResourceQuota: {
    apiVersion: "v1",
    object: { metadata: metaJson("q", "ns"), spec: { hard: { pods: "10" } }, status: {} },
    raw: [...M(1, metaBytes("q", "ns")), ...M(2, E(1, "pods", Q("10"))), ...M(3)],
  },
  Secret: {
    apiVersion: "v1",
    object: { metadata: metaJson("s", "ns"), data: { k: Buffer.from([0, 255, 104, 105]).toString("base64") }, type: "Opaque" },
    raw: [...M(1, metaBytes("s", "ns")), ...E(2, "k", [0, 255, 104, 105]), ...L(3, "Opaque")],
  },
  Service: {
    apiVersion: "v1",
    object: {
      metadata: metaJson("web", "ns"),
      spec: { ports: [{ protocol: "TCP", port: 80, targetPort: 8080 }], selector: { app: "web" }, clusterIP: "10.96.0.10", clusterIPs: ["10.96.0.10"],
        type: "ClusterIP", sessionAffinity: "None", ipFamilies: ["IPv4"], ipFamilyPolicy: "SingleStack", internalTrafficPolicy: "Cluster" },
      status: { loadBalancer: {} },
    },
    raw: [
      ...M(1, metaBytes("web", "ns")),
      ...M(2,
        // ServicePort name=1, protocol=2, port=3, targetPort=4 IntOrString{type=1, intVal=2, strVal=3}, nodePort=5.
        M(1, L(1, ""), L(2, "TCP"), V(3, 80), M(4, V(1, 0), V(2, 8080), L(3, "")), V(5, 0)),
        E(2, "app", "web"), L(3, "10.96.0.10"), L(4, "ClusterIP"), L(7, "None"), L(8, ""), L(10, ""), L(11, ""), V(12, 0), V(13, 0),
        L(17, "SingleStack"), L(18, "10.96.0.10"), L(19, "IPv4"), L(22, "Cluster")),
      ...M(3, M(1)),
    ],
  },
  ServiceAccount: {
    apiVersion: "v1",
    object: { metadata: metaJson("builder", "ns"), secrets: [{ name: "tok" }], automountServiceAccountToken: false },
    raw: [...M(1, metaBytes("builder", "ns")), ...M(2, L(1, ""), L(2, ""), L(3, "tok"), L(4, ""), L(5, ""), L(6, ""), L(7, "")), ...V(4, 0)],
  },
  SecurityContextConstraints: {
    apiVersion: "security.openshift.io/v1",
    object: {
      metadata: metaJson("restricted"), allowPrivilegedContainer: false, allowHostDirVolumePlugin: false, volumes: ["configMap"],
      allowHostNetwork: false, allowHostPorts: false, allowHostPID: false, allowHostIPC: false, seLinuxContext: { type: "MustRunAs" },
      runAsUser: { type: "MustRunAsRange" }, supplementalGroups: { type: "RunAsAny" }, fsGroup: { type: "RunAsAny" },
      readOnlyRootFilesystem: false, groups: ["system:authenticated"],
    },
    // priority=2 is a pointer; fsGroup=16 has a two-byte key; userNamespaceLevel=26 is a Go value.
    raw: [
      ...M(1, metaBytes("restricted")), ...V(3, 0), ...V(7, 0), ...L(8, "configMap"), ...V(9, 0), ...V(10, 0), ...V(11, 0), ...V(12, 0),
      ...M(13, L(1, "MustRunAs")), ...M(14, L(1, "MustRunAsRange")), ...M(15, L(1, "RunAsAny")), ...M(16, L(1, "RunAsAny")), ...V(17, 0),
      ...L(19, "system:authenticated"), ...L(26, ""),
    ],
  },
  Role: {
    apiVersion: `${RBAC}/v1`,
    object: { metadata: metaJson("reader", "ns"), rules: [{ verbs: ["get", "list"], apiGroups: [""], resources: ["pods"] }] },
    raw: [...M(1, metaBytes("reader", "ns")), ...M(2, L(1, "get"), L(1, "list"), L(2, ""), L(3, "pods"))],
  },
  ClusterRole: {
    apiVersion: `${RBAC}/v1`,
    object: { metadata: metaJson("viewer"), rules: [{ verbs: ["get"], nonResourceURLs: ["/healthz"] }] },
    raw: [...M(1, metaBytes("viewer")), ...M(2, L(1, "get"), L(5, "/healthz"))],
  },
  RoleBinding: {
    apiVersion: `${RBAC}/v1`,
    object: {
      metadata: metaJson("rb", "ns"), subjects: [{ kind: "User", apiGroup: RBAC, name: "alice" }, { kind: "ServiceAccount", name: "ci", namespace: "ns" }],
      roleRef: { apiGroup: RBAC, kind: "Role", name: "reader" },
    },
    // Subject kind=1, apiGroup=2, name=3, namespace=4; RoleRef apiGroup=1, kind=2, name=3.
    raw: [
      ...M(1, metaBytes("rb", "ns")), ...M(2, L(1, "User"), L(2, RBAC), L(3, "alice"), L(4, "")),
      ...M(2, L(1, "ServiceAccount"), L(2, ""), L(3, "ci"), L(4, "ns")), ...M(3, L(1, RBAC), L(2, "Role"), L(3, "reader")),
    ],
  },
  ClusterRoleBinding: {
    apiVersion: `${RBAC}/v1`,
    object: { metadata: metaJson("crb"), subjects: [{ kind: "Group", apiGroup: RBAC, name: "devs" }], roleRef: { apiGroup: RBAC, kind: "ClusterRole", name: "viewer" } },
    raw: [...M(1, metaBytes("crb")), ...M(2, L(1, "Group"), L(2, RBAC), L(3, "devs"), L(4, "")), ...M(3, L(1, RBAC), L(2, "ClusterRole"), L(3, "viewer"))],
  },
  Lease: {
    apiVersion: "coordination.k8s.io/v1",
    object: { metadata: metaJson("leader", "ns"), spec: { holderIdentity: "h", leaseDurationSeconds: 15, renewTime: "2025-01-02T03:04:05.123456Z" } },
    // LeaseSpec holderIdentity=1, leaseDurationSeconds=2, renewTime=4 (MicroTime keeps nanos): all pointers.
    raw: [...M(1, metaBytes("leader", "ns")), ...M(2, L(1, "h"), V(2, 15), M(4, V(1, SECS), V(2, 123456000)))],
  },
};

describe("golden bytes for a small object of every served kind", () => {
  it("covers every listed kind", () => {
    expect(Object.keys(GOLDEN).sort()).toEqual([...LISTED_KINDS].sort());
  });

  it.each(Object.entries(GOLDEN))("%s", (kind, g) => {
    const expected = envelope(g.apiVersion, kind, g.raw);
    expect(encodeObjectBody(g.object, { apiVersion: g.apiVersion, kind })).toStrictEqual(expected);
    // The kept encoding of a stored object is the same bytes, and stays the same.
    expect(encodeObjectBody(g.object, { apiVersion: g.apiVersion, kind }, true)).toStrictEqual(expected);
    expect(messageBytes(kind, g.object, true)).toBe(messageBytes(kind, g.object, true));
  });

  it("SecurityContextConstraints under core v1 differ only in the type meta", () => {
    const g = GOLDEN.SecurityContextConstraints;
    expect(encodeObjectBody(g.object, { apiVersion: "v1", kind: "SecurityContextConstraints" })).toStrictEqual(envelope("v1", "SecurityContextConstraints", g.raw));
  });

  it("strings longer than one length byte, multi-byte UTF-8, negative and 64-bit integers", () => {
    const long = "x".repeat(200);
    const text = "grüße-✓-😀";
    const object = { metadata: { name: long, annotations: { [text]: text }, generation: 2 ** 40, deletionGracePeriodSeconds: -1 } };
    const raw = M(1, L(1, long), L(2, ""), L(3, ""), L(4, ""), L(5, ""), L(6, ""), V(7, 2 ** 40), M(8), [...key(10, 0), ...varint(-1n)], E(12, text, text));
    expect(encodeObjectBody(object, { apiVersion: "v1", kind: "ConfigMap" })).toStrictEqual(envelope("v1", "ConfigMap", raw));
  });

  it("map keys in Go's bytewise order (code points, not UTF-16 units)", () => {
    const data = { "\u{1F600}": "a", "\uFF01": "b", b: "c", a: "d" };
    const raw = [...M(1, L(1, ""), L(2, ""), L(3, ""), L(4, ""), L(5, ""), L(6, ""), V(7, 0), M(8)),
      ...E(2, "a", "d"), ...E(2, "b", "c"), ...E(2, "\uFF01", "b"), ...E(2, "\u{1F600}", "a")];
    expect(encodeObjectBody({ metadata: {}, data }, { apiVersion: "v1", kind: "ConfigMap" })).toStrictEqual(envelope("v1", "ConfigMap", raw));
  });

  it("bytes fields are the raw bytes, not their text: ConfigMap binaryData 00 01 fe, Secret data that is not UTF-8", () => {
    const meta = M(1, L(1, ""), L(2, ""), L(3, ""), L(4, ""), L(5, ""), L(6, ""), V(7, 0), M(8));
    const nonUtf8 = [0xff, 0xc3, 0x28, 0x80];
    const cm = { metadata: {}, binaryData: { blob: "AAH+" } };
    const cmBody = encodeObjectBody(cm, { apiVersion: "v1", kind: "ConfigMap" });
    expect(cmBody).toStrictEqual(envelope("v1", "ConfigMap", [...meta, ...E(3, "blob", [0x00, 0x01, 0xfe])]));
    expect(decodeMessage("ConfigMap", openEnvelope(cmBody).raw).binaryData).toStrictEqual({ blob: "AAH+" });
    // Secret data=2 (map<string, bytes>): keys sorted, each value its bytes; stringData=4 stays text.
    const secret = { metadata: {}, data: { z: Buffer.from(nonUtf8).toString("base64"), a: "AAH+" }, type: "Opaque" };
    const secretBody = encodeObjectBody(secret, { apiVersion: "v1", kind: "Secret" });
    expect(secretBody).toStrictEqual(envelope("v1", "Secret", [...meta, ...E(2, "a", [0x00, 0x01, 0xfe]), ...E(2, "z", nonUtf8), ...L(3, "Opaque")]));
    expect(decodeMessage("Secret", openEnvelope(secretBody).raw)).toMatchObject({ data: secret.data, type: "Opaque" });
    // The same bytes in a list item and inside a watch frame's embedded body.
    const list = openEnvelope(encodeListBody({ apiVersion: "v1", kind: "SecretList" }, { resourceVersion: "1" }, [messageBytes("Secret", secret, true)]));
    expect((decodeMessage("SecretList", list.raw).items as JsonObject[])[0].data).toStrictEqual(secret.data);
    const frame = encodeWatchFrame("ADDED", cmBody);
    const event = decodeMessage("WatchEvent", frame.subarray(4)) as { object: { raw: string } };
    expect(Buffer.from(event.object.raw, "base64")).toStrictEqual(cmBody);
  });

  it("refuses what is not a response kind", () => {
    expect(() => encodeObjectBody({}, { apiVersion: "v1", kind: "DeleteOptions" })).toThrow(/not a response kind/);
    expect(() => encodeObjectBody({}, { apiVersion: "v1", kind: "Node" })).toThrow();
  });
});

describe("lists, Status, metadata views, watch frames", () => {
  const listMetaBytes = (rv: string, cont = "", remaining?: number) => [...L(1, ""), ...L(2, rv), ...L(3, cont), ...(remaining === undefined ? [] : V(4, remaining))];

  it("<Kind>List{metadata=1 ListMeta{selfLink=1, resourceVersion=2, continue=3, remainingItemCount=4}, items=2}", () => {
    const a = GOLDEN.ConfigMap;
    const b = { metadata: metaJson("other", "ns"), data: { x: "y" } };
    const items = [messageBytes("ConfigMap", a.object, true), messageBytes("ConfigMap", b)];
    const body = encodeListBody({ apiVersion: "v1", kind: "ConfigMapList" }, { resourceVersion: "7", continue: "tok", remainingItemCount: 3 }, items);
    const bRaw = [...M(1, metaBytes("other", "ns")), ...E(2, "x", "y")];
    expect(body).toStrictEqual(envelope("v1", "ConfigMapList", [...M(1, listMetaBytes("7", "tok", 3)), ...M(2, a.raw), ...M(2, bRaw)]));
    expect(encodeListBody({ apiVersion: `${RBAC}/v1`, kind: "RoleList" }, { resourceVersion: "9" }, []))
      .toStrictEqual(envelope(`${RBAC}/v1`, "RoleList", M(1, listMetaBytes("9"))));
  });

  it("a list item longer than 127 bytes, and a list body longer than 16 KiB (multi-byte lengths)", () => {
    const big = { metadata: metaJson("big", "ns"), data: { v: "z".repeat(20_000) } };
    const raw = [...M(1, metaBytes("big", "ns")), ...E(2, "v", "z".repeat(20_000))];
    const body = encodeListBody({ apiVersion: "v1", kind: "ConfigMapList" }, { resourceVersion: "1" }, [messageBytes("ConfigMap", big)]);
    expect(body).toStrictEqual(envelope("v1", "ConfigMapList", [...M(1, listMetaBytes("1")), ...M(2, raw)]));
  });

  it("Status{metadata=1, status=2, message=3, reason=4, details=5 {name=1, group=2, kind=3, causes=4, retryAfterSeconds=5, uid=6}, code=6}", () => {
    const notFound = errors.notFound("configmaps", "x").toStatus();
    expect(encodeObjectBody(notFound, { apiVersion: "v1", kind: "Status" })).toStrictEqual(envelope("v1", "Status", [
      ...M(1, L(1, ""), L(2, ""), L(3, "")), ...L(2, "Failure"), ...L(3, 'configmaps "x" not found'), ...L(4, "NotFound"),
      ...M(5, L(1, "x"), L(2, ""), L(3, "configmaps"), V(5, 0), L(6, "")), ...V(6, 404),
    ]));
    const invalid = errors.invalid("ConfigMap", "x", [{ type: "FieldValueRequired", field: "data", detail: "Required value" }]).toStatus();
    const d = invalid.details!;
    expect(encodeObjectBody(invalid, { apiVersion: "v1", kind: "Status" })).toStrictEqual(envelope("v1", "Status", [
      ...M(1, L(1, ""), L(2, ""), L(3, "")), ...L(2, "Failure"), ...L(3, invalid.message!), ...L(4, "Invalid"),
      ...M(5, L(1, "x"), L(2, d.group ?? ""), L(3, "ConfigMap"), M(4, L(1, d.causes![0].reason), L(2, d.causes![0].message), L(3, "data")), V(5, 0), L(6, "")),
      ...V(6, 422),
    ]));
    // No details: field 5 absent (a pointer); a success Status (deletes).
    expect(encodeObjectBody({ kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", code: 200 }, { apiVersion: "v1", kind: "Status" }))
      .toStrictEqual(envelope("v1", "Status", [...M(1, L(1, ""), L(2, ""), L(3, "")), ...L(2, "Success"), ...L(3, ""), ...L(4, ""), ...V(6, 200)]));
  });

  it("PartialObjectMetadata{metadata=1} and PartialObjectMetadataList{metadata=1, items=2}", () => {
    const obj = GOLDEN.Pod.object as { metadata: unknown };
    const pom = M(1, metaBytes("web", "ns"));
    expect(encodeUnknown("meta.k8s.io/v1", "PartialObjectMetadata", partialObjectMetadataBytes(obj, true)))
      .toStrictEqual(envelope("meta.k8s.io/v1", "PartialObjectMetadata", pom));
    expect(encodeObjectBody({ metadata: obj.metadata }, { apiVersion: "meta.k8s.io/v1", kind: "PartialObjectMetadata" }))
      .toStrictEqual(envelope("meta.k8s.io/v1", "PartialObjectMetadata", pom));
    expect(encodeListBody({ apiVersion: "meta.k8s.io/v1", kind: "PartialObjectMetadataList" }, { resourceVersion: "3" }, [partialObjectMetadataBytes(obj)]))
      .toStrictEqual(envelope("meta.k8s.io/v1", "PartialObjectMetadataList", [...M(1, listMetaBytes("3")), ...M(2, pom)]));
  });

  it("a watch frame: 4-byte big-endian length, then WatchEvent{type=1, object=2 RawExtension{raw=1 the embedded body}}", () => {
    const embedded = encodeObjectBody(GOLDEN.ConfigMap.object, { apiVersion: "v1", kind: "ConfigMap" });
    const event = [...L(1, "MODIFIED"), ...M(2, L(1, [...embedded]))];
    const frame = encodeWatchFrame("MODIFIED", embedded);
    expect(frame.readUInt32BE(0)).toBe(event.length);
    expect(frame).toStrictEqual(Buffer.from([...[0, 0, 0, 0].map((_, i) => (event.length >>> (24 - 8 * i)) & 0xff), ...event]));
    const big = encodeObjectBody({ metadata: { name: "b" }, data: { v: "q".repeat(70_000) } }, { apiVersion: "v1", kind: "ConfigMap" });
    const bigFrame = encodeWatchFrame("ADDED", big);
    expect(bigFrame.subarray(4)).toStrictEqual(Buffer.from([...L(1, "ADDED"), ...M(2, L(1, [...big]))]));
    expect(bigFrame.readUInt32BE(0)).toBe(bigFrame.length - 4);
  });
});

// ---- JSON -> protobuf -> JSON ------------------------------------------------------------------------------

/** Split a body into its type meta and the object's message bytes (the way back through the decoder). */
function openBody(body: Buffer): { apiVersion: string; kind: string; raw: Uint8Array } {
  const env = openEnvelope(body);
  expect(env.magic).toEqual([0x6b, 0x38, 0x73, 0x00]);
  return env;
}

const FIXTURES = path.join(import.meta.dirname, "fixtures");
const fixtureJson = (name: string) => JSON.parse(fs.readFileSync(path.join(FIXTURES, name), "utf8")) as Record<string, unknown>;

/** Everything a stored object's metadata can carry. */
const richMeta = (name: string, namespace?: string) => ({
  name, generateName: `${name}-`, ...(namespace ? { namespace } : {}), uid: "7d8c8e0b-5a1f-4a43-9a8f-0c1f1b2c3d4e",
  resourceVersion: "123456", generation: 3, creationTimestamp: "2025-05-01T12:34:56Z", deletionTimestamp: "2025-05-02T00:00:00Z",
  deletionGracePeriodSeconds: 30, labels: { app: "web", "example.com/tier": "front" }, annotations: { note: "ünïcödé ✓", empty: "" },
  ownerReferences: [{ apiVersion: "v1", kind: "ConfigMap", name: "owner", uid: "u-own", controller: true, blockOwnerDeletion: false }],
  finalizers: ["example.com/keep", "kubernetes"],
  managedFields: [
    { manager: "kubectl-client-side-apply", operation: "Update", apiVersion: "v1", time: "2025-05-01T12:34:56Z", fieldsType: "FieldsV1", fieldsV1: { "f:metadata": { "f:labels": { ".": {}, "f:app": {} } } } },
    { manager: "controller", operation: "Apply", apiVersion: "v1", time: "2025-05-01T12:35:00Z", fieldsType: "FieldsV1", fieldsV1: { "f:status": {} }, subresource: "status" },
  ],
});

function rich(sample: Record<string, unknown>): Record<string, unknown> {
  const meta = sample.metadata as { name?: string; namespace?: string } | undefined;
  return { ...sample, metadata: richMeta(meta?.name ?? "x", meta?.namespace) };
}

/** One rich object per served kind: the shared samples, kubectl's own outputs, and GOLDEN for what neither has. */
const RICH: Record<string, Record<string, unknown>> = {
  ...Object.fromEntries(Object.entries(SAMPLES).filter(([, s]) => LISTED_KINDS.includes(s.kind as string)).map(([name, s]) => [name, rich(s)])),
  ConfigMap: rich({ ...fixtureJson("configmap.json"), immutable: false }),
  "Pod (kubectl run --overrides)": rich(fixtureJson("run-overrides.json")),
  "Pod (kubectl run with flags)": rich(fixtureJson("run-flags.json")),
  Role: rich(fixtureJson("role.json")),
  RoleBinding: rich(fixtureJson("rolebinding.json")),
  ClusterRoleBinding: rich(fixtureJson("clusterrolebinding.json")),
  "ClusterRole (aggregated)": rich(fixtureJson("clusterrole.json")),
  "Service (headless)": rich(fixtureJson("service-headless.json")),
  "Secret (tls)": rich(fixtureJson("secret-tls.json")),
};

describe("JSON -> protobuf -> JSON identity for a rich object of every kind", () => {
  it("covers every listed kind", () => {
    expect([...new Set(Object.values(RICH).map((o) => o.kind as string))].sort()).toEqual([...LISTED_KINDS].sort());
    expect([...RESPONSE_KINDS].filter((k) => LISTED_KINDS.includes(k)).sort()).toEqual([...LISTED_KINDS].sort());
  });

  it.each(Object.entries(RICH))("%s", (_name, object) => {
    const typeMeta = { apiVersion: object.apiVersion as string, kind: object.kind as string };
    const opened = openBody(encodeObjectBody(object, typeMeta, true));
    expect({ apiVersion: opened.apiVersion, kind: opened.kind }).toEqual(typeMeta);
    expect({ ...typeMeta, ...decodeMessage(typeMeta.kind, opened.raw) }).toStrictEqual(object);
  });

  it.each(LISTED_KINDS)("%sList of every rich %s", (kind) => {
    const objects = Object.values(RICH).filter((o) => o.kind === kind);
    const apiVersion = objects[0].apiVersion as string;
    const listMeta = { resourceVersion: "42", continue: "eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ", remainingItemCount: 7 };
    const opened = openBody(encodeListBody({ apiVersion, kind: `${kind}List` }, listMeta, objects.map((o) => messageBytes(kind, o, true))));
    expect(opened.kind).toBe(`${kind}List`);
    const list = decodeMessage(`${kind}List`, opened.raw);
    // Items carry no type meta in protobuf (clients fill it in from the list's).
    expect(list).toStrictEqual({ metadata: listMeta, items: objects.map(({ kind: _k, apiVersion: _a, ...rest }) => rest) as JsonObject[] });
  });

  it("metadata-only views keep the whole ObjectMeta", () => {
    for (const object of Object.values(RICH)) {
      const opened = openBody(encodeUnknown("meta.k8s.io/v1", "PartialObjectMetadata", partialObjectMetadataBytes(object as { metadata: unknown }, true)));
      expect(decodeMessage("PartialObjectMetadata", opened.raw)).toStrictEqual({ metadata: object.metadata });
    }
  });
});
