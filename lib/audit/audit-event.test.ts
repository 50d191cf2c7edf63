import { describe, expect, it } from "vitest";
import { buildAuditEvent, encodeAuditEvent, microTime, type AuditRecord } from "./audit-event";
import { AUDIT_ID_HEADER, auditIdFor } from "./audit-id";
import { canonicalIP, sourceIPs } from "./source-ips";

const received = new Date("2026-11-24T10:11:12.123Z");
const completed = new Date("2026-11-24T10:11:12.130Z");
const alice = { username: "alice", uid: "u-1", groups: ["dev", "system:authenticated"] };

const base = (over: Partial<AuditRecord>): AuditRecord => ({
  auditID: "5f0c2b8e-1111-4222-8333-944455556666",
  requestURI: "/api/v1/namespaces/default/pods/web",
  verb: "get",
  user: alice,
  sourceIPs: ["127.0.0.1"],
  userAgent: "kubectl/v1.32.0 (linux/amd64) kubernetes/abc",
  code: 200,
  received,
  completed,
  ...over,
});

const line = (r: AuditRecord) => encodeAuditEvent(buildAuditEvent(r));

describe("buildAuditEvent", () => {
  it("writes a resource request as kube's Metadata-level line, fields in kube's order", () => {
    const out = line(base({
      objectRef: { resource: "pods", namespace: "default", name: "web", apiVersion: "v1", apiGroup: "" },
      decision: "allow",
      reason: 'RBAC: allowed by ClusterRoleBinding "dev" of ClusterRole "view" to User "alice"',
    }));
    expect(out).toBe(
      '{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata",' +
      '"auditID":"5f0c2b8e-1111-4222-8333-944455556666","stage":"ResponseComplete",' +
      '"requestURI":"/api/v1/namespaces/default/pods/web","verb":"get",' +
      '"user":{"username":"alice","uid":"u-1","groups":["dev","system:authenticated"]},' +
      '"sourceIPs":["127.0.0.1"],"userAgent":"kubectl/v1.32.0 (linux/amd64) kubernetes/abc",' +
      '"objectRef":{"resource":"pods","namespace":"default","name":"web","apiVersion":"v1"},' +
      '"responseStatus":{"metadata":{},"code":200},' +
      '"requestReceivedTimestamp":"2026-11-24T10:11:12.123000Z","stageTimestamp":"2026-11-24T10:11:12.130000Z",' +
      '"annotations":{"authorization.k8s.io/decision":"allow","authorization.k8s.io/reason":' +
      '"RBAC: allowed by ClusterRoleBinding \\"dev\\" of ClusterRole \\"view\\" to User \\"alice\\""}}\n',
    );
  });

  it("keeps the subresource and a list's namespace-only objectRef", () => {
    const status = buildAuditEvent(base({
      verb: "update", objectRef: { resource: "pods", namespace: "ns", name: "p", apiVersion: "v1", subresource: "status" },
    }));
    expect(status.objectRef).toEqual({ resource: "pods", namespace: "ns", name: "p", apiVersion: "v1", subresource: "status" });
    const list = buildAuditEvent(base({ verb: "list", objectRef: { resource: "configmaps", namespace: "ns", apiVersion: "v1" } }));
    expect(list.objectRef).toEqual({ resource: "configmaps", namespace: "ns", apiVersion: "v1" });
  });

  it("writes a non-resource request with the lower-case method and no objectRef", () => {
    const ev = JSON.parse(line(base({ requestURI: "/healthz?verbose", verb: "get", decision: "allow", reason: "" })));
    expect(ev.verb).toBe("get");
    expect(ev).not.toHaveProperty("objectRef");
    expect(ev.requestURI).toBe("/healthz?verbose");
    expect(ev.annotations).toEqual({ "authorization.k8s.io/decision": "allow", "authorization.k8s.io/reason": "" });
  });

  it("records a 403 with the Status kube answered and the forbid decision", () => {
    const message = 'pods "web" is forbidden: User "alice" cannot delete resource "pods" in API group "" in the namespace "default"';
    const ev = JSON.parse(line(base({
      verb: "delete",
      objectRef: { resource: "pods", namespace: "default", name: "web", apiVersion: "v1" },
      code: 403,
      status: { status: "Failure", message, reason: "Forbidden", details: { name: "web", kind: "pods" } },
      decision: "forbid",
    })));
    expect(ev.responseStatus).toEqual({
      metadata: {}, status: "Failure", message, reason: "Forbidden", details: { name: "web", kind: "pods" }, code: 403,
    });
    expect(Object.keys(ev.responseStatus)).toEqual(["metadata", "status", "message", "reason", "details", "code"]);
    expect(ev.annotations).toEqual({ "authorization.k8s.io/decision": "forbid", "authorization.k8s.io/reason": "" });
  });

  it("logs a failed authentication with an empty user, as kube does", () => {
    const ev = JSON.parse(line(base({
      user: undefined, code: 401, stage: "ResponseStarted",
      status: { status: "Failure", message: "Unauthorized", reason: "Unauthorized" },
    })));
    expect(ev.user).toEqual({});
    expect(ev.stage).toBe("ResponseStarted");
    expect(ev).not.toHaveProperty("annotations");
  });

  it("writes a watch as two events with one auditID: ResponseStarted, then ResponseComplete", () => {
    const started = new Date("2026-11-24T10:11:12.125Z");
    const ended = new Date("2026-11-24T10:41:12.125Z");
    const watch = base({
      auditID: auditIdFor(undefined),
      requestURI: "/api/v1/namespaces/default/pods?watch=true&resourceVersion=10",
      verb: "watch",
      objectRef: { resource: "pods", namespace: "default", apiVersion: "v1" },
    });
    const first = JSON.parse(line({ ...watch, stage: "ResponseStarted", completed: started }));
    const last = JSON.parse(line({ ...watch, stage: "ResponseComplete", completed: ended }));
    expect([first.stage, last.stage]).toEqual(["ResponseStarted", "ResponseComplete"]);
    expect(first.auditID).toBe(last.auditID);
    expect(first.requestReceivedTimestamp).toBe(last.requestReceivedTimestamp);
    expect([first.stageTimestamp, last.stageTimestamp]).toEqual(["2026-11-24T10:11:12.125000Z", "2026-11-24T10:41:12.125000Z"]);
    expect(first.responseStatus).toEqual({ metadata: {}, code: 200 });
  });

  it("records the impersonated user beside the real one, extra keys sorted as Go writes maps", () => {
    const ev = buildAuditEvent(base({
      user: { ...alice, extra: { "z.example/b": ["2"], "a.example/a": ["1"] } },
      impersonatedUser: { username: "system:serviceaccount:ns:bot", groups: ["system:serviceaccounts"] },
    }));
    expect(ev.user.username).toBe("alice");
    expect(Object.keys(ev.user.extra!)).toEqual(["a.example/a", "z.example/b"]);
    expect(ev.impersonatedUser).toEqual({ username: "system:serviceaccount:ns:bot", groups: ["system:serviceaccounts"] });
  });

  it("generates a uuid when the record has no auditID", () => {
    const ev = buildAuditEvent(base({ auditID: undefined }));
    expect(ev.auditID).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("escapes &, < and > as Go's encoder does, and the line still round-trips as JSON", () => {
    const out = line(base({ requestURI: "/api/v1/pods?limit=500&labelSelector=a<b", verb: "list" }));
    expect(out).toContain("/api/v1/pods?limit=500\\u0026labelSelector=a\\u003cb");
    expect(out.endsWith("\n")).toBe(true);
    expect(out.trimEnd()).not.toContain("\n");
    expect(JSON.parse(out).requestURI).toBe("/api/v1/pods?limit=500&labelSelector=a<b");
  });

  it("lets no token, header or body through, even from a caller passing a wider object", () => {
    const sneaky = {
      ...base({
        verb: "create",
        requestURI: "/api/v1/namespaces/default/secrets?access_token=Bearer-abc123&dryRun=All",
        user: { ...alice, extra: { "authentication.kubernetes.io/credential-id": ["JTI=1f2e"] } },
        objectRef: { resource: "secrets", namespace: "default", name: "db", apiVersion: "v1" },
        code: 201,
      }),
      headers: { authorization: "Bearer abc123" },
      authorization: "Bearer abc123",
      body: '{"kind":"Secret","data":{"password":"aHVudGVyMg=="}}',
      requestObject: { data: { password: "aHVudGVyMg==" } },
      responseObject: { data: { password: "aHVudGVyMg==" } },
    } as AuditRecord;
    (sneaky.objectRef as Record<string, unknown>).data = { password: "aHVudGVyMg==" };
    (sneaky.user as unknown as Record<string, unknown>).token = "abc123";
    const out = line(sneaky);
    expect(out).not.toMatch(/bearer/i);
    expect(out).not.toContain("abc123");
    expect(out).not.toContain("aHVudGVyMg==");
    expect(out).not.toContain("requestObject");
    expect(out).toContain("access_token=REDACTED\\u0026dryRun=All");
    expect(JSON.parse(out).user.extra).toEqual({ "authentication.kubernetes.io/credential-id": ["JTI=1f2e"] });
  });
});

describe("microTime", () => {
  it("prints RFC 3339 UTC with six fractional digits, like metav1.MicroTime", () => {
    expect(microTime(new Date("2026-01-02T03:04:05.007Z"))).toBe("2026-01-02T03:04:05.007000Z");
  });
});

describe("auditIdFor", () => {
  it("honours the client's Audit-ID header and otherwise makes a fresh uuid", () => {
    expect(auditIdFor("my-trace-42")).toBe("my-trace-42");
    const a = auditIdFor(undefined), b = auditIdFor("  ");
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(AUDIT_ID_HEADER).toBe("Audit-Id");
  });
});

describe("sourceIPs", () => {
  const headers = (h: Record<string, string>) => (name: string) => h[name];

  it("is the connection address alone without proxy headers, IPv4-mapped shown dotted", () => {
    expect(sourceIPs(headers({}), "::ffff:127.0.0.1")).toEqual(["127.0.0.1"]);
    expect(sourceIPs(headers({}), "::1")).toEqual(["::1"]);
  });

  it("lists X-Forwarded-For, then X-Real-Ip if new, then the remote address unless it repeats the last", () => {
    expect(sourceIPs(headers({ "x-forwarded-for": "10.0.0.1, bogus, 10.0.0.2", "x-real-ip": "10.0.0.1" }), "10.0.0.9"))
      .toEqual(["10.0.0.1", "10.0.0.2", "10.0.0.9"]);
    expect(sourceIPs(headers({ "x-real-ip": "192.0.2.7" }), "192.0.2.7")).toEqual(["192.0.2.7"]);
  });

  it("writes IPv6 in Go's compressed lower-case form and rejects zones", () => {
    expect(canonicalIP("2001:DB8:0:0:0:0:0:1")).toBe("2001:db8::1");
    expect(canonicalIP("fe80::1%eth0")).toBeUndefined();
    expect(canonicalIP("::ffff:7f00:1")).toBe("127.0.0.1");
  });
});
