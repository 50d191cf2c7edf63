import { describe, expect, it } from "vitest";
import { podReferences, relatedPods } from "./relations";

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
