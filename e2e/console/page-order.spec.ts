// Every kind's page in one order (issue 22, item 5: the Service page put Metadata before the Service's own
// details, unlike the Pod page): the kind's own details first (its section, or its content when it has none),
// then metadata, dependents, relations, the rest of the spec, status and Events.
import { expect } from "@playwright/test";
import { kinds } from "../../lib/kinds";
import { objectHref } from "../../lib/client/console-routes";
import { ensureNamespaces, ensureObjects, kubectl, signIn, test } from "./support";

const NS = "e2e-page-order";
test.describe.configure({ timeout: 300_000 });

/** The generic panels, in the order every page shows them (those a page has). */
const GENERIC = ["metadata", "owners", "dependents", "relations", "status", "object-events"];
/** The kind's own details: its section (`data`; the pod and CRD pages' own sections) or, without one, its content. */
const OWN = ["data", "pod-details", "crd-details", "content"];

test.beforeAll(async () => {
  await ensureNamespaces(NS);
  await ensureObjects(
    { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "cm", namespace: NS }, data: { a: "b" } },
    { apiVersion: "v1", kind: "Secret", metadata: { name: "sec", namespace: NS }, data: { a: "Yg==" } },
    { apiVersion: "v1", kind: "Service", metadata: { name: "svc", namespace: NS }, spec: { selector: { app: "web" }, ports: [{ port: 80 }] } },
    { apiVersion: "v1", kind: "Pod", metadata: { name: "pod", namespace: NS }, spec: { containers: [{ name: "app", image: "nginx" }] } },
    { apiVersion: "v1", kind: "PersistentVolumeClaim", metadata: { name: "pvc", namespace: NS }, spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } } },
    { apiVersion: "v1", kind: "PersistentVolume", metadata: { name: "e2e-page-order-pv" }, spec: { capacity: { storage: "1Gi" }, accessModes: ["ReadWriteOnce"], hostPath: { path: "/tmp/x" }, storageClassName: "none" } },
    { apiVersion: "v1", kind: "ResourceQuota", metadata: { name: "quota", namespace: NS }, spec: { hard: { pods: "10" } } },
    { apiVersion: "v1", kind: "LimitRange", metadata: { name: "limits", namespace: NS }, spec: { limits: [{ type: "Container", max: { cpu: "2" } }] } },
    { apiVersion: "v1", kind: "Endpoints", metadata: { name: "manual", namespace: NS }, subsets: [{ addresses: [{ ip: "10.0.0.1" }], ports: [{ port: 80 }] }] },
    { apiVersion: "v1", kind: "Event", metadata: { name: "pod.seen", namespace: NS }, involvedObject: { apiVersion: "v1", kind: "Pod", name: "pod", namespace: NS }, reason: "Seen", message: "seen", type: "Normal", count: 1 },
    { apiVersion: "rbac.authorization.k8s.io/v1", kind: "Role", metadata: { name: "reader", namespace: NS }, rules: [{ apiGroups: [""], resources: ["pods"], verbs: ["get"] }] },
    { apiVersion: "rbac.authorization.k8s.io/v1", kind: "RoleBinding", metadata: { name: "reader", namespace: NS }, roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "reader" }, subjects: [{ kind: "User", name: "someone", apiGroup: "rbac.authorization.k8s.io" }] },
    { apiVersion: "coordination.k8s.io/v1", kind: "Lease", metadata: { name: "lease", namespace: NS }, spec: { holderIdentity: "me" } },
    {
      apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", metadata: { name: "widgets.page-order.example.com" },
      spec: {
        group: "page-order.example.com", scope: "Namespaced", names: { plural: "widgets", singular: "widget", kind: "Widget" },
        versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } } }],
      },
    },
  );
});

test("every kind's page shows the kind's own details first, then the generic panels in one order", async ({ page }) => {
  // One object of each kind: the ones made above, or the first kubectl finds (cluster roles, bindings, SCCs...).
  const targets: { kind: (typeof kinds)[number]; name: string; namespace?: string }[] = [];
  for (const kind of kinds) {
    const resource = kind.group ? `${kind.plural}.${kind.group}` : kind.plural;
    const names = (await kubectl(["get", resource, ...(kind.namespaced ? ["-n", NS] : []), "-o", "jsonpath={.items[*].metadata.name}"])).split(" ").filter(Boolean);
    expect(names.length, `an object of kind ${kind.kind}`).toBeGreaterThan(0);
    targets.push({ kind, name: names[0], namespace: kind.namespaced ? NS : undefined });
  }
  await signIn(page, "/");
  const orders: Record<string, string[]> = {};
  for (const { kind, name, namespace } of targets) {
    await page.goto(`${objectHref(kind, namespace, name)}${kind.kind === "Namespace" ? "?tab=overview" : ""}`);
    const overview = page.getByRole("region", { name: `Overview of ${kind.kind} ${name}` });
    await expect(overview.getByTestId("metadata")).toBeVisible({ timeout: 60_000 });
    orders[kind.kind] = await overview.evaluate((el) => [...el.querySelectorAll(":scope > [data-testid]")].map((s) => s.getAttribute("data-testid")!));
  }
  for (const [kind, order] of Object.entries(orders)) {
    const own = order.findIndex((id) => OWN.includes(id));
    expect(own, `${kind}: its own details (${order.join(", ")})`).toBeGreaterThanOrEqual(0);
    expect(own, `${kind}: its own details before its metadata (${order.join(", ")})`).toBeLessThan(order.indexOf("metadata"));
    const generic = order.filter((id) => GENERIC.includes(id));
    expect(generic, `${kind}: the generic panels in one order`).toEqual(GENERIC.filter((id) => generic.includes(id)));
  }
});
