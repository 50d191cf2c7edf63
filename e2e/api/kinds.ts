// The twelve kinds as the tests see them: discovery facts from the reference (kinds.md section 2,
// rest-semantics.md section 9.2) and the fixture manifest of each (e2e/fixtures/<kind>.yaml).
import { readFileSync } from "node:fs";
import path from "node:path";
import YAML from "yaml";
import { expect } from "vitest";
import { FIXTURES_DIR, type ApiResponse } from "./harness";

export interface KindCase {
  kind: string;
  plural: string;
  singular: string;
  namespaced: boolean;
  shortNames: string[];
  fixtureFile: string;
  /** A JSON patch changing a field of the kind's own body, and where to read the new value back. */
  jsonPatch: { op: "replace" | "add"; path: string; value: unknown };
  patchedValue: (obj: any) => unknown;
  /** Objects of this kind that controllers put in every namespace (as on a real cluster). */
  inEveryNamespace: string[];
  /** Cluster-scoped objects of this kind that a fresh cluster already holds (none when absent). */
  onFreshCluster?: string[];
}

export const KINDS: KindCase[] = [
  {
    kind: "ConfigMap", plural: "configmaps", singular: "configmap", namespaced: true, shortNames: ["cm"],
    fixtureFile: "configmap.yaml",
    jsonPatch: { op: "replace", path: "/data/LOG_LEVEL", value: "debug" },
    patchedValue: (o) => o.data?.LOG_LEVEL,
    inEveryNamespace: ["kube-root-ca.crt"],
  },
  {
    kind: "Secret", plural: "secrets", singular: "secret", namespaced: true, shortNames: [],
    fixtureFile: "secret.yaml",
    jsonPatch: { op: "add", path: "/data/api-key", value: "YWJjMTIz" },
    patchedValue: (o) => o.data?.["api-key"],
    inEveryNamespace: [],
  },
  {
    kind: "Endpoints", plural: "endpoints", singular: "endpoints", namespaced: true, shortNames: ["ep"],
    fixtureFile: "endpoints.yaml",
    jsonPatch: { op: "replace", path: "/subsets/0/ports/0/port", value: 9443 },
    patchedValue: (o) => o.subsets?.[0]?.ports?.[0]?.port,
    inEveryNamespace: [],
  },
  {
    kind: "Event", plural: "events", singular: "event", namespaced: true, shortNames: ["ev"],
    fixtureFile: "event.yaml",
    jsonPatch: { op: "replace", path: "/count", value: 4 },
    patchedValue: (o) => o.count,
    inEveryNamespace: [],
  },
  {
    kind: "LimitRange", plural: "limitranges", singular: "limitrange", namespaced: true, shortNames: ["limits"],
    fixtureFile: "limitrange.yaml",
    jsonPatch: { op: "replace", path: "/spec/limits/0/max/cpu", value: "4" },
    patchedValue: (o) => o.spec?.limits?.[0]?.max?.cpu,
    inEveryNamespace: [],
  },
  {
    kind: "ResourceQuota", plural: "resourcequotas", singular: "resourcequota", namespaced: true, shortNames: ["quota"],
    fixtureFile: "resourcequota.yaml",
    jsonPatch: { op: "replace", path: "/spec/hard/pods", value: "40" },
    patchedValue: (o) => o.spec?.hard?.pods,
    inEveryNamespace: [],
  },
  {
    kind: "Pod", plural: "pods", singular: "pod", namespaced: true, shortNames: ["po"],
    fixtureFile: "pod.yaml",
    // The image is one of the few pod spec fields an update may change.
    jsonPatch: { op: "replace", path: "/spec/containers/0/image", value: "nginx:1.27.1" },
    patchedValue: (o) => o.spec?.containers?.[0]?.image,
    inEveryNamespace: [],
  },
  {
    kind: "PersistentVolumeClaim", plural: "persistentvolumeclaims", singular: "persistentvolumeclaim",
    namespaced: true, shortNames: ["pvc"],
    fixtureFile: "persistentvolumeclaim.yaml",
    // A claim's spec is immutable once created; patch its metadata instead.
    jsonPatch: { op: "add", path: "/metadata/annotations", value: { "shop.example.com/backup": "nightly" } },
    patchedValue: (o) => o.metadata?.annotations,
    inEveryNamespace: [],
  },
  {
    kind: "Service", plural: "services", singular: "service", namespaced: true, shortNames: ["svc"],
    fixtureFile: "service.yaml",
    jsonPatch: { op: "replace", path: "/spec/ports/0/targetPort", value: 8081 },
    patchedValue: (o) => o.spec?.ports?.[0]?.targetPort,
    inEveryNamespace: [],
  },
  {
    kind: "ServiceAccount", plural: "serviceaccounts", singular: "serviceaccount", namespaced: true, shortNames: ["sa"],
    fixtureFile: "serviceaccount.yaml",
    jsonPatch: { op: "replace", path: "/automountServiceAccountToken", value: true },
    patchedValue: (o) => o.automountServiceAccountToken,
    // The service-account controller gives every namespace its `default` ServiceAccount.
    inEveryNamespace: ["default"],
  },
  {
    kind: "PersistentVolume", plural: "persistentvolumes", singular: "persistentvolume", namespaced: false,
    shortNames: ["pv"],
    fixtureFile: "persistentvolume.yaml",
    jsonPatch: { op: "replace", path: "/spec/capacity/storage", value: "20Gi" },
    patchedValue: (o) => o.spec?.capacity?.storage,
    inEveryNamespace: [],
  },
  {
    kind: "SecurityContextConstraints", plural: "securitycontextconstraints", singular: "securitycontextconstraints",
    namespaced: false, shortNames: ["scc"],
    fixtureFile: "securitycontextconstraints.yaml",
    jsonPatch: { op: "replace", path: "/priority", value: 7 },
    patchedValue: (o) => o.priority,
    inEveryNamespace: [],
    // The default SecurityContextConstraints set, created at the first start as on OpenShift.
    onFreshCluster: [
      "anyuid", "hostaccess", "hostmount-anyuid", "hostnetwork", "hostnetwork-v2",
      "nonroot", "nonroot-v2", "privileged", "restricted", "restricted-v2",
    ],
  },
];

export const ALL_VERBS = ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"];

/** The fixture as an object, adapted to the namespace it is created in (never carries a namespace itself). */
export function loadFixture(k: KindCase, namespace?: string): any {
  const obj = YAML.parse(readFileSync(path.join(FIXTURES_DIR, k.fixtureFile), "utf8"));
  if (obj.metadata?.namespace !== undefined) throw new Error(`${k.fixtureFile} must not set a namespace`);
  // A (legacy) Event must name the namespace of its involved object, which is the namespace it lives in.
  if (k.kind === "Event" && namespace) obj.involvedObject.namespace = namespace;
  return obj;
}

/** Asserts a v1 Status error body with the Kubernetes reason and code (and exact message when given). */
export function expectStatus(res: ApiResponse, code: number, reason: string, message?: string | RegExp): void {
  const ctx = `${res.status} ${res.text.slice(0, 600)}`;
  expect(res.status, ctx).toBe(code);
  expect(res.body, `expected a JSON Status body, got: ${ctx}`).toBeTypeOf("object");
  expect(res.body.kind, ctx).toBe("Status");
  expect(res.body.apiVersion, ctx).toBe("v1");
  expect(res.body.status, ctx).toBe("Failure");
  expect(res.body.reason, ctx).toBe(reason);
  expect(res.body.code, ctx).toBe(code);
  expect(typeof res.body.message, ctx).toBe("string");
  if (typeof message === "string") expect(res.body.message, ctx).toBe(message);
  else if (message) expect(res.body.message, ctx).toMatch(message);
}
