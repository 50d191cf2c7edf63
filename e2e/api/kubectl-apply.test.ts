// kubectl 1.32 client-side apply against every one of the twelve kinds: `apply -f` creates the object and
// stores kubectl.kubernetes.io/last-applied-configuration; a second manifest that changes a field and drops
// others shows up in `kubectl diff`, changes nothing under `apply --dry-run=server`, and after `apply` the
// stored object carries the change and the removal (the three-way patch kubectl computes from the
// last-applied annotation is a strategic merge patch, so this also exercises the server's SMP: deleted map
// keys as nulls, `$setElementOrder`, atomic lists replaced whole). One server for the whole file.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import YAML from "yaml";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createNamespaces, rv, startServer, stopAll, type Server } from "./harness";
import { KINDS, loadFixture, type KindCase } from "./kinds";

const NS = "e2e-kubectl-apply";
const LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";
const TEMP_LABEL = "shop.example.com/temporary";
const REVISION = "shop.example.com/revision";

let server: Server;
let tmp: string;

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "cluster-core-apply-"));
  server = await startServer();
  await createNamespaces(server, NS);
}, 90_000);

afterAll(async () => {
  await stopAll();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
}, 60_000);

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");

interface ApplyCase {
  /** Changes the second manifest in a way the kind accepts on update (an edit and a removal). */
  change: (m: any) => void;
  /** Asserts the change and the removal on the stored object. */
  check: (live: any) => void;
  /** Line starts `kubectl diff` must print for the kind-specific change (besides the metadata ones). */
  diffLines: string[];
}

// Per kind: a changed and a removed field that the kind lets an update touch.
const CASES: Record<string, ApplyCase> = {
  ConfigMap: {
    change: (m) => {
      m.data.LOG_LEVEL = "debug";
      delete m.data["nginx.conf"];
    },
    check: (o) => expect(o.data).toEqual({ LOG_LEVEL: "debug", FEATURE_FLAGS: "search,recommendations" }),
    diffLines: ["-  LOG_LEVEL: info", "+  LOG_LEVEL: debug", "-  nginx.conf: |"],
  },
  Secret: {
    change: (m) => {
      m.data.password = b64("rotated-password");
      delete m.data.DATABASE_URL;
    },
    check: (o) => {
      expect(o.data).toEqual({ username: "c3RvcmVmcm9udA==", password: b64("rotated-password") });
      expect(o.type).toBe("Opaque");
    },
    // kubectl diff masks secret values, but a removed key is still a removed line
    diffLines: ["-  DATABASE_URL: "],
  },
  Endpoints: {
    // subsets (and everything in them) are atomic lists: the new subsets replace the old ones whole
    change: (m) => {
      m.subsets[0].addresses = [m.subsets[0].addresses[0]];
      m.subsets[0].ports[0].port = 9443;
    },
    check: (o) =>
      expect(o.subsets).toEqual([
        {
          addresses: [{ ip: "10.20.30.41", hostname: "billing-a" }],
          ports: [{ name: "https", port: 9443, protocol: "TCP" }],
        },
      ]),
    diffLines: ["-  - hostname: billing-b", "-    port: 8443", "+    port: 9443"],
  },
  Event: {
    change: (m) => {
      m.message = 'Successfully pulled image "nginx:1.27.1" in 0.811s';
      m.count = 2;
      delete m.source.host;
    },
    check: (o) => {
      expect(o.message).toBe('Successfully pulled image "nginx:1.27.1" in 0.811s');
      expect(o.count).toBe(2);
      expect(o.source).toEqual({ component: "kubelet" });
    },
    diffLines: ["+count: 2", "-  host: worker-1"],
  },
  LimitRange: {
    change: (m) => {
      m.spec.limits[0].max.cpu = "4";
      m.spec.limits = m.spec.limits.filter((l: any) => l.type !== "PersistentVolumeClaim");
    },
    check: (o) => {
      expect(o.spec.limits).toHaveLength(1);
      expect(o.spec.limits[0].type).toBe("Container");
      expect(o.spec.limits[0].max).toEqual({ cpu: "4", memory: "2Gi" });
    },
    diffLines: ['-      cpu: "2"', '+      cpu: "4"', "-    type: PersistentVolumeClaim"],
  },
  ResourceQuota: {
    change: (m) => {
      m.spec.hard.pods = "40";
      delete m.spec.hard.configmaps;
    },
    check: (o) =>
      expect(o.spec.hard).toEqual({
        pods: "40",
        "requests.cpu": "4",
        "requests.memory": "8Gi",
        "limits.cpu": "8",
        "limits.memory": "16Gi",
      }),
    diffLines: ['-    configmaps: "30"', '-    pods: "20"', '+    pods: "40"'],
  },
  Pod: {
    // an update may change a container image; everything else in a pod spec is fixed
    change: (m) => {
      m.spec.containers[0].image = "nginx:1.27.1";
      delete m.metadata.annotations["prometheus.io/port"];
    },
    check: (o) => {
      expect(o.spec.containers.map((c: any) => [c.name, c.image])).toEqual([["web", "nginx:1.27.1"]]);
      expect(o.metadata.annotations["prometheus.io/port"]).toBeUndefined();
      expect(o.metadata.annotations["prometheus.io/scrape"]).toBe("true");
      // status is not the client's: it survives the apply
      expect(o.status?.phase).toBe("Pending");
    },
    diffLines: ["-    image: nginx:1.27.0", "+    image: nginx:1.27.1", '-    prometheus.io/port: "9113"'],
  },
  PersistentVolumeClaim: {
    // the spec of a claim is immutable after creation; only metadata changes
    change: (m) => {
      delete m.metadata.labels["app.kubernetes.io/component"];
    },
    check: (o) => {
      expect(o.metadata.labels["app.kubernetes.io/component"]).toBeUndefined();
      expect(o.spec.resources).toEqual({ requests: { storage: "5Gi" } });
    },
    diffLines: ["-    app.kubernetes.io/component: storage"],
  },
  Service: {
    // ports merge by port: the added port goes where $setElementOrder (sent by kubectl) puts it, the end
    change: (m) => {
      m.spec.ports.push({ name: "https", port: 443, targetPort: 8443, protocol: "TCP" });
      delete m.spec.selector["app.kubernetes.io/component"];
    },
    check: (o) => {
      expect(o.spec.ports.map((p: any) => [p.name, p.port, p.targetPort])).toEqual([
        ["http", 80, 8080],
        ["metrics", 9113, "metrics"],
        ["https", 443, 8443],
      ]);
      expect(o.spec.selector).toEqual({ "app.kubernetes.io/name": "storefront" });
      expect(o.status).toEqual({ loadBalancer: {} });
    },
    diffLines: ["+  - name: https", "+    port: 443", "-    app.kubernetes.io/component: web"],
  },
  ServiceAccount: {
    change: (m) => {
      m.automountServiceAccountToken = true;
      delete m.imagePullSecrets;
    },
    check: (o) => {
      expect(o.automountServiceAccountToken).toBe(true);
      expect(o.imagePullSecrets).toBeUndefined();
      expect(o.secrets).toEqual([{ name: "storefront-deployer-token" }]);
    },
    diffLines: ["-automountServiceAccountToken: false", "+automountServiceAccountToken: true", "-- name: registry-credentials"],
  },
  PersistentVolume: {
    // capacity and storageClassName may change; the volume source may not
    change: (m) => {
      m.spec.capacity.storage = "20Gi";
      delete m.spec.storageClassName;
    },
    check: (o) => {
      expect(o.spec.capacity).toEqual({ storage: "20Gi" });
      expect(o.spec.storageClassName).toBeUndefined();
      expect(o.spec.nfs).toEqual({ server: "10.0.0.20", path: "/exports/shop/uploads", readOnly: false });
      expect(o.spec.persistentVolumeReclaimPolicy).toBe("Retain");
    },
    diffLines: ["-    storage: 10Gi", "+    storage: 20Gi", "-  storageClassName: nfs"],
  },
  SecurityContextConstraints: {
    change: (m) => {
      m.priority = 7;
      m.requiredDropCapabilities = ["KILL", "MKNOD"];
    },
    check: (o) => {
      expect(o.priority).toBe(7);
      expect(o.requiredDropCapabilities).toEqual(["KILL", "MKNOD"]);
    },
    diffLines: ["-priority: 5", "+priority: 7", "-- SETUID"],
  },
};

const nsArgs = (k: KindCase) => (k.namespaced ? ["-n", NS] : []);

async function getJson(k: KindCase, name: string): Promise<any> {
  const r = await server.kubectl(["get", k.plural, name, ...nsArgs(k), "-o", "json"]);
  return JSON.parse(r.stdout);
}

/** What kubectl stores as last-applied: the manifest as JSON, with the namespace it was applied to. */
function expectedLastApplied(k: KindCase, manifest: any): any {
  const m = structuredClone(manifest);
  if (k.namespaced) m.metadata.namespace = NS;
  return m;
}

function writeManifest(name: string, obj: unknown): string {
  const f = path.join(tmp, name);
  writeFileSync(f, YAML.stringify(obj));
  return f;
}

describe("kubectl apply, diff and apply --dry-run=server", { timeout: 120_000 }, () => {
  test("every kind has an apply case", () => {
    expect(Object.keys(CASES).sort()).toEqual(KINDS.map((k) => k.kind).sort());
  });

  test.each(KINDS.map((k) => [k.kind, k] as const))("%s", async (_, k) => {
    const c = CASES[k.kind];
    const first = loadFixture(k, NS);
    first.metadata.labels = { ...first.metadata.labels, [TEMP_LABEL]: "scratch" };
    first.metadata.annotations = { ...first.metadata.annotations, [REVISION]: "one" };
    const name: string = first.metadata.name;
    const ref = `${k.kind.toLowerCase()}/${name}`;
    const firstFile = writeManifest(`${k.plural}-1.yaml`, first);

    // 1. apply creates the object and records the manifest in the last-applied annotation
    const created = await server.kubectl(["apply", "-f", firstFile, ...nsArgs(k)]);
    expect(created.stdout.trim()).toBe(`${ref} created`);
    const v1 = await getJson(k, name);
    expect(v1.metadata.labels[TEMP_LABEL]).toBe("scratch");
    expect(v1.metadata.annotations[REVISION]).toBe("one");
    expect(v1.metadata.annotations[LAST_APPLIED], "last-applied annotation missing").toBeTypeOf("string");
    expect(JSON.parse(v1.metadata.annotations[LAST_APPLIED])).toEqual(expectedLastApplied(k, first));

    // the second manifest: a label removed, an annotation changed, and the kind's own edit
    const second = structuredClone(first);
    delete second.metadata.labels[TEMP_LABEL];
    second.metadata.annotations[REVISION] = "two";
    c.change(second);
    const secondFile = writeManifest(`${k.plural}-2.yaml`, second);

    // 2. diff shows the pending change (exit code 1 = differences found) and writes nothing
    const diff = await server.kubectl(["diff", "-f", secondFile, ...nsArgs(k)], { allowFail: true });
    expect(diff.code, `kubectl diff failed:\n${diff.stderr}\n${diff.stdout}`).toBe(1);
    const lines = diff.stdout.split("\n");
    for (const want of [`-    ${REVISION}: one`, `+    ${REVISION}: two`, `-    ${TEMP_LABEL}: scratch`, ...c.diffLines]) {
      expect(lines.some((l) => l.startsWith(want)), `kubectl diff lacks ${JSON.stringify(want)}:\n${diff.stdout}`).toBe(true);
    }
    expect(await getJson(k, name)).toEqual(v1);

    // 3. a server-side dry run reports the change but stores nothing
    const dry = await server.kubectl(["apply", "--dry-run=server", "-f", secondFile, ...nsArgs(k)]);
    expect(dry.stdout.trim()).toBe(`${ref} configured (server dry run)`);
    expect(await getJson(k, name)).toEqual(v1);

    // 4. apply: the change and the removals are stored, the annotation follows the new manifest
    const applied = await server.kubectl(["apply", "-f", secondFile, ...nsArgs(k)]);
    expect(applied.stdout.trim()).toBe(`${ref} configured`);
    const v2 = await getJson(k, name);
    expect(v2.metadata.uid).toBe(v1.metadata.uid);
    expect(rv(v2.metadata.resourceVersion)).toBeGreaterThan(rv(v1.metadata.resourceVersion));
    expect(v2.metadata.labels[TEMP_LABEL]).toBeUndefined();
    expect(v2.metadata.labels["app.kubernetes.io/part-of"]).toBe("shop");
    expect(v2.metadata.annotations[REVISION]).toBe("two");
    c.check(v2);
    expect(JSON.parse(v2.metadata.annotations[LAST_APPLIED])).toEqual(expectedLastApplied(k, second));

    // 5. nothing left to apply: diff is empty (exit 0) and apply reports the object unchanged
    const diffAfter = await server.kubectl(["diff", "-f", secondFile, ...nsArgs(k)], { allowFail: true });
    expect(diffAfter.code, `kubectl diff after apply:\n${diffAfter.stderr}\n${diffAfter.stdout}`).toBe(0);
    expect(diffAfter.stdout).toBe("");
    const again = await server.kubectl(["apply", "-f", secondFile, ...nsArgs(k)]);
    expect(again.stdout.trim()).toBe(`${ref} unchanged`);
    expect((await getJson(k, name)).metadata.resourceVersion).toBe(v2.metadata.resourceVersion);
  });

  test("apply of an invalid manifest is refused with the server's 422 and changes nothing", async () => {
    const k = KINDS.find((x) => x.kind === "Service")!;
    const svc = loadFixture(k, NS);
    svc.metadata.name = "apply-invalid";
    const file = writeManifest("service-invalid-1.yaml", svc);
    await server.kubectl(["apply", "-f", file, "-n", NS]);
    const before = await getJson(k, "apply-invalid");

    svc.spec.type = "Bogus";
    const bad = writeManifest("service-invalid-2.yaml", svc);
    const refused = await server.kubectl(["apply", "-f", bad, "-n", NS], { allowFail: true });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(
      'The Service "apply-invalid" is invalid: spec.type: Unsupported value: "Bogus": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
    );
    expect(await getJson(k, "apply-invalid")).toEqual(before);
  });
});
