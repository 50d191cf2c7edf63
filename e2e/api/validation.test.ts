// Typed kinds over raw HTTPS (and kubectl where the user sees it): 422 Invalid with exact causes, decode
// errors, defaults visible after create, fieldValidation Ignore/Warn/Strict (unknown and duplicate fields),
// dryRun=All on every write verb, status subresources, metadata.generation, and `kubectl explain`.
// Expectations follow kube-apiserver 1.32 (shared/reference); generation and selfLink follow reference decision 7.
// One server for the whole file.
import YAML from "yaml";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createNamespaces, rv, startServer, stopAll, type ApiResponse, type Server } from "./harness";
import { KINDS, expectStatus, loadFixture, type KindCase } from "./kinds";

const NS = "e2e-validation";

let server: Server;

beforeAll(async () => {
  server = await startServer();
  await createNamespaces(server, NS);
}, 90_000);

afterAll(async () => {
  await stopAll();
}, 60_000);

const kind = (name: string) => KINDS.find((k) => k.kind === name)!;
const collection = (k: KindCase) => (k.namespaced ? `/api/v1/namespaces/${NS}/${k.plural}` : `/api/v1/${k.plural}`);
const item = (k: KindCase, name: string, sub = "") => `${collection(k)}/${name}${sub ? `/${sub}` : ""}`;

async function create(k: KindCase, obj: unknown, query = ""): Promise<any> {
  const res = await server.request("POST", `${collection(k)}${query}`, { body: obj });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function get(k: KindCase, name: string): Promise<any> {
  const res = await server.request("GET", item(k, name));
  expect(res.status, res.text).toBe(200);
  return res.body;
}

async function expectAbsent(k: KindCase, name: string): Promise<void> {
  const res = await server.request("GET", item(k, name));
  expect(res.status, `${k.plural}/${name} should not exist: ${res.text.slice(0, 300)}`).toBe(404);
}

/** The list resourceVersion: the store-wide counter; unchanged means nothing was written anywhere. */
async function storeRevision(): Promise<string> {
  const res = await server.request("GET", `/api/v1/configmaps?limit=1`);
  expect(res.status, res.text).toBe(200);
  return res.body.metadata.resourceVersion;
}

function warnings(res: ApiResponse): string[] {
  const h = res.headers["warning"];
  return h === undefined ? [] : Array.isArray(h) ? h : [h];
}

interface Cause {
  reason: string;
  message: string;
  field: string;
}

/** A 422 Invalid with exactly these causes, in order, and the kube message built from them. */
function expectInvalid(res: ApiResponse, kindName: string, name: string, causes: Cause[]): void {
  const rendered = causes.map((c) => `${c.field}: ${c.message}`);
  const message = `${kindName} "${name}" is invalid: ${rendered.length === 1 ? rendered[0] : `[${rendered.join(", ")}]`}`;
  expectStatus(res, 422, "Invalid", message);
  expect(res.body.details).toEqual({ name, kind: kindName, causes });
}

const pod = (name: string, spec: Record<string, unknown>) => ({ apiVersion: "v1", kind: "Pod", metadata: { name }, spec });

// ---------------------------------------------------------------------------------------------------------

describe("422 Invalid: exact causes, nothing stored", { timeout: 60_000 }, () => {
  const cases: { title: string; k: string; name: string; body: any; causes: Cause[] }[] = [
    {
      title: "pod without containers",
      k: "Pod", name: "no-containers",
      body: pod("no-containers", { containers: [] }),
      causes: [{ reason: "FieldValueRequired", message: "Required value", field: "spec.containers" }],
    },
    {
      title: "pod with duplicate container names",
      k: "Pod", name: "dup-names",
      body: pod("dup-names", { containers: [{ name: "app", image: "nginx:1.27" }, { name: "app", image: "busybox:1.36" }] }),
      causes: [{ reason: "FieldValueDuplicate", message: 'Duplicate value: "app"', field: "spec.containers[1].name" }],
    },
    {
      title: "volumeMount naming a volume the pod does not have",
      k: "Pod", name: "missing-volume",
      body: pod("missing-volume", { containers: [{ name: "app", image: "nginx:1.27", volumeMounts: [{ name: "data", mountPath: "/data" }] }] }),
      causes: [{ reason: "FieldValueNotFound", message: 'Not found: "data"', field: "spec.containers[0].volumeMounts[0].name" }],
    },
    {
      title: "Service with an unknown type",
      k: "Service", name: "bad-type",
      body: { apiVersion: "v1", kind: "Service", metadata: { name: "bad-type" }, spec: { type: "Internal", ports: [{ port: 80 }] } },
      causes: [{
        reason: "FieldValueNotSupported",
        message: 'Unsupported value: "Internal": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
        field: "spec.type",
      }],
    },
    {
      title: "LimitRange with min greater than max",
      k: "LimitRange", name: "min-over-max",
      body: {
        apiVersion: "v1", kind: "LimitRange", metadata: { name: "min-over-max" },
        spec: { limits: [{ type: "PersistentVolumeClaim", min: { storage: "2Gi" }, max: { storage: "1Gi" } }] },
      },
      causes: [{ reason: "FieldValueInvalid", message: "Invalid value: 2Gi: min value 2Gi is greater than max value 1Gi", field: "spec.limits[0].min[storage]" }],
    },
    {
      title: "PersistentVolume without capacity",
      k: "PersistentVolume", name: "no-capacity",
      body: {
        apiVersion: "v1", kind: "PersistentVolume", metadata: { name: "no-capacity" },
        spec: { accessModes: ["ReadWriteOnce"], nfs: { server: "10.0.0.20", path: "/exports/x" } },
      },
      causes: [
        { reason: "FieldValueRequired", message: "Required value", field: "spec.capacity" },
        { reason: "FieldValueNotSupported", message: 'Unsupported value: core.ResourceList(nil): supported values: "storage"', field: "spec.capacity" },
      ],
    },
    {
      title: "Secret of type kubernetes.io/tls without tls.crt",
      k: "Secret", name: "tls-no-cert",
      body: { apiVersion: "v1", kind: "Secret", metadata: { name: "tls-no-cert" }, type: "kubernetes.io/tls", data: { "tls.key": "a2V5" } },
      causes: [{ reason: "FieldValueRequired", message: "Required value", field: "data[tls.crt]" }],
    },
    {
      title: "PersistentVolumeClaim without a storage request",
      k: "PersistentVolumeClaim", name: "no-request",
      body: { apiVersion: "v1", kind: "PersistentVolumeClaim", metadata: { name: "no-request" }, spec: { accessModes: ["ReadWriteOnce"], resources: { requests: {} } } },
      causes: [{ reason: "FieldValueRequired", message: "Required value", field: "spec.resources[storage]" }],
    },
  ];

  test.each(cases.map((c) => [c.title, c] as const))("%s", async (_, c) => {
    const k = kind(c.k);
    const res = await server.request("POST", collection(k), { body: c.body });
    expectInvalid(res, k.kind, c.name, c.causes);
    await expectAbsent(k, c.name);
  });

  test("kubectl prints the 422 as kube does (one cause inline, several as a list)", async () => {
    const one = await server.kubectl(["create", "-n", NS, "-f", "-"], { input: YAML.stringify(cases[0].body), allowFail: true });
    expect(one.code).toBe(1);
    expect(one.stderr.trim()).toBe('The Pod "no-containers" is invalid: spec.containers: Required value');
    const pv = cases.find((c) => c.k === "PersistentVolume")!;
    const several = await server.kubectl(["create", "-f", "-"], { input: YAML.stringify(pv.body), allowFail: true });
    expect(several.code).toBe(1);
    expect(several.stderr.trim()).toBe(
      'The PersistentVolume "no-capacity" is invalid: \n* spec.capacity: Required value\n* spec.capacity: Unsupported value: core.ResourceList(nil): supported values: "storage"',
    );
  });

  test("a value of the wrong JSON type is a 400 decode error and nothing is stored", async () => {
    const cases: { k: string; body: any; message: string }[] = [
      {
        k: "ServiceAccount",
        body: { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: "wrong-bool" }, automountServiceAccountToken: "yes" },
        message: 'ServiceAccount in version "v1" cannot be handled as a ServiceAccount: json: cannot unmarshal string into Go struct field ServiceAccount.automountServiceAccountToken of type bool',
      },
      {
        k: "Pod",
        body: pod("wrong-int", { terminationGracePeriodSeconds: "30", containers: [{ name: "app", image: "nginx:1.27" }] }),
        message: 'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field PodSpec.spec.terminationGracePeriodSeconds of type int64',
      },
      {
        k: "Pod",
        body: pod("wrong-port", { containers: [{ name: "app", image: "nginx:1.27", ports: [{ containerPort: "80" }] }] }),
        message: 'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32',
      },
      {
        k: "ConfigMap",
        body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "wrong-label", labels: { tier: 1 } } },
        message: 'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string',
      },
    ];
    const answers: string[] = [];
    for (const c of cases) {
      const res = await server.request("POST", collection(kind(c.k)), { body: c.body });
      answers.push(`${res.status} ${res.body?.reason ?? ""}: ${res.body?.kind === "Status" ? res.body.message : "(an object was stored)"}`);
    }
    expect(answers).toEqual(cases.map((c) => `400 BadRequest: ${c.message}`));
    for (const c of cases) await expectAbsent(kind(c.k), c.body.metadata.name);
  });

  test("a quantity that does not parse is a 400 decode error", async () => {
    const quota = { apiVersion: "v1", kind: "ResourceQuota", metadata: { name: "bad-quantity" }, spec: { hard: { pods: "ten" } } };
    const res = await server.request("POST", collection(kind("ResourceQuota")), { body: quota });
    expectStatus(
      res, 400, "BadRequest",
      `ResourceQuota in version "v1" cannot be handled as a ResourceQuota: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
    );
    await expectAbsent(kind("ResourceQuota"), "bad-quantity");

    const claim = {
      apiVersion: "v1", kind: "PersistentVolumeClaim", metadata: { name: "bad-suffix" },
      spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "5Gii" } } },
    };
    const res2 = await server.request("POST", collection(kind("PersistentVolumeClaim")), { body: claim });
    expectStatus(res2, 400, "BadRequest", `PersistentVolumeClaim in version "v1" cannot be handled as a PersistentVolumeClaim: unable to parse quantity's suffix`);
  });
});

// ---------------------------------------------------------------------------------------------------------

describe("defaults are visible after create", { timeout: 60_000 }, () => {
  test("Pod: restartPolicy, dnsPolicy, grace period, scheduler, container pull policy and termination message", async () => {
    const created = await create(kind("Pod"), pod("defaults", {
      containers: [
        { name: "latest", image: "nginx", ports: [{ containerPort: 8080 }] },
        { name: "tagged", image: "nginx:1.27" },
      ],
    }));
    for (const o of [created, await get(kind("Pod"), "defaults")]) {
      expect(o.spec).toMatchObject({
        restartPolicy: "Always",
        dnsPolicy: "ClusterFirst",
        terminationGracePeriodSeconds: 30,
        schedulerName: "default-scheduler",
        securityContext: {},
        enableServiceLinks: true,
      });
      expect(o.spec.containers[0]).toMatchObject({
        imagePullPolicy: "Always",
        terminationMessagePath: "/dev/termination-log",
        terminationMessagePolicy: "File",
        ports: [{ containerPort: 8080, protocol: "TCP" }],
      });
      expect(o.spec.containers[1].imagePullPolicy).toBe("IfNotPresent");
      expect(o.status).toEqual({ phase: "Pending", qosClass: "BestEffort" });
    }
  });

  test("Service: type ClusterIP, sessionAffinity None, port protocol TCP, targetPort = port", async () => {
    const o = await create(kind("Service"), {
      apiVersion: "v1", kind: "Service", metadata: { name: "defaults" },
      spec: { selector: { app: "web" }, ports: [{ name: "http", port: 80 }, { name: "dns", port: 53, protocol: "UDP" }] },
    });
    expect(o.spec).toMatchObject({ type: "ClusterIP", sessionAffinity: "None" });
    expect(o.spec.ports).toEqual([
      { name: "http", port: 80, protocol: "TCP", targetPort: 80 },
      { name: "dns", port: 53, protocol: "UDP", targetPort: 53 },
    ]);
    expect(o.status).toEqual({ loadBalancer: {} });
  });

  test("Secret: type Opaque; stringData lands in data and is not returned", async () => {
    const o = await create(kind("Secret"), {
      apiVersion: "v1", kind: "Secret", metadata: { name: "defaults" }, stringData: { password: "hunter2" },
    });
    expect(o.type).toBe("Opaque");
    expect(o.data).toEqual({ password: Buffer.from("hunter2").toString("base64") });
    expect(o.stringData).toBeUndefined();
  });

  test("PersistentVolume: reclaim policy Retain, volumeMode Filesystem, phase Pending; claim likewise", async () => {
    const pv = await create(kind("PersistentVolume"), {
      apiVersion: "v1", kind: "PersistentVolume", metadata: { name: "defaults" },
      spec: { capacity: { storage: "1Gi" }, accessModes: ["ReadWriteOnce"], hostPath: { path: "/srv/data" } },
    });
    expect(pv.spec.persistentVolumeReclaimPolicy).toBe("Retain");
    expect(pv.spec.volumeMode).toBe("Filesystem");
    expect(pv.status).toEqual({ phase: "Pending" });

    const pvc = await create(kind("PersistentVolumeClaim"), {
      apiVersion: "v1", kind: "PersistentVolumeClaim", metadata: { name: "defaults" },
      spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
    });
    expect(pvc.spec.volumeMode).toBe("Filesystem");
    expect(pvc.status).toEqual({ phase: "Pending" });
  });

  test("Endpoints port protocol TCP; LimitRange container defaults from max", async () => {
    // Not "defaults": the Service of that name has a selector, so the endpoints controller owns its Endpoints.
    const ep = await create(kind("Endpoints"), {
      apiVersion: "v1", kind: "Endpoints", metadata: { name: "defaults-manual" },
      subsets: [{ addresses: [{ ip: "10.1.2.3" }], ports: [{ port: 8080 }] }],
    });
    expect(ep.subsets[0].ports).toEqual([{ port: 8080, protocol: "TCP" }]);

    const lr = await create(kind("LimitRange"), {
      apiVersion: "v1", kind: "LimitRange", metadata: { name: "defaults" },
      spec: { limits: [{ type: "Container", max: { cpu: "1" }, min: { memory: "64Mi" } }] },
    });
    expect(lr.spec.limits[0]).toEqual({
      type: "Container",
      max: { cpu: "1" },
      min: { memory: "64Mi" },
      default: { cpu: "1" },
      defaultRequest: { cpu: "1", memory: "64Mi" },
    });
  });

  test("empty maps and lists are omitted from the stored object, as kube-apiserver's omitempty does", async () => {
    const o = await create(kind("ConfigMap"), {
      apiVersion: "v1", kind: "ConfigMap",
      metadata: { name: "empties", labels: {}, annotations: {}, finalizers: [] },
      data: {},
    });
    const present = (v: unknown) => (v === undefined ? "omitted" : JSON.stringify(v));
    const shown = {
      labels: present(o.metadata.labels), annotations: present(o.metadata.annotations),
      finalizers: present(o.metadata.finalizers), data: present(o.data),
    };
    expect(shown).toEqual({ labels: "omitted", annotations: "omitted", finalizers: "omitted", data: "omitted" });
    // `kubectl get -o yaml` shows what is stored
    const yaml = (await server.kubectl(["get", "configmap", "empties", "-n", NS, "-o", "yaml"])).stdout;
    expect(yaml).not.toMatch(/^ {2}labels: \{\}$/m);
  });
});

// ---------------------------------------------------------------------------------------------------------

describe("fieldValidation: Ignore, Warn (default), Strict", { timeout: 60_000 }, () => {
  const POD = kind("Pod");
  const withFoo = (name: string) => ({ ...pod(name, { foo: "bar", containers: [{ name: "app", image: "nginx:1.27" }] }) });

  test("Strict refuses an unknown field with 400 and stores nothing", async () => {
    const res = await server.request("POST", `${collection(POD)}?fieldValidation=Strict`, { body: withFoo("strict") });
    expectStatus(res, 400, "BadRequest", 'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.foo"');
    await expectAbsent(POD, "strict");

    const nested = pod("strict-nested", { containers: [{ name: "app", image: "nginx:1.27", bogus: 1 }] });
    const res2 = await server.request("POST", `${collection(POD)}?fieldValidation=Strict`, { body: nested });
    expectStatus(res2, 400, "BadRequest", 'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].bogus"');
  });

  test("Warn (and no parameter) creates the object without the field and sends a Warning header", async () => {
    for (const [query, name] of [["?fieldValidation=Warn", "warn"], ["", "warn-default"]] as const) {
      const res = await server.request("POST", `${collection(POD)}${query}`, { body: withFoo(name) });
      expect(res.status, res.text).toBe(201);
      expect(warnings(res)).toEqual(['299 - "unknown field \\"spec.foo\\""']);
      expect(res.body.spec.foo).toBeUndefined();
      expect((await get(POD, name)).spec.foo).toBeUndefined();
    }
  });

  test("Ignore creates the object silently", async () => {
    const res = await server.request("POST", `${collection(POD)}?fieldValidation=Ignore`, { body: withFoo("ignore") });
    expect(res.status, res.text).toBe(201);
    expect(warnings(res)).toEqual([]);
    expect(res.body.spec.foo).toBeUndefined();
  });

  test("a duplicate JSON key: Warn header (last value wins), Strict 400", async () => {
    const raw = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup-first","name":"dup-second"},"data":{"a":"b"}}`;
    const res = await server.request("POST", collection(kind("ConfigMap")), { body: raw, contentType: "application/json" });
    expect(res.status, res.text).toBe(201);
    expect(warnings(res)).toEqual(['299 - "duplicate field \\"metadata.name\\""']);
    expect(res.body.metadata.name).toBe("dup-second");

    const strict = await server.request("POST", `${collection(kind("ConfigMap"))}?fieldValidation=Strict`, {
      body: raw.replace(/dup-/g, "strict-dup-"), contentType: "application/json",
    });
    expectStatus(strict, 400, "BadRequest", 'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "metadata.name"');
    await expectAbsent(kind("ConfigMap"), "strict-dup-second");
  });

  test("PUT warns too", async () => {
    const current = await get(POD, "ignore");
    current.spec.containers[0].image = "nginx:1.27.1";
    current.spec.containers[0].bogus = true;
    const res = await server.request("PUT", item(POD, "ignore"), { body: current });
    expect(res.status, res.text).toBe(200);
    expect(warnings(res)).toEqual(['299 - "unknown field \\"spec.containers[0].bogus\\""']);
    expect(res.body.spec.containers[0].image).toBe("nginx:1.27.1");
  });

  test("a strategic merge patch with an unknown field: Strict is 422 on field patch (the patch map), Warn warns", async () => {
    const cmKind = kind("ConfigMap");
    await create(cmKind, { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "patch-strict" }, data: { a: "b" } });
    const before = await get(cmKind, "patch-strict");
    const strict = await server.request("PATCH", `${item(cmKind, "patch-strict")}?fieldValidation=Strict`, {
      contentType: "application/strategic-merge-patch+json",
      body: { foo: "bar" },
    });
    expectStatus(strict, 422, "Invalid", ' "" is invalid: patch: Invalid value: "map[foo:bar]": strict decoding error: unknown field "foo"');
    expect(strict.body.details.causes).toEqual([
      { reason: "FieldValueInvalid", message: 'Invalid value: "map[foo:bar]": strict decoding error: unknown field "foo"', field: "patch" },
    ]);
    expect((await get(cmKind, "patch-strict")).metadata.resourceVersion).toBe(before.metadata.resourceVersion);

    const warn = await server.request("PATCH", item(cmKind, "patch-strict"), {
      contentType: "application/strategic-merge-patch+json",
      body: { foo: "bar", data: { c: "d" } },
    });
    expect(warn.status, warn.text).toBe(200);
    expect(warnings(warn)).toEqual(['299 - "unknown field \\"foo\\""']);
    expect(warn.body.data).toEqual({ a: "b", c: "d" });
  });

  test("an unsupported fieldValidation value is 422 on the options of the verb", async () => {
    const unsupported = 'fieldValidation: Unsupported value: "Loud": supported values: "", "Ignore", "Strict", "Warn"';
    const res = await server.request("POST", `${collection(POD)}?fieldValidation=Loud`, { body: withFoo("loud") });
    expectStatus(res, 422, "Invalid", `CreateOptions.meta.k8s.io "" is invalid: ${unsupported}`);
    await expectAbsent(POD, "loud");

    const current = await get(POD, "ignore");
    const put = await server.request("PUT", `${item(POD, "ignore")}?fieldValidation=Loud`, { body: current });
    const patch = await server.request("PATCH", `${item(POD, "ignore")}?fieldValidation=Loud`, {
      contentType: "application/merge-patch+json", body: { metadata: { labels: { x: "y" } } },
    });
    expect([put, patch].map((r) => `${r.status} ${r.body?.message}`)).toEqual([
      `422 UpdateOptions.meta.k8s.io "" is invalid: ${unsupported}`,
      `422 PatchOptions.meta.k8s.io "" is invalid: ${unsupported}`,
    ]);
    expect(await get(POD, "ignore")).toEqual(current);
  });

  test("kubectl: --validate=strict (default) shows the server's error, warn prints the warning, false is silent", async () => {
    const manifest = YAML.stringify(withFoo("kubectl-strict"));
    const strict = await server.kubectl(["create", "-n", NS, "-f", "-"], { input: manifest, allowFail: true });
    expect(strict.code).toBe(1);
    expect(strict.stderr.trim()).toBe(
      'Error from server (BadRequest): error when creating "STDIN": Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.foo"',
    );
    await expectAbsent(POD, "kubectl-strict");

    const warn = await server.kubectl(["create", "-n", NS, "-f", "-", "--validate=warn"], { input: YAML.stringify(withFoo("kubectl-warn")) });
    expect(warn.stdout.trim()).toBe("pod/kubectl-warn created");
    expect(warn.stderr.trim()).toBe('Warning: unknown field "spec.foo"');

    const off = await server.kubectl(["create", "-n", NS, "-f", "-", "--validate=false"], { input: YAML.stringify(withFoo("kubectl-off")) });
    expect(off.stdout.trim()).toBe("pod/kubectl-off created");
    expect(off.stderr).toBe("");
  });
});

// ---------------------------------------------------------------------------------------------------------

describe("dryRun=All stores nothing", { timeout: 60_000 }, () => {
  const CM = kind("ConfigMap");
  const cm = (name: string, data: Record<string, string>) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data });

  beforeAll(async () => {
    await create(CM, cm("dry-existing", { mode: "real" }));
  });

  test("create: 201 with the would-be object, no resourceVersion, nothing stored", async () => {
    const rev = await storeRevision();
    const res = await server.request("POST", `${collection(CM)}?dryRun=All`, { body: cm("dry-new", { mode: "dry" }) });
    expect(res.status, res.text).toBe(201);
    expect(res.body.metadata.name).toBe("dry-new");
    expect(res.body.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.metadata.creationTimestamp).toMatch(/Z$/);
    expect(res.body.metadata.resourceVersion ?? "").toBe("");
    expect(res.body.data).toEqual({ mode: "dry" });
    await expectAbsent(CM, "dry-new");
    expect(await storeRevision()).toBe(rev);
  });

  test("create still validates and still detects a name collision", async () => {
    const invalid = await server.request("POST", `${collection(kind("Pod"))}?dryRun=All`, { body: pod("dry-invalid", { containers: [] }) });
    expectInvalid(invalid, "Pod", "dry-invalid", [{ reason: "FieldValueRequired", message: "Required value", field: "spec.containers" }]);
    const taken = await server.request("POST", `${collection(CM)}?dryRun=All`, { body: cm("dry-existing", {}) });
    expectStatus(taken, 409, "AlreadyExists", 'configmaps "dry-existing" already exists');
  });

  test("update, patch and delete: answered as if done, the stored object is unchanged", async () => {
    const before = await get(CM, "dry-existing");
    const rev = await storeRevision();

    const put = await server.request("PUT", `${item(CM, "dry-existing")}?dryRun=All`, { body: { ...before, data: { mode: "put" } } });
    expect(put.status, put.text).toBe(200);
    expect(put.body.data).toEqual({ mode: "put" });

    const patch = await server.request("PATCH", `${item(CM, "dry-existing")}?dryRun=All`, {
      contentType: "application/merge-patch+json", body: { data: { mode: "patch" } },
    });
    expect(patch.status, patch.text).toBe(200);
    expect(patch.body.data).toEqual({ mode: "patch" });

    const del = await server.request("DELETE", `${item(CM, "dry-existing")}?dryRun=All`);
    expect(del.status, del.text).toBe(200);

    expect(await get(CM, "dry-existing")).toEqual(before);
    expect(await storeRevision()).toBe(rev);
  });

  test("kubectl --dry-run=server on create, patch and delete", async () => {
    const before = await get(CM, "dry-existing");
    const created = await server.kubectl(["create", "configmap", "dry-kubectl", "-n", NS, "--from-literal=a=b", "--dry-run=server"]);
    expect(created.stdout.trim()).toBe("configmap/dry-kubectl created (server dry run)");
    await expectAbsent(CM, "dry-kubectl");
    const patched = await server.kubectl(["patch", "configmap", "dry-existing", "-n", NS, "-p", '{"data":{"mode":"x"}}', "--dry-run=server"]);
    // (kubectl patch prints no dry-run suffix; it did send dryRun=All)
    expect(patched.stdout.trim()).toBe("configmap/dry-existing patched");
    const deleted = await server.kubectl(["delete", "configmap", "dry-existing", "-n", NS, "--dry-run=server"]);
    expect(deleted.stdout.trim()).toBe('configmap "dry-existing" deleted (server dry run)');
    expect(await get(CM, "dry-existing")).toEqual(before);
  });

  test("an unsupported dryRun value is 422 on the options of the verb", async () => {
    const current = await get(CM, "dry-existing");
    // the bad value is a []string, which kube prints with %#v
    const unsupported = 'dryRun: Unsupported value: []string{"Bogus"}: supported values: "All"';
    const post = await server.request("POST", `${collection(CM)}?dryRun=Bogus`, { body: cm("dry-bogus", {}) });
    expectStatus(post, 422, "Invalid");
    expect(post.body.details).toMatchObject({ group: "meta.k8s.io", kind: "CreateOptions" });
    const put = await server.request("PUT", `${item(CM, "dry-existing")}?dryRun=Bogus`, { body: current });
    const patch = await server.request("PATCH", `${item(CM, "dry-existing")}?dryRun=Bogus`, {
      contentType: "application/merge-patch+json", body: { data: { x: "y" } },
    });
    const del = await server.request("DELETE", `${item(CM, "dry-existing")}?dryRun=Bogus`);
    expect([post, put, patch, del].map((r) => `${r.status} ${r.body?.message}`)).toEqual([
      `422 CreateOptions.meta.k8s.io "" is invalid: ${unsupported}`,
      `422 UpdateOptions.meta.k8s.io "" is invalid: ${unsupported}`,
      `422 PatchOptions.meta.k8s.io "" is invalid: ${unsupported}`,
      `422 DeleteOptions.meta.k8s.io "" is invalid: ${unsupported}`,
    ]);
    await expectAbsent(CM, "dry-bogus");
    expect(await get(CM, "dry-existing")).toEqual(current);
  });
});

// ---------------------------------------------------------------------------------------------------------

interface StatusCase {
  k: string;
  object: () => any;
  /** A status a controller would write. */
  status: any;
  /** A spec change that /status must ignore. */
  changeSpec: (o: any) => void;
  /** The state a controller brings a new object to; the case starts once it is reached. */
  settled?: (o: any) => boolean;
}

const STATUS_CASES: StatusCase[] = [
  {
    k: "Pod",
    object: () => pod("status-pod", { containers: [{ name: "app", image: "nginx:1.27" }] }),
    status: { phase: "Running", conditions: [{ type: "Ready", status: "True" }], qosClass: "BestEffort" },
    changeSpec: (o) => (o.spec.containers[0].image = "nginx:1.28"),
  },
  {
    k: "Service",
    object: () => ({ apiVersion: "v1", kind: "Service", metadata: { name: "status-svc" }, spec: { type: "LoadBalancer", ports: [{ port: 80 }] } }),
    status: { loadBalancer: { ingress: [{ hostname: "lb.example.com" }] } },
    changeSpec: (o) => (o.spec.ports[0].port = 81),
  },
  {
    k: "PersistentVolume",
    object: () => ({
      apiVersion: "v1", kind: "PersistentVolume", metadata: { name: "status-pv" },
      spec: { capacity: { storage: "1Gi" }, accessModes: ["ReadWriteOnce"], hostPath: { path: "/srv/status" } },
    }),
    // The volume binder makes a new volume Available; a message beside that phase is left alone.
    status: { phase: "Available", message: "checked by hand" },
    changeSpec: (o) => (o.spec.capacity.storage = "2Gi"),
    settled: (o) => o.status?.phase === "Available",
  },
  {
    k: "PersistentVolumeClaim",
    object: () => ({
      // A class no volume has: the binder must not bind it to the volume of the case above.
      apiVersion: "v1", kind: "PersistentVolumeClaim", metadata: { name: "status-pvc" },
      spec: { storageClassName: "no-volumes", accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
    }),
    // Pending, as the volume binder keeps an unmatched claim (it turns a hand-written Bound back, and clears
    // capacity and access modes of a claim without a volume); conditions are the resizer's, left alone.
    status: { phase: "Pending", conditions: [{ type: "Resizing", status: "True" }] },
    changeSpec: (o) => (o.spec.resources.requests.storage = "3Gi"),
  },
  // ResourceQuota status is recomputed by the quota controller after every write, as in kube, so a
  // hand-written status cannot stay: its /status semantics are checked without controllers in
  // lib/registry/conformance.test.ts, and its status in e2e/api/resource-quota.test.ts.
];

describe("status subresources: main writes keep status, /status writes change only status", { timeout: 60_000 }, () => {
  test.each(STATUS_CASES.map((c) => [c.k, c] as const))("%s", async (_, c) => {
    const k = kind(c.k);
    let created = await create(k, c.object());
    const name = created.metadata.name;
    for (let i = 0; c.settled && !c.settled(created); i++) {
      if (i > 100) throw new Error(`${c.k} never reached its controller's state`);
      await new Promise((r) => setTimeout(r, 50));
      created = await get(k, name);
    }
    const initialStatus = created.status;

    // PUT on the main resource: the status in the body is ignored, the label goes through
    const body = structuredClone(created);
    body.status = c.status;
    body.metadata.labels = { "shop.example.com/touched": "main" };
    const put = await server.request("PUT", item(k, name), { body });
    expect(put.status, put.text).toBe(200);
    expect(put.body.status).toEqual(initialStatus);
    expect(put.body.metadata.labels).toEqual({ "shop.example.com/touched": "main" });

    // a merge patch of only status on the main resource changes nothing
    const mainPatch = await server.request("PATCH", item(k, name), { contentType: "application/merge-patch+json", body: { status: c.status } });
    expect(mainPatch.status, mainPatch.text).toBe(200);
    expect(mainPatch.body.status).toEqual(initialStatus);
    expect(mainPatch.body.metadata.resourceVersion).toBe(put.body.metadata.resourceVersion);

    // GET /status answers the whole object
    const st = await server.request("GET", item(k, name, "status"));
    expect(st.status, st.text).toBe(200);
    expect(st.body.metadata.name).toBe(name);

    // PUT /status: the status is stored, the spec change in the same body is ignored
    const current = await get(k, name);
    const statusBody = structuredClone(current);
    statusBody.status = c.status;
    c.changeSpec(statusBody);
    const putStatus = await server.request("PUT", item(k, name, "status"), { body: statusBody });
    expect(putStatus.status, putStatus.text).toBe(200);
    expect(putStatus.body.status).toMatchObject(c.status);
    expect(putStatus.body.spec).toEqual(current.spec);
    expect(rv(putStatus.body.metadata.resourceVersion)).toBeGreaterThan(rv(current.metadata.resourceVersion));
    const stored = await get(k, name);
    expect(stored.status).toMatchObject(c.status);
    expect(stored.spec).toEqual(current.spec);
    expect(stored.metadata.generation).toBe(current.metadata.generation);

    // PATCH /status with a spec change only: nothing changes
    const specOnly = structuredClone(stored);
    c.changeSpec(specOnly);
    const patchStatus = await server.request("PATCH", item(k, name, "status"), {
      contentType: "application/merge-patch+json", body: { spec: specOnly.spec },
    });
    expect(patchStatus.status, patchStatus.text).toBe(200);
    expect(patchStatus.body.spec).toEqual(stored.spec);
    expect(patchStatus.body.metadata.resourceVersion).toBe(stored.metadata.resourceVersion);

    // a main-resource update after a status write keeps the status
    const relabel = await server.request("PATCH", item(k, name), {
      contentType: "application/merge-patch+json", body: { metadata: { labels: { "shop.example.com/touched": "again" } } },
    });
    expect(relabel.status, relabel.text).toBe(200);
    expect(relabel.body.status).toEqual(stored.status);
  });

  test("kinds without a status subresource answer 404 on /status", async () => {
    const k = kind("ConfigMap");
    await create(k, { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "no-status" } });
    const res = await server.request("GET", item(k, "no-status", "status"));
    expect(res.status, res.text).toBe(404);
  });

  test("Service: load-balancer ingress on a ClusterIP service is refused (1.29+), nothing written", async () => {
    const k = kind("Service");
    const clusterIP = await create(k, {
      apiVersion: "v1", kind: "Service", metadata: { name: "status-clusterip" }, spec: { ports: [{ port: 80 }] },
    });
    const refused = await server.request("PATCH", item(k, "status-clusterip", "status"), {
      contentType: "application/merge-patch+json", body: { status: { loadBalancer: { ingress: [{ ip: "203.0.113.10" }] } } },
    });
    expectStatus(refused, 422, "Invalid");
    expect(refused.body.details.causes).toEqual([
      { reason: "FieldValueForbidden", message: "Forbidden: may only be used when `spec.type` is 'LoadBalancer'", field: "status.loadBalancer.ingress" },
    ]);
    expect((await get(k, "status-clusterip")).metadata.resourceVersion).toBe(clusterIP.metadata.resourceVersion);
  });

  test("Service: a load-balancer ingress IP is defaulted to ipMode VIP", async () => {
    const k = kind("Service");
    await create(k, { apiVersion: "v1", kind: "Service", metadata: { name: "status-lb" }, spec: { type: "LoadBalancer", ports: [{ port: 80 }] } });
    const lb = await server.request("PATCH", item(k, "status-lb", "status"), {
      contentType: "application/merge-patch+json", body: { status: { loadBalancer: { ingress: [{ ip: "203.0.113.10" }] } } },
    });
    expect(lb.status, lb.text).toBe(200);
    expect(lb.body.status.loadBalancer.ingress).toEqual([{ ip: "203.0.113.10", ipMode: "VIP" }]);
  });
});

// ---------------------------------------------------------------------------------------------------------

describe("metadata.generation and selfLink", { timeout: 60_000 }, () => {
  test("ConfigMap: neither written; a client's generation kept on create and never changed by an update; a selfLink dropped", async () => {
    const k = kind("ConfigMap");
    const created = await create(k, { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "gen" }, data: { a: "1" } });
    expect(created.metadata).not.toHaveProperty("generation");
    expect(created.metadata).not.toHaveProperty("selfLink");
    const changed = await server.request("PATCH", item(k, "gen"), { contentType: "application/merge-patch+json", body: { data: { a: "2" } } });
    expect(changed.body.metadata).not.toHaveProperty("generation");

    const sent = await create(k, { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "gen-sent", generation: 3, selfLink: "/api/v1/x" } });
    expect(sent.metadata.generation).toBe(3);
    expect(sent.metadata).not.toHaveProperty("selfLink");
    const forged = await server.request("PUT", item(k, "gen-sent"), { body: { ...sent, data: { a: "1" }, metadata: { ...sent.metadata, generation: 40, selfLink: "/x" } } });
    expect(forged.status, forged.text).toBe(200);
    expect(forged.body.metadata.generation).toBe(3);
    expect(forged.body.metadata).not.toHaveProperty("selfLink");
    const negative = await server.request("POST", `/api/v1/namespaces/${NS}/configmaps`, { body: { metadata: { name: "gen-neg", generation: -1 } } });
    expect(negative.status, negative.text).toBe(422);
    expect(negative.body.message).toBe('ConfigMap "gen-neg" is invalid: metadata.generation: Invalid value: -1: must be greater than or equal to 0');
  });

  test("Pod: none after an image change or a status write", async () => {
    const k = kind("Pod");
    const created = await create(k, pod("gen-pod", { containers: [{ name: "app", image: "nginx:1.27" }] }));
    expect(created.metadata).not.toHaveProperty("generation");
    const image = await server.kubectl(["set", "image", "pod/gen-pod", "app=nginx:1.28", "-n", NS]);
    expect(image.stdout.trim()).toBe("pod/gen-pod image updated");
    expect((await get(k, "gen-pod")).metadata).not.toHaveProperty("generation");
    const status = await server.request("PATCH", item(k, "gen-pod", "status"), {
      contentType: "application/merge-patch+json", body: { status: { phase: "Running" } },
    });
    expect(status.status, status.text).toBe(200);
    expect(status.body.metadata).not.toHaveProperty("generation");
    expect(status.body.metadata).not.toHaveProperty("selfLink");
  });
});

// ---------------------------------------------------------------------------------------------------------

describe("kubectl explain", { timeout: 60_000 }, () => {
  /** The `FIELDS:` rows of `kubectl explain`: name → type text. */
  function fields(out: string): Map<string, string> {
    const rows = new Map<string, string>();
    for (const line of out.split("\n")) {
      const m = /^ {2}([A-Za-z$][\w$]*)\t(.+)$/.exec(line);
      if (m) rows.set(m[1], m[2].trim());
    }
    return rows;
  }

  test("pod.spec.containers lists the container fields with their types", async () => {
    const r = await server.kubectl(["explain", "pod.spec.containers"]);
    expect(r.stdout).toMatch(/^KIND:\s+Pod\nVERSION:\s+v1\n/);
    expect(r.stdout).toMatch(/FIELD: containers <\[\]Container>/);
    const f = fields(r.stdout);
    expect(f.get("name")).toBe("<string> -required-");
    expect(f.get("image")).toBe("<string>");
    expect(f.get("ports")).toBe("<[]ContainerPort>");
    expect(f.get("env")).toBe("<[]EnvVar>");
    expect(f.get("resources")).toBe("<ResourceRequirements>");
    expect(f.get("volumeMounts")).toBe("<[]VolumeMount>");
    expect(f.get("livenessProbe")).toBe("<Probe>");
    expect(f.get("imagePullPolicy")).toBe("<string>");
    expect(r.stdout).toMatch(/imagePullPolicy\t<string>\n\s+enum: Always, IfNotPresent, Never/);
  });

  test("svc.spec.ports lists the service port fields", async () => {
    const r = await server.kubectl(["explain", "svc.spec.ports"]);
    expect(r.stdout).toMatch(/^KIND:\s+Service\nVERSION:\s+v1\n/);
    expect(r.stdout).toMatch(/FIELD: ports <\[\]ServicePort>/);
    const f = fields(r.stdout);
    expect(f.get("port")).toBe("<integer> -required-");
    expect(f.get("name")).toBe("<string>");
    expect(f.get("nodePort")).toBe("<integer>");
    expect(f.get("protocol")).toBe("<string>");
    expect(f.has("targetPort")).toBe(true);
    expect(r.stdout).toMatch(/protocol\t<string>\n\s+enum: SCTP, TCP, UDP/);
  });

  test("an unknown field is an error", async () => {
    const r = await server.kubectl(["explain", "pod.spec.nope"], { allowFail: true });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('field "nope" does not exist');
  });
});
