import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { StatusError } from "../../status";
import { decodeProtobufBody, PROTOBUF_KINDS } from "./index";
import { encodeProtobufBody } from "./encode";
import { KINDS, MESSAGES, RESPONSE_KINDS } from "./schema";
import { SAMPLES } from "./fixtures/samples";

const FIXTURES = path.join(import.meta.dirname, "fixtures");
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name));
const fixtureJson = (name: string) => JSON.parse(fixture(name).toString("utf8")) as Record<string, unknown>;

// ---- a tiny independent wire writer for hand-built bodies ----------------------------------------------

function varint(n: number | bigint): number[] {
  let x = BigInt.asUintN(64, BigInt(n));
  const out: number[] = [];
  while (x >= 0x80n) { out.push(Number(x & 0x7fn) | 0x80); x >>= 7n; }
  out.push(Number(x));
  return out;
}
const key = (no: number, wire: number) => varint((no << 3) | wire);
const vfield = (no: number, n: number | bigint) => [...key(no, 0), ...varint(n)];
const lfield = (no: number, payload: number[] | string) => {
  const bytes = typeof payload === "string" ? [...Buffer.from(payload, "utf8")] : payload;
  return [...key(no, 2), ...varint(bytes.length), ...bytes];
};
const entry = (no: number, k: string, v: number[] | string) => lfield(no, [...lfield(1, k), ...lfield(2, v)]);
const body = (apiVersion: string, kind: string, raw: number[]) =>
  Buffer.from([0x6b, 0x38, 0x73, 0x00, ...lfield(1, [...lfield(1, apiVersion), ...lfield(2, kind)]), ...lfield(2, raw), ...lfield(3, ""), ...lfield(4, "")]);

function badRequest(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(StatusError);
    expect((err as StatusError).code).toBe(400);
    return (err as StatusError).message;
  }
  throw new Error("expected a 400");
}

// ---- kubectl's own bodies --------------------------------------------------------------------------------

describe("bodies captured from kubectl v1.32 (fixtures/capture.mjs)", () => {
  const generators = ["configmap", "secret-generic", "secret-tls", "secret-docker-registry", "service-clusterip", "service-headless",
    "service-nodeport", "service-externalname", "serviceaccount", "quota", "namespace", "role", "clusterrole", "rolebinding",
    "clusterrolebinding"];
  // Commands without --dry-run: only the body was captured.
  const bodyOnly = ["token", "token-bound", "whoami", "can-i", "can-i-subresource", "can-i-nonresource", "can-i-list"];

  it.each(generators)("%s decodes to what `--dry-run=client -o json` prints", (name) => {
    const decoded = decodeProtobufBody(fixture(`${name}.pb`));
    const printed = fixtureJson(`${name}.json`);
    expect(decoded.object).toStrictEqual(printed);
    expect(decoded.apiVersion).toBe(printed.apiVersion);
    expect(decoded.kind).toBe(printed.kind);
  });

  it.each([...generators, "clusterrole-aggregate", ...bodyOnly, "debug-copy", "debug-node"])("%s re-encodes byte for byte (schema matches Go's marshalling)", (name) => {
    const pb = fixture(`${name}.pb`);
    expect(encodeProtobufBody(decodeProtobufBody(pb).object)).toStrictEqual(pb);
  });

  it("configmap: data, binaryData (base64), creationTimestamp null", () => {
    const { object } = decodeProtobufBody(fixture("configmap.pb"));
    expect(object).toStrictEqual({
      kind: "ConfigMap", apiVersion: "v1",
      metadata: { name: "demo", creationTimestamp: null },
      data: { a: "b", greeting: "hello world" },
      binaryData: { blob: fixture("blob.bin").toString("base64") },
    });
  });

  it("secret tls: data as base64 and the type", () => {
    const { object } = decodeProtobufBody(fixture("secret-tls.pb"));
    const data = object.data as Record<string, string>;
    expect(Buffer.from(data["tls.crt"], "base64").toString()).toBe(fixture("tls.crt").toString());
    expect(Buffer.from(data["tls.key"], "base64").toString()).toBe(fixture("tls.key").toString());
    expect(object.type).toBe("kubernetes.io/tls");
  });

  it("service: ports with int and named targetPort, selector, type, clusterIP", () => {
    const { object } = decodeProtobufBody(fixture("service-clusterip.pb"));
    expect(object.spec).toStrictEqual({
      ports: [
        { name: "80-8080", protocol: "TCP", port: 80, targetPort: 8080 },
        { name: "443-https", protocol: "TCP", port: 443, targetPort: "https" },
      ],
      selector: { app: "web" },
      type: "ClusterIP",
    });
  });

  it("kubectl debug --copy-to: a real Go-encoded Pod with most PodSpec fields decodes to the Pod it copied", () => {
    const { object } = decodeProtobufBody(fixture("debug-copy.pb"));
    const source = fixtureJson("run-overrides.json") as { spec: { containers: Record<string, unknown>[] } };
    // The copy drops the probes (profile "general") and appends the debug container; the rest is the spec as served.
    const [app] = source.spec.containers;
    const { livenessProbe: _l, readinessProbe: _r, startupProbe: _s, ...appWithoutProbes } = app;
    expect(object.spec).toStrictEqual({
      ...source.spec,
      containers: [
        appWithoutProbes,
        { name: "debugger", image: "busybox", resources: {}, securityContext: { capabilities: { add: ["SYS_PTRACE"] } }, terminationMessagePolicy: "File" },
      ],
    });
    const spec = object.spec as Record<string, unknown>;
    // Pointers set to zero values survive (JSON omitempty would otherwise hide them).
    expect(spec.automountServiceAccountToken).toBe(false);
    expect(spec.terminationGracePeriodSeconds).toBe(0);
    expect((spec.securityContext as Record<string, unknown>).runAsUser).toBe(0);
    expect((spec.securityContext as Record<string, unknown>).supplementalGroups).toStrictEqual([1, 2, 4294967296]);
    expect(spec.priority).toBe(-5);
  });

  it("clusterrole --aggregation-rule: the selector decodes; Go's `rules: null` is left out like other empty lists", () => {
    const { object } = decodeProtobufBody(fixture("clusterrole-aggregate.pb"));
    const { rules, ...printed } = fixtureJson("clusterrole-aggregate.json");
    expect(rules).toBeNull();
    expect(object).toStrictEqual(printed);
    expect(object.aggregationRule).toStrictEqual({ clusterRoleSelectors: [{ matchLabels: { "rbac.example.test/aggregate-to-monitoring": "true" } }] });
  });

  it("rolebinding: User/Group subjects carry the RBAC apiGroup, a ServiceAccount its namespace; roleRef", () => {
    const { object } = decodeProtobufBody(fixture("rolebinding.pb"));
    expect(object.subjects).toStrictEqual([
      { kind: "User", apiGroup: "rbac.authorization.k8s.io", name: "alice" },
      { kind: "Group", apiGroup: "rbac.authorization.k8s.io", name: "devs" },
      { kind: "ServiceAccount", name: "builder", namespace: "team-a" },
    ]);
    expect(object.roleRef).toStrictEqual({ apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "pod-reader" });
  });

  const AUTHN = "authentication.k8s.io/v1";
  const AUTHZ = "authorization.k8s.io/v1";
  const noMeta = { creationTimestamp: null };
  // What a JSON client would send for the object each command builds (Go's encoding/json of it).
  const built: Record<string, Record<string, unknown>> = {
    token: { kind: "TokenRequest", apiVersion: AUTHN, metadata: noMeta, spec: {}, status: { token: "", expirationTimestamp: null } },
    "token-bound": {
      kind: "TokenRequest", apiVersion: AUTHN, metadata: noMeta,
      spec: {
        audiences: ["https://api.example.test", "vault"],
        boundObjectRef: { kind: "Pod", apiVersion: "v1", name: "web-0", uid: "7d1c7e43-0000-4000-8000-000000000002" },
        expirationSeconds: 600,
      },
      status: { token: "", expirationTimestamp: null },
    },
    whoami: { kind: "SelfSubjectReview", apiVersion: AUTHN, metadata: noMeta, status: { userInfo: {} } },
    "can-i": {
      kind: "SelfSubjectAccessReview", apiVersion: AUTHZ, metadata: noMeta,
      spec: { resourceAttributes: { namespace: "team-a", verb: "get", resource: "pods" } }, status: { allowed: false },
    },
    "can-i-subresource": {
      kind: "SelfSubjectAccessReview", apiVersion: AUTHZ, metadata: noMeta,
      spec: { resourceAttributes: { verb: "get", resource: "pods", subresource: "log", name: "web" } }, status: { allowed: false },
    },
    "can-i-nonresource": {
      kind: "SelfSubjectAccessReview", apiVersion: AUTHZ, metadata: noMeta,
      spec: { nonResourceAttributes: { path: "/healthz", verb: "get" } }, status: { allowed: false },
    },
    "can-i-list": {
      kind: "SelfSubjectRulesReview", apiVersion: AUTHZ, metadata: noMeta, spec: { namespace: "team-a" }, status: { incomplete: false },
    },
  };

  it.each(bodyOnly)("%s (create token / auth whoami / auth can-i) decodes to the object kubectl built", (name) => {
    const decoded = decodeProtobufBody(fixture(`${name}.pb`));
    expect(decoded.object).toStrictEqual(built[name]);
    expect(decoded.apiVersion).toBe(built[name].apiVersion);
  });

  it("kubectl run sends JSON, not protobuf: its dry-run output round-trips through the declarations", () => {
    for (const name of ["run-nginx", "run-flags", "run-overrides"]) {
      const printed = fixtureJson(`${name}.json`);
      expect(decodeProtobufBody(encodeProtobufBody(printed)).object).toStrictEqual(printed);
    }
  });
});

// ---- the other kinds (no kubectl generator): Go-canonical JSON through the encoder and back -------------

describe("every kind round-trips Go-canonical JSON", () => {
  it.each(Object.entries(SAMPLES))("%s", (_name, sample) => {
    const decoded = decodeProtobufBody(encodeProtobufBody(sample));
    expect(decoded.object).toStrictEqual(sample);
    expect(decoded.kind).toBe(sample.kind);
    expect(decoded.apiVersion).toBe(sample.apiVersion);
  });

  it("together with the kubectl fixtures, covers every declared kind", () => {
    const fromFixtures = fs.readdirSync(FIXTURES).filter((f) => f.endsWith(".pb")).map((f) => decodeProtobufBody(fixture(f)).kind);
    const covered = new Set([...Object.values(SAMPLES).map((s) => s.kind as string), ...fromFixtures]);
    expect([...covered].sort()).toStrictEqual([...PROTOBUF_KINDS].sort());
    expect(PROTOBUF_KINDS).toHaveLength(26);
  });
});

// ---- wire facts on hand-built bodies ---------------------------------------------------------------------

describe("wire format", () => {
  it("Endpoints field numbers (subsets=2; addresses=1, notReadyAddresses=2, ports=3)", () => {
    const address = [...lfield(1, "10.1.1.1"), ...lfield(3, "h"), ...lfield(4, "n1"), ...lfield(2, [...lfield(1, "Pod"), ...lfield(3, "p")])];
    const port = [...lfield(1, "http"), ...vfield(2, 80), ...lfield(3, "TCP")];
    const subset = [...lfield(1, address), ...lfield(2, lfield(1, "10.1.1.2")), ...lfield(3, port)];
    const { object } = decodeProtobufBody(body("v1", "Endpoints", [...lfield(1, lfield(1, "svc")), ...lfield(2, subset)]));
    expect(object).toStrictEqual({
      kind: "Endpoints", apiVersion: "v1", metadata: { name: "svc", creationTimestamp: null },
      subsets: [{
        addresses: [{ ip: "10.1.1.1", hostname: "h", nodeName: "n1", targetRef: { kind: "Pod", name: "p" } }],
        notReadyAddresses: [{ ip: "10.1.1.2" }],
        ports: [{ name: "http", port: 80, protocol: "TCP" }],
      }],
    });
  });

  it("omitempty: zero values of Go value fields are hidden, zero pointers are shown", () => {
    // ServiceAccount{metadata{name:"", namespace:"", generation:0}, automountServiceAccountToken:false}
    const raw = [...lfield(1, [...lfield(1, "sa"), ...lfield(3, ""), ...vfield(7, 0), ...lfield(8, [])]), ...vfield(4, 0)];
    expect(decodeProtobufBody(body("v1", "ServiceAccount", raw)).object).toStrictEqual({
      kind: "ServiceAccount", apiVersion: "v1", metadata: { name: "sa", creationTimestamp: null }, automountServiceAccountToken: false,
    });
  });

  it("Go values without omitempty appear even when absent; structs appear as {}", () => {
    // Pod with one container that has no fields at all, and one containerPort 0.
    const container = lfield(6, []);
    const { object } = decodeProtobufBody(body("v1", "Pod", [...lfield(2, lfield(2, container))]));
    expect(object).toStrictEqual({
      kind: "Pod", apiVersion: "v1", metadata: { creationTimestamp: null },
      spec: { containers: [{ name: "", ports: [{ containerPort: 0 }], resources: {} }] },
      status: {},
    });
  });

  it("Time keeps whole seconds in RFC 3339; MicroTime keeps microseconds; empty Time is null", () => {
    const time = (s: number, n = 0) => [...vfield(1, s), ...vfield(2, n)];
    const raw = [
      ...lfield(1, [...lfield(1, "e"), ...lfield(8, time(1746102896, 999_999_999))]),
      ...lfield(6, time(0)),
      ...lfield(7, []),
      ...lfield(10, time(1746102896, 123_456_789)),
    ];
    const { object } = decodeProtobufBody(body("v1", "Event", raw));
    expect((object.metadata as Record<string, unknown>).creationTimestamp).toBe("2025-05-01T12:34:56Z");
    expect(object.firstTimestamp).toBe("1970-01-01T00:00:00Z");
    expect(object.lastTimestamp).toBeNull();
    expect(object.eventTime).toBe("2025-05-01T12:34:56.123456Z");
  });

  it("Go's zero time (year 1) is null; years beyond 9999 are refused", () => {
    const zero = [...vfield(1, -62135596800n), ...vfield(2, 0)];
    const raw = (t: number[]) => [...lfield(1, [...lfield(1, "e"), ...lfield(8, t)])];
    expect((decodeProtobufBody(body("v1", "Event", raw(zero))).object.metadata as Record<string, unknown>).creationTimestamp).toBeNull();
    expect(badRequest(() => decodeProtobufBody(body("v1", "Event", raw(vfield(1, 253402300800n)))))).toContain("year outside of range [0,9999]");
  });

  it("IntOrString: type 0 is intVal, type 1 is strVal, other types are refused", () => {
    const port = (ios: number[]) => body("v1", "Service", lfield(2, lfield(1, [...vfield(3, 80), ...lfield(4, ios)])));
    const target = (b: Buffer) => ((decodeProtobufBody(b).object.spec as { ports: Record<string, unknown>[] }).ports[0]).targetPort;
    expect(target(port([...vfield(1, 0), ...vfield(2, 8080), ...lfield(3, "")]))).toBe(8080);
    expect(target(port([...vfield(1, 1), ...vfield(2, 0), ...lfield(3, "http")]))).toBe("http");
    expect(target(port([]))).toBe(0);
    expect(badRequest(() => decodeProtobufBody(port(vfield(1, 2))))).toContain("impossible IntOrString.Type");
  });

  it("Quantity is its string; a map entry without a value is the zero quantity", () => {
    const raw = lfield(2, [...entry(1, "cpu", lfield(1, "500m")), ...lfield(1, lfield(1, "pods"))]);
    expect(decodeProtobufBody(body("v1", "ResourceQuota", raw)).object.spec).toStrictEqual({ hard: { cpu: "500m", pods: "0" } });
  });

  it("negative int32 and int64 (10-byte varints), int64 beyond 32 bits", () => {
    const raw = [...lfield(2, [...vfield(25, -5), ...vfield(4, -1), ...vfield(5, 2 ** 40)])];
    const spec = decodeProtobufBody(body("v1", "Pod", raw)).object.spec as Record<string, unknown>;
    expect(spec).toMatchObject({ priority: -5, terminationGracePeriodSeconds: -1, activeDeadlineSeconds: 2 ** 40 });
  });

  it("repeated int64 packed and unpacked", () => {
    const sc = (payload: number[]) => body("v1", "Pod", lfield(2, lfield(14, payload)));
    const groups = (b: Buffer) => ((decodeProtobufBody(b).object.spec as Record<string, Record<string, unknown>>).securityContext).supplementalGroups;
    expect(groups(sc([...vfield(4, 1), ...vfield(4, 2)]))).toStrictEqual([1, 2]);
    expect(groups(sc(lfield(4, [...varint(1), ...varint(300), ...varint(-1)])))).toStrictEqual([1, 300, -1]);
  });

  it("unknown fields of every wire type, including nested groups, are skipped", () => {
    const unknown = [
      ...vfield(99, 7), ...key(98, 1), 1, 2, 3, 4, 5, 6, 7, 8, ...key(97, 5), 1, 2, 3, 4, ...lfield(96, "junk"),
      ...key(95, 3), ...key(1, 3), ...vfield(2, 1), ...key(1, 4), ...key(95, 4),
    ];
    const raw = [...lfield(1, [...unknown, ...lfield(1, "cm")]), ...unknown, ...entry(2, "k", "v")];
    const withUnknownEnvelope = Buffer.concat([body("v1", "ConfigMap", raw), Buffer.from(vfield(9, 1))]);
    expect(decodeProtobufBody(withUnknownEnvelope).object).toStrictEqual({
      kind: "ConfigMap", apiVersion: "v1", metadata: { name: "cm", creationTimestamp: null }, data: { k: "v" },
    });
  });

  it("a message field seen twice is merged; scalars: last wins; repeated: appended; maps: last key wins", () => {
    const raw = [
      ...lfield(1, [...lfield(1, "first"), ...entry(11, "a", "1"), ...lfield(14, "f1")]),
      ...lfield(1, [...lfield(1, "second"), ...entry(11, "a", "2"), ...entry(11, "b", "3"), ...lfield(14, "f2")]),
    ];
    expect(decodeProtobufBody(body("v1", "ConfigMap", raw)).object.metadata).toStrictEqual({
      name: "second", labels: { a: "2", b: "3" }, finalizers: ["f1", "f2"], creationTimestamp: null,
    });
  });

  it("map keys such as __proto__ become own properties, as with JSON.parse", () => {
    const { object } = decodeProtobufBody(body("v1", "ConfigMap", entry(2, "__proto__", "x")));
    const data = object.data as Record<string, unknown>;
    expect(Object.hasOwn(data, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(data).toStrictEqual(JSON.parse('{"__proto__":"x"}'));
  });

  it("legacy ObjectMeta fields the spec lists: clusterName (15) and initializers (16)", () => {
    const status = [...lfield(1, lfield(2, "5")), ...lfield(2, "Failure"), ...vfield(6, 403), ...lfield(5, [...lfield(1, "x"), ...lfield(4, [...lfield(1, "r"), ...lfield(3, "f")])])];
    const initializers = [...lfield(1, lfield(1, "init.example.test")), ...lfield(2, status)];
    const raw = lfield(1, [...lfield(1, "cm"), ...lfield(15, "c1"), ...lfield(16, initializers)]);
    expect(decodeProtobufBody(body("v1", "ConfigMap", raw)).object.metadata).toStrictEqual({
      name: "cm", creationTimestamp: null, clusterName: "c1",
      initializers: {
        pending: [{ name: "init.example.test" }],
        result: { metadata: { resourceVersion: "5" }, status: "Failure", details: { name: "x", causes: [{ reason: "r", field: "f" }] }, code: 403 },
      },
    });
  });

  it("managedFields: fieldsV1 is embedded JSON", () => {
    const mf = [...lfield(1, "kubectl"), ...lfield(6, "FieldsV1"), ...lfield(7, lfield(1, '{"f:data":{}}'))];
    expect(decodeProtobufBody(body("v1", "ConfigMap", lfield(1, lfield(17, mf)))).object.metadata).toStrictEqual({
      creationTimestamp: null, managedFields: [{ manager: "kubectl", fieldsType: "FieldsV1", fieldsV1: { "f:data": {} } }],
    });
    expect(badRequest(() => decodeProtobufBody(body("v1", "ConfigMap", lfield(1, lfield(17, lfield(7, lfield(1, "{nope")))))))).toMatch(/FieldsV1/);
  });

  it("ExtraValue maps (user extra): a list of strings per key; no items is []; a repeated key keeps its last value", () => {
    const extra = (k: string, items: string[] | null) => entry(5, k, items === null ? [] : items.flatMap((i) => lfield(1, i)));
    const keyOnly = lfield(5, lfield(1, "bare"));
    const spec = [...lfield(3, "alice"), ...extra("scopes", ["a", "b"]), ...extra("none", null), ...keyOnly, ...extra("scopes", ["c"])];
    const { object } = decodeProtobufBody(body("authorization.k8s.io/v1", "SubjectAccessReview", lfield(2, spec)));
    expect(object.spec).toStrictEqual({ user: "alice", extra: { scopes: ["c"], none: [], bare: [] } });
    expect(object.status).toStrictEqual({ allowed: false });
    const whoami = lfield(2, lfield(1, [...lfield(1, "bob"), ...lfield(3, "g1"), ...lfield(3, "g2"), ...entry(4, "k", [...lfield(1, "v1"), ...lfield(1, "v2")])]));
    expect(decodeProtobufBody(body("authentication.k8s.io/v1", "SelfSubjectReview", whoami)).object.status).toStrictEqual({
      userInfo: { username: "bob", groups: ["g1", "g2"], extra: { k: ["v1", "v2"] } },
    });
    expect(badRequest(() => decodeProtobufBody(body("authorization.k8s.io/v1", "SubjectAccessReview", lfield(2, entry(5, "k", vfield(1, 1)))))))
      .toBe('SubjectAccessReview in version "v1" cannot be handled as a SubjectAccessReview: proto: wrong wireType = 0 for field Items');
  });

  it("ResourceAttributes field numbers, including fieldSelector (8) and labelSelector (9)", () => {
    const requirement = (k: string, op: string, ...values: string[]) => [...lfield(1, k), ...lfield(2, op), ...values.flatMap((v) => lfield(3, v))];
    const attrs = [
      ...lfield(1, "ns"), ...lfield(2, "list"), ...lfield(3, "apps"), ...lfield(4, "v1"), ...lfield(5, "deployments"), ...lfield(6, "scale"), ...lfield(7, "web"),
      ...lfield(8, [...lfield(1, "spec.nodeName=n1"), ...lfield(2, requirement("spec.nodeName", "In", "n1"))]),
      ...lfield(9, lfield(2, requirement("app", "Exists"))),
    ];
    const { object } = decodeProtobufBody(body("authorization.k8s.io/v1", "SelfSubjectAccessReview", lfield(2, lfield(1, attrs))));
    expect(object.spec).toStrictEqual({
      resourceAttributes: {
        namespace: "ns", verb: "list", group: "apps", version: "v1", resource: "deployments", subresource: "scale", name: "web",
        fieldSelector: { rawSelector: "spec.nodeName=n1", requirements: [{ key: "spec.nodeName", operator: "In", values: ["n1"] }] },
        labelSelector: { requirements: [{ key: "app", operator: "Exists" }] },
      },
    });
  });

  it("TokenRequest spec: audiences=1, boundObjectRef=3, expirationSeconds=4 (a pointer: 0 is kept)", () => {
    const spec = [...lfield(1, "api"), ...lfield(2, "skipped"), ...lfield(3, [...lfield(1, "Secret"), ...lfield(3, "s")]), ...vfield(4, 0)];
    const { object } = decodeProtobufBody(body("", "", lfield(2, spec)), { kind: "TokenRequest", apiVersion: "authentication.k8s.io/v1" });
    expect(object).toStrictEqual({
      kind: "TokenRequest", apiVersion: "authentication.k8s.io/v1", metadata: { creationTimestamp: null },
      spec: { audiences: ["api"], boundObjectRef: { kind: "Secret", name: "s" }, expirationSeconds: 0 },
      status: { token: "", expirationTimestamp: null },
    });
  });

  it("Namespace and RBAC field numbers: finalizers, status conditions, rules, subjects, roleRef", () => {
    const ns = [...lfield(2, lfield(1, "kubernetes")), ...lfield(3, [...lfield(1, "Active"), ...lfield(2, [...lfield(1, "T"), ...lfield(2, "True"), ...lfield(6, "m")])])];
    expect(decodeProtobufBody(body("v1", "Namespace", ns)).object).toStrictEqual({
      kind: "Namespace", apiVersion: "v1", metadata: { creationTimestamp: null },
      spec: { finalizers: ["kubernetes"] }, status: { phase: "Active", conditions: [{ type: "T", status: "True", lastTransitionTime: null, message: "m" }] },
    });
    const rule = [...lfield(1, "get"), ...lfield(2, ""), ...lfield(3, "pods"), ...lfield(4, "p"), ...lfield(5, "/x")];
    expect(decodeProtobufBody(body("rbac.authorization.k8s.io/v1", "Role", lfield(2, rule))).object.rules).toStrictEqual([
      { verbs: ["get"], apiGroups: [""], resources: ["pods"], resourceNames: ["p"], nonResourceURLs: ["/x"] },
    ]);
    const binding = [...lfield(2, [...lfield(1, "User"), ...lfield(3, "u")]), ...lfield(2, [...lfield(1, "ServiceAccount"), ...lfield(3, "sa"), ...lfield(4, "ns")]), ...lfield(3, lfield(3, "view"))];
    expect(decodeProtobufBody(body("rbac.authorization.k8s.io/v1", "ClusterRoleBinding", binding)).object).toStrictEqual({
      kind: "ClusterRoleBinding", apiVersion: "rbac.authorization.k8s.io/v1", metadata: { creationTimestamp: null },
      subjects: [{ kind: "User", name: "u" }, { kind: "ServiceAccount", name: "sa", namespace: "ns" }],
      roleRef: { apiGroup: "", kind: "", name: "view" },
    });
  });

  it("each kind is accepted only under its own group version; an empty one takes the endpoint's", () => {
    expect(badRequest(() => decodeProtobufBody(body("v1", "Role", []), { kind: "Role" })))
      .toBe('Role in version "v1" cannot be handled as a Role: no kind "Role" is registered for version "v1" in scheme "pkg/api/legacyscheme/scheme.go:30"');
    expect(badRequest(() => decodeProtobufBody(body("authorization.k8s.io/v1", "SelfSubjectReview", []))))
      .toContain('no kind "SelfSubjectReview" is registered for version "authorization.k8s.io/v1"');
    expect(badRequest(() => decodeProtobufBody(body("rbac.authorization.k8s.io/v1", "Namespace", []))))
      .toContain('no kind "Namespace" is registered for version "rbac.authorization.k8s.io/v1"');
    expect(decodeProtobufBody(body("", "", lfield(1, lfield(1, "r"))), { kind: "Role", apiVersion: "rbac.authorization.k8s.io/v1" }).object)
      .toStrictEqual({ kind: "Role", apiVersion: "rbac.authorization.k8s.io/v1", metadata: { name: "r", creationTimestamp: null } });
  });

  it("envelope defaults: empty kind/apiVersion take the endpoint's", () => {
    const b = body("", "", lfield(2, [...lfield(1, "k"), ...lfield(2, "v")]));
    expect(decodeProtobufBody(b, { kind: "ConfigMap", apiVersion: "v1" })).toMatchObject({ kind: "ConfigMap", apiVersion: "v1", object: { kind: "ConfigMap", apiVersion: "v1", data: { k: "v" } } });
  });
});

// ---- malformed input ----------------------------------------------------------------------------------

describe("malformed bodies are 400s with kube-apiserver's wording", () => {
  const cm = (raw: number[]) => body("v1", "ConfigMap", raw);

  it.each([
    ["empty", Buffer.alloc(0), "the object provided is unrecognized (must be of type ConfigMap): empty data (<empty>)"],
    ["JSON", Buffer.from('{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"x"}}'),
      'the object provided is unrecognized (must be of type ConfigMap): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] ({"kind":"ConfigMap","apiVersio ...)'],
    ["magic only (kind defaulted)", Buffer.from([0x6b, 0x38, 0x73, 0x00]), 'ConfigMap in version "" cannot be handled as a ConfigMap: Object \'apiVersion\' is missing in \'runtime.TypeMeta{APIVersion:"", Kind:""}\''],
    ["truncated envelope", Buffer.from([0x6b, 0x38, 0x73, 0x00, 0x0a, 0x05, 0x0a]), "the object provided is unrecognized (must be of type ConfigMap): unexpected EOF (6b3873000a050a)"],
    ["unknown kind", body("v1", "Node", []), 'Node in version "v1" cannot be handled as a ConfigMap: no kind "Node" is registered for version "v1" in scheme "pkg/api/legacyscheme/scheme.go:30"'],
    ["wrong group", body("apps/v1", "ConfigMap", []), 'ConfigMap in version "v1" cannot be handled as a ConfigMap: no kind "ConfigMap" is registered for version "apps/v1" in scheme "pkg/api/legacyscheme/scheme.go:30"'],
    ["no apiVersion", body("", "ConfigMap", []), 'ConfigMap in version "" cannot be handled as a ConfigMap: Object \'apiVersion\' is missing in \'runtime.TypeMeta{APIVersion:"", Kind:"ConfigMap"}\''],
    ["truncated object", cm([0x0a, 0x10, 0x0a]), 'ConfigMap in version "v1" cannot be handled as a ConfigMap: unexpected EOF'],
    ["varint overflow", cm([0x20, ...Array(10).fill(0xff), 0x01]), 'ConfigMap in version "v1" cannot be handled as a ConfigMap: proto: integer overflow'],
    ["negative length", cm([0x12, ...varint(-1)]), 'ConfigMap in version "v1" cannot be handled as a ConfigMap: proto: negative length found during unmarshaling'],
    ["huge length", cm([0x12, ...varint(2 ** 40)]), 'ConfigMap in version "v1" cannot be handled as a ConfigMap: unexpected EOF'],
    ["wrong wire type", cm(vfield(2, 1)), 'ConfigMap in version "v1" cannot be handled as a ConfigMap: proto: wrong wireType = 0 for field Data'],
    ["field 0", cm([0x00, 0x01]), 'ConfigMap in version "v1" cannot be handled as a ConfigMap: proto: ConfigMap: illegal tag 0 (wire type 0)'],
    ["end group", cm([0x0c]), 'ConfigMap in version "v1" cannot be handled as a ConfigMap: proto: ConfigMap: wiretype end group for non-group'],
    ["stray end group", cm([...key(9, 3), ...key(9, 4), ...key(9, 4)]), 'ConfigMap in version "v1" cannot be handled as a ConfigMap: proto: ConfigMap: wiretype end group for non-group'],
    ["wire type 6", cm([0x4e]), 'ConfigMap in version "v1" cannot be handled as a ConfigMap: proto: illegal wireType 6'],
    ["unterminated group", cm([...key(9, 3), ...vfield(1, 1)]), 'ConfigMap in version "v1" cannot be handled as a ConfigMap: unexpected EOF'],
  ] as const)("%s", (_name, input, message) => {
    expect(badRequest(() => decodeProtobufBody(Buffer.from(input), { kind: "ConfigMap" }))).toBe(message);
  });

  it("without an expected kind, an envelope without kind is refused", () => {
    expect(badRequest(() => decodeProtobufBody(body("v1", "", [])))).toBe(
      "the object provided is unrecognized (must be of type Object): Object 'Kind' is missing in 'runtime.TypeMeta{APIVersion:\"v1\", Kind:\"\"}' (6b3873000a060a02763112001200" + "1a002200)");
  });

  it("a million nested groups in an unknown field end without recursion", () => {
    const open = Buffer.alloc(1_000_000, key(9, 3)[0]);
    const b = Buffer.concat([cm([]).subarray(0, 4), Buffer.from(lfield(1, [...lfield(1, "v1"), ...lfield(2, "ConfigMap")])), Buffer.from([...key(2, 2), ...varint(open.length)]), open]);
    expect(badRequest(() => decodeProtobufBody(b))).toContain("unexpected EOF");
  });

  it("every truncation and thousands of random mutations of real bodies give a result or a 400, never a crash", () => {
    let seed = 42;
    const rand = (n: number) => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed % n; };
    const bodies = fs.readdirSync(FIXTURES).filter((f) => f.endsWith(".pb")).map((f) => fixture(f));
    const attempt = (b: Buffer) => {
      try {
        const { object } = decodeProtobufBody(b);
        JSON.stringify(object);
      } catch (err) {
        if (!(err instanceof StatusError) || err.code !== 400) throw err;
      }
    };
    for (const b of bodies) for (let n = 0; n < b.length; n++) attempt(b.subarray(0, n));
    for (let i = 0; i < 20_000; i++) {
      const b = Buffer.from(bodies[rand(bodies.length)]);
      for (let k = 1 + rand(4); k > 0; k--) b[4 + rand(b.length - 4)] = rand(256);
      attempt(b);
    }
  });
});

describe("declarations", () => {
  it("the bytes fields are exactly kube's: ConfigMap.binaryData, Secret.data (map<string, bytes>), RawExtension.raw", () => {
    // From the generated.proto of every served group (core/v1, meta/v1, runtime, rbac/v1, authentication/v1,
    // authorization/v1, coordination/v1, OpenShift security/v1); FieldsV1.raw is well-known (embedded JSON).
    // None of them has a repeated bytes field. A bytes field declared as string would travel as UTF-8 text.
    const bytesFields = [...MESSAGES.values()].flatMap((m) => m.ordered.filter((f) => f.type === "bytes").map((f) => `${m.name}.${f.json} ${f.shape}`));
    expect(bytesFields.sort()).toStrictEqual(["ConfigMap.binaryData map", "RawExtension.raw single", "Secret.data map"]);
  });

  it("a request body's bytes: 00 01 fe and bytes that are not UTF-8 arrive as their base64", () => {
    const data = { a: "AAH+", b: Buffer.from([0xff, 0xfe, 0x80, 0xc3]).toString("base64") };
    const body = encodeProtobufBody({ apiVersion: "v1", kind: "Secret", metadata: { name: "s" }, data, stringData: { t: "\u00fe" } });
    expect(body.includes(Buffer.from([0x12, 0x03, 0x00, 0x01, 0xfe]))).toBe(true);
    const { object } = decodeProtobufBody(body, { kind: "Secret" });
    expect(object).toMatchObject({ data, stringData: { t: "\u00fe" } });
  });

  it("every declared message is reachable from a request or response kind (or WatchEvent) and refers only to declared messages", () => {
    const reachable = new Set<string>();
    const visit = (name: string) => {
      const decl = MESSAGES.get(name);
      if (!decl || reachable.has(name)) return;
      reachable.add(name);
      for (const f of decl.ordered) if (f.message) visit(f.type);
    };
    for (const kind of PROTOBUF_KINDS) visit(KINDS[kind].message);
    for (const kind of RESPONSE_KINDS) visit(kind);
    visit("WatchEvent");
    expect([...MESSAGES.keys()].filter((m) => !reachable.has(m))).toStrictEqual([]);
  });
});
