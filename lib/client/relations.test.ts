import { describe, expect, it } from "vitest";
import { podReferences, podUsages, relatedPods, servicesSelecting, tokenSecretsOf } from "./relations";

const pod = (name: string, spec: object, labels: Record<string, string> = {}) => ({ kind: "Pod", metadata: { name, namespace: "ns", labels }, spec });

const pods = [
  pod("a", {
    serviceAccountName: "builder",
    volumes: [{ name: "v", secret: { secretName: "tls" } }, { name: "c", persistentVolumeClaim: { claimName: "data" } }, { name: "p", projected: { sources: [{ configMap: { name: "proj" } }] } }],
    containers: [{ name: "x", env: [{ name: "E", valueFrom: { configMapKeyRef: { name: "cfg", key: "k" } } }], envFrom: [{ secretRef: { name: "env-secret" } }] }],
  }, { app: "web" }),
  pod("b", { containers: [{ name: "y" }], imagePullSecrets: [{ name: "pull" }] }, { app: "db" }),
];

describe("relations", () => {
  it("collects every reference a pod makes", () => {
    const refs = podReferences(pods[0]);
    expect([...refs.secrets].sort()).toEqual(["env-secret", "tls"]);
    expect([...refs.configMaps].sort()).toEqual(["cfg", "proj"]);
    expect([...refs.claims]).toEqual(["data"]);
    expect(refs.serviceAccount).toBe("builder");
    expect(podReferences(pods[1]).serviceAccount).toBe("default");
  });

  it("finds the pods using a Secret, ConfigMap, claim or ServiceAccount, and the pods a Service selects", () => {
    const names = (kind: string, obj: object) => relatedPods(obj as never, kind, pods as never)!.pods.map((p) => p.metadata.name);
    expect(names("Secret", { metadata: { name: "pull", namespace: "ns" } })).toEqual(["b"]);
    expect(names("ConfigMap", { metadata: { name: "cfg", namespace: "ns" } })).toEqual(["a"]);
    expect(names("PersistentVolumeClaim", { metadata: { name: "data", namespace: "ns" } })).toEqual(["a"]);
    expect(names("ServiceAccount", { metadata: { name: "default", namespace: "ns" } })).toEqual(["b"]);
    expect(names("Service", { metadata: { name: "s", namespace: "ns" }, spec: { selector: { app: "web" } } })).toEqual(["a"]);
    expect(names("Service", { metadata: { name: "s", namespace: "other" }, spec: { selector: { app: "web" } } })).toEqual([]);
    expect(relatedPods({ metadata: { name: "x" } } as never, "LimitRange", pods as never)).toBeUndefined();
  });
});

describe("podUsages and servicesSelecting", () => {
  it("says how a pod uses each object", () => {
    const usages = (podUsages(pods[0] as never) as { kind: string; name: string; via: string[] }[]).map((u) => `${u.kind}/${u.name}: ${u.via.join("; ")}`);
    expect(usages).toEqual([
      "ServiceAccount/builder: runs as",
      "ConfigMap/cfg: env E in x",
      "ConfigMap/proj: volume p",
      "Secret/env-secret: envFrom in x",
      "Secret/tls: volume v",
      "PersistentVolumeClaim/data: volume c",
    ]);
    expect(podUsages(pods[1] as never).map((u) => `${u.kind}/${u.name}`)).toEqual(["ServiceAccount/default", "Secret/pull"]);
  });

  it("finds the Services whose selector picks the pod, in its namespace only", () => {
    const svc = (name: string, namespace: string, selector?: object) => ({ metadata: { name, namespace }, spec: { selector } });
    const services = [svc("web", "ns", { app: "web" }), svc("all-web", "other", { app: "web" }), svc("manual", "ns"), svc("db", "ns", { app: "db" })];
    expect(servicesSelecting(pods[0] as never, services as never).map((s) => s.metadata.name)).toEqual(["web"]);
  });
});

describe("tokenSecretsOf", () => {
  it("finds the token Secrets annotated with the account's name (and its uid when recorded)", () => {
    const sa = { metadata: { name: "builder", namespace: "ns", uid: "u1" } };
    const secret = (name: string, type: string, annotations: Record<string, string>, namespace = "ns") => ({ metadata: { name, namespace, annotations }, type });
    const secrets = [
      secret("builder-token", "kubernetes.io/service-account-token", { "kubernetes.io/service-account.name": "builder", "kubernetes.io/service-account.uid": "u1" }),
      secret("old-token", "kubernetes.io/service-account-token", { "kubernetes.io/service-account.name": "builder", "kubernetes.io/service-account.uid": "u0" }),
      secret("fresh-token", "kubernetes.io/service-account-token", { "kubernetes.io/service-account.name": "builder" }),
      secret("opaque", "Opaque", { "kubernetes.io/service-account.name": "builder" }),
      secret("elsewhere", "kubernetes.io/service-account-token", { "kubernetes.io/service-account.name": "builder" }, "other"),
    ];
    expect(tokenSecretsOf(sa as never, secrets as never).map((s) => s.metadata.name)).toEqual(["builder-token", "fresh-token"]);
  });
});
