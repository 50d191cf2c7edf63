import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StatusError } from "../status";
import { kindByPlural } from "../kinds";
import type { KubeObject } from "../kinds/types";
import type { Answer } from "../registry/registry";
import { createNamespace, eventually, cached, openCluster, write, type TestCluster } from "../controllers/test-cluster";
import { ServiceAccountAdmission, TOKEN_MOUNT_PATH } from "./service-account";

const pods = kindByPlural("pods")!;
const serviceAccounts = kindByPlural("serviceaccounts")!;
const objectOf = (a: Answer) => ("object" in a ? a.object : undefined) as KubeObject & { spec: any };

async function failure(p: Promise<unknown>): Promise<StatusError> {
  try { await p; } catch (e) { if (e instanceof StatusError) return e; throw e; }
  throw new Error("expected the request to fail");
}

const pod = (name: string, spec: object = {}) =>
  ({ metadata: { name }, spec: { containers: [{ name: "app", image: "nginx" }], ...spec } });

let c: TestCluster;
beforeAll(async () => {
  c = await openCluster(undefined, {
    admission: (registry) => {
      const cache = registry.store.objects;
      return [new ServiceAccountAdmission((namespace, name) => cache.get({ resource: "serviceaccounts", namespace, name })?.object, { catchUp: () => cache.catchUp() })];
    },
  });
  await createNamespace(c, "apps");
  await eventually(() => cached(c, "serviceaccounts", "apps", "default"), 5000, "default service account");
});
afterAll(async () => { await c.close(); });

describe("ServiceAccount admission", () => {
  it("gives a pod the default account and kube's projected token volume, mounted read-only everywhere", async () => {
    const created = objectOf(await c.registry.create(pods, "apps", pod("p", {
      initContainers: [{ name: "setup", image: "busybox" }],
      containers: [{ name: "app", image: "nginx", volumeMounts: [{ name: "data", mountPath: "/data" }] }, { name: "side", image: "nginx" }],
      volumes: [{ name: "data", emptyDir: {} }],
    }), write));
    const spec = created.spec;
    expect(spec.serviceAccountName).toBe("default");
    expect(spec.serviceAccount).toBe("default");
    const token = spec.volumes[1];
    expect(token.name).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(token.projected).toEqual({
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: "token" } },
        { configMap: { name: "kube-root-ca.crt", items: [{ key: "ca.crt", path: "ca.crt" }] } },
        { downwardAPI: { items: [{ path: "namespace", fieldRef: { apiVersion: "v1", fieldPath: "metadata.namespace" } }] } },
      ],
    });
    const mount = { name: token.name, readOnly: true, mountPath: TOKEN_MOUNT_PATH };
    expect(spec.initContainers[0].volumeMounts).toEqual([mount]);
    expect(spec.containers[0].volumeMounts).toEqual([{ name: "data", mountPath: "/data" }, mount]);
    expect(spec.containers[1].volumeMounts).toEqual([mount]);
  });

  it("refuses a pod whose account does not exist, with kube's message", async () => {
    const err = await failure(c.registry.create(pods, "apps", pod("p2", { serviceAccountName: "robot" }), write));
    expect(err.toStatus()).toMatchObject({
      code: 403, reason: "Forbidden", details: { name: "p2", kind: "pods" },
      message: 'pods "p2" is forbidden: error looking up service account apps/robot: serviceaccount "robot" not found',
    });
    await c.registry.create(serviceAccounts, "apps", { metadata: { name: "robot" } }, write);
    expect(objectOf(await c.registry.create(pods, "apps", pod("p2", { serviceAccountName: "robot" }), write)).spec.serviceAccount).toBe("robot");
  });

  it("mounts no token when the pod or, failing that, its account says not to", async () => {
    await c.registry.create(serviceAccounts, "apps", { metadata: { name: "quiet" }, automountServiceAccountToken: false, imagePullSecrets: [{ name: "registry" }] }, write);
    const off = objectOf(await c.registry.create(pods, "apps", pod("off", { automountServiceAccountToken: false }), write));
    expect(off.spec.volumes).toBeUndefined();
    expect(off.spec.containers[0].volumeMounts).toBeUndefined();
    const quiet = objectOf(await c.registry.create(pods, "apps", pod("quiet", { serviceAccountName: "quiet" }), write));
    expect(quiet.spec.volumes).toBeUndefined();
    // The account's pull secrets are copied when the pod names none.
    expect(quiet.spec.imagePullSecrets).toEqual([{ name: "registry" }]);
    const insists = objectOf(await c.registry.create(pods, "apps", pod("insists", { serviceAccountName: "quiet", automountServiceAccountToken: true, imagePullSecrets: [{ name: "mine" }] }), write));
    expect(insists.spec.volumes).toHaveLength(1);
    expect(insists.spec.imagePullSecrets).toEqual([{ name: "mine" }]);
  });

  it("respects a mount the user already put at the token path", async () => {
    const created = objectOf(await c.registry.create(pods, "apps", pod("own", {
      containers: [{ name: "app", image: "nginx", volumeMounts: [{ name: "mine", mountPath: TOKEN_MOUNT_PATH }] }],
      volumes: [{ name: "mine", emptyDir: {} }],
    }), write));
    expect(created.spec.volumes.map((v: { name: string }) => v.name)).toEqual(["mine"]);
    expect(created.spec.containers[0].volumeMounts).toEqual([{ name: "mine", mountPath: TOKEN_MOUNT_PATH }]);
  });

  it("leaves pod updates alone", async () => {
    const created = objectOf(await c.registry.create(pods, "apps", pod("upd"), write));
    const updated = objectOf(await c.registry.update(pods, "apps", "upd", { ...created, metadata: { ...created.metadata, labels: { a: "b" } } }, write));
    expect(updated.spec.volumes).toEqual(created.spec.volumes);
  });

  it("refuses mirror pods that name an account, without changing them", async () => {
    const err = await failure(c.registry.create(pods, "apps", {
      metadata: { name: "mirror", annotations: { "kubernetes.io/config.mirror": "x" } },
      spec: { serviceAccountName: "default", containers: [{ name: "app", image: "nginx" }] },
    }, write));
    expect(err.message).toBe('pods "mirror" is forbidden: a mirror pod may not reference service accounts');
    const plain = objectOf(await c.registry.create(pods, "apps", {
      metadata: { name: "mirror", annotations: { "kubernetes.io/config.mirror": "x" } }, spec: { nodeName: "node-1", containers: [{ name: "app", image: "nginx" }] },
    }, write));
    expect(plain.spec.serviceAccountName).toBeUndefined();
    expect(plain.spec.volumes).toBeUndefined();
  });

  it("looks again for the default account for a while, since a controller creates it just after the namespace", async () => {
    const sleeps: number[] = [];
    let lookups = 0;
    const sa = { metadata: { name: "default", namespace: "new" } };
    const plugin = new ServiceAccountAdmission(() => (++lookups >= 4 ? sa : undefined), { sleep: async (ms) => { sleeps.push(ms); }, random: () => 0.5 });
    const object = pod("p") as unknown as KubeObject;
    await plugin.admit({ operation: "CREATE", kind: pods, namespace: "new", name: "p", subresource: "", object, dryRun: false });
    expect(sleeps).toEqual([150, 150]);
    expect((object.spec as any).serviceAccountName).toBe("default");

    const never = new ServiceAccountAdmission(() => undefined, { sleep: async (ms) => { sleeps.push(ms); }, random: () => 0 });
    sleeps.length = 0;
    const err = await failure(never.admit({ operation: "CREATE", kind: pods, namespace: "new", name: "q", subresource: "", object: pod("q") as unknown as KubeObject, dryRun: false }));
    expect(err.message).toBe('pods "q" is forbidden: error looking up service account new/default: serviceaccount "default" not found');
    expect(sleeps).toHaveLength(9);
  });
});
