// The console shows what the controllers and admission do: a Service's allocated addresses and its live
// Endpoints, a namespace's quota bars and limit ranges, the claim <-> volume binding, the SCC a pod was
// admitted by with its effective security context, and an admission refusal (403) shown in place with
// kube's message. Every object is created through the API (kubectl), as a user or a controller would.
import { expect, type Page } from "@playwright/test";
import { stringify } from "yaml";
import { ensureNamespaces, kubectl, setEditorText, shot, signIn, test, uniqueName } from "./support";

const SERVICES = "e2e-gov-svc";
const QUOTA = "e2e-gov-quota";
const REFUSE = "e2e-gov-refuse";
const STORAGE = "e2e-gov-storage";

test.beforeAll(() => ensureNamespaces(SERVICES, QUOTA, REFUSE, STORAGE));

const create = (obj: object) => kubectl(["create", "--validate=false", "-f", "-"], JSON.stringify(obj));

const pod = (namespace: string, name: string, labels: Record<string, string> = {}, extra: Record<string, unknown> = {}) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name, namespace, labels },
  spec: {
    containers: [{ name: "app", image: "registry.example/app:1", ports: [{ containerPort: 8080 }], resources: { requests: { cpu: "250m" }, limits: { cpu: "500m" } } }],
    ...extra,
  },
});

/** Plays the kubelet: the pod runs at `ip`, ready or not. */
function setPodStatus(namespace: string, name: string, ip: string, ready: boolean) {
  const status = { phase: "Running", podIP: ip, podIPs: [{ ip }], conditions: [{ type: "Ready", status: ready ? "True" : "False" }] };
  return kubectl(["patch", "-n", namespace, "pod", name, "--subresource=status", "--type=merge", "-p", JSON.stringify({ status })]);
}

const address = (page: Page, ip: string) => page.locator(`[data-testid=endpoint-address][data-ip="${ip}"]`);

test("a Service page shows hand-written Endpoints, ready and not ready, and follows their changes", async ({ page }) => {
  const name = uniqueName("manual");
  await create({ apiVersion: "v1", kind: "Service", metadata: { name, namespace: SERVICES }, spec: { ports: [{ name: "http", port: 80, targetPort: 8080 }] } });
  const endpoints = (ready: string[], notReady: string[]) => ({
    apiVersion: "v1",
    kind: "Endpoints",
    metadata: { name, namespace: SERVICES },
    subsets: [
      {
        addresses: ready.map((ip) => ({ ip, targetRef: { kind: "Pod", name: `pod-${ip.split(".").pop()}`, namespace: SERVICES } })),
        notReadyAddresses: notReady.map((ip) => ({ ip })),
        ports: [{ name: "http", port: 8080, protocol: "TCP" }],
      },
    ],
  });
  await create(endpoints(["10.2.0.1"], ["10.2.0.2"]));

  await signIn(page, `/namespaces/${SERVICES}/services/${name}`);
  await expect(page.getByTestId("service-type")).toHaveText("ClusterIP");
  await expect(page.getByTestId("service-port")).toContainText("8080");
  await expect(address(page, "10.2.0.1")).toHaveAttribute("data-ready", "true");
  await expect(address(page, "10.2.0.1").getByRole("link", { name: "pod-1" })).toHaveAttribute("href", `/namespaces/${SERVICES}/pods/pod-1`);
  await expect(address(page, "10.2.0.2")).toHaveAttribute("data-ready", "false");
  await expect(page.getByTestId("endpoints-summary")).toHaveText("(1 ready, 1 not ready)");

  // Live: the second address becomes ready without a reload.
  await kubectl(["replace", "--validate=false", "-f", "-"], JSON.stringify(endpoints(["10.2.0.1", "10.2.0.2"], [])));
  await expect(address(page, "10.2.0.2")).toHaveAttribute("data-ready", "true");
  await expect(page.getByTestId("endpoints-summary")).toHaveText("(2 ready, 0 not ready)");
});

test("a NodePort Service shows its allocated cluster IP and node port, and the endpoints controller's pods live", async ({ page }) => {
  const name = uniqueName("web");
  const app = uniqueName("app");
  await create({
    apiVersion: "v1",
    kind: "Service",
    metadata: { name, namespace: SERVICES },
    spec: { type: "NodePort", selector: { app }, ports: [{ name: "http", port: 80, targetPort: 8080 }] },
  });
  const [a, b] = [`${app}-a`, `${app}-b`];
  // Scheduled pods (a pod has an IP only on a node): kube's endpoints controller sends each address's
  // nodeName, and Endpoints validation refuses an empty one.
  await create(pod(SERVICES, a, { app }, { nodeName: "node-1" }));
  await create(pod(SERVICES, b, { app }, { nodeName: "node-1" }));
  await setPodStatus(SERVICES, a, "10.1.0.5", true);
  await setPodStatus(SERVICES, b, "10.1.0.6", false);

  await signIn(page, `/namespaces/${SERVICES}/services/${name}`);
  await expect(page.getByTestId("service-type")).toHaveText("NodePort");
  // Allocation (server): an IP from SERVICE_CLUSTER_IP_RANGE and a port from SERVICE_NODE_PORT_RANGE.
  await expect(page.getByTestId("cluster-ips")).toHaveText(/^\d+\.\d+\.\d+\.\d+/);
  await expect(page.getByTestId("node-port")).toHaveText(/^3\d{4}$/);
  await expect(page.getByTestId("ip-families")).toContainText("IPv4");

  // The endpoints controller (server) lists the ready pod as ready and the other as not ready.
  await expect(address(page, "10.1.0.5")).toHaveAttribute("data-ready", "true");
  await expect(address(page, "10.1.0.5").getByRole("link", { name: a })).toBeVisible();
  await expect(address(page, "10.1.0.5")).toContainText("node-1");
  await expect(address(page, "10.1.0.6")).toHaveAttribute("data-ready", "false");
  await shot(page, "service-endpoints");

  await setPodStatus(SERVICES, b, "10.1.0.6", true);
  await expect(address(page, "10.1.0.6")).toHaveAttribute("data-ready", "true");
  await kubectl(["delete", "-n", SERVICES, "pod", a, "--wait=false"]);
  await expect(address(page, "10.1.0.5")).toHaveCount(0);
});

test("the namespace view shows quota bars that follow usage, and its limit ranges", async ({ page }) => {
  const quota = uniqueName("compute");
  await create({ apiVersion: "v1", kind: "ResourceQuota", metadata: { name: quota, namespace: QUOTA }, spec: { hard: { pods: "4", "requests.cpu": "2" } } });
  await create({
    apiVersion: "v1",
    kind: "LimitRange",
    metadata: { name: uniqueName("defaults"), namespace: QUOTA },
    spec: { limits: [{ type: "Container", max: { cpu: "1" }, default: { cpu: "500m" }, defaultRequest: { cpu: "250m" } }] },
  });

  await signIn(page, `/namespaces/${QUOTA}`);
  const panel = page.getByTestId("quota-panel");
  const bars = panel.locator(`[data-testid=namespace-quota][data-name="${quota}"]`);
  await expect(bars.locator("[data-testid=quota-row]")).toHaveCount(2);
  await expect(panel.getByTestId("limit-range-row").first()).toContainText("250m");
  await expect(panel.getByTestId("limit-range-row").first()).toContainText("500m");

  // The quota controller (server) counts the namespace; new pods move the bars without a reload.
  const row = (resource: string) => bars.locator(`[data-testid=quota-row][data-resource="${resource}"]`);
  await expect(row("pods").getByTestId("quota-numbers")).toHaveText("0 / 4");
  await create(pod(QUOTA, uniqueName("p")));
  await expect(row("pods").getByTestId("quota-numbers")).toHaveText("1 / 4");
  await expect(row("requests.cpu").getByTestId("quota-numbers")).toHaveText("250m / 2");
  await expect(row("pods").getByRole("meter")).toHaveAttribute("aria-valuenow", "25");
  await create(pod(QUOTA, uniqueName("p")));
  await expect(row("pods").getByTestId("quota-numbers")).toHaveText("2 / 4");
  await expect(row("requests.cpu").getByRole("meter")).toHaveAttribute("aria-valuenow", "25");
  await shot(page, "namespace-quota-bars");
});

test("a create refused by admission shows kube's 403 message in place, its reasons on separate lines", async ({ page }) => {
  const quota = uniqueName("no-pods");
  await create({ apiVersion: "v1", kind: "ResourceQuota", metadata: { name: quota, namespace: REFUSE }, spec: { hard: { pods: "0" } } });
  // Quota admission enforces status.hard, which the quota controller fills in; wait briefly for it.
  for (let i = 0; i < 20; i++) {
    const hard = await kubectl(["get", "-n", REFUSE, "resourcequota", quota, "-o", "jsonpath={.status.hard.pods}"]);
    if (hard.trim() === "0") break;
    await new Promise((r) => setTimeout(r, 250));
  }

  const name = uniqueName("refused");
  await signIn(page, `/create/pods?namespace=${REFUSE}`);
  await setEditorText(page, stringify(pod(REFUSE, name)));
  await page.getByTestId("create-submit").click();

  const error = page.getByTestId("save-error");
  await expect(error).toHaveAttribute("data-code", "403");
  await expect(page.getByTestId("refused-heading")).toHaveText("Refused by the server (403 Forbidden)");
  await expect(page.getByTestId("error-summary")).toContainText(`pods "${name}" is forbidden: exceeded quota: ${quota}`);
  await expect(page.getByTestId("reason-list").locator("li")).toHaveText(["requested: pods=1", "used: pods=0", "limited: pods=0"]);
  await expect(page.getByTestId("full-message")).toHaveText(`pods "${name}" is forbidden: exceeded quota: ${quota}, requested: pods=1, used: pods=0, limited: pods=0`);
  // Still on the create view with the user's YAML: nothing was created.
  await expect(page).toHaveURL(/\/create\/pods/);
  await shot(page, "create-refused-by-quota");
  await expect(kubectl(["get", "-n", REFUSE, "pod", name])).rejects.toThrow(/NotFound|not found/);
});

test("claim and volume pages show their binding from both sides", async ({ page }) => {
  const volume = uniqueName("pv");
  const claim = uniqueName("data");
  const storageClass = uniqueName("manual");
  await create({
    apiVersion: "v1",
    kind: "PersistentVolume",
    metadata: { name: volume },
    spec: { capacity: { storage: "1Gi" }, accessModes: ["ReadWriteOnce"], persistentVolumeReclaimPolicy: "Retain", storageClassName: storageClass, hostPath: { path: `/tmp/${volume}` } },
  });
  await signIn(page, `/persistentvolumes/${volume}`);
  await expect(page.getByTestId("volume-capacity")).toHaveText("1Gi");
  await expect(page.getByTestId("volume-reclaim-policy")).toHaveText("Retain");
  await expect(page.getByTestId("volume-storage-class")).toHaveText(storageClass);

  await create({
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: { name: claim, namespace: STORAGE },
    spec: { accessModes: ["ReadWriteOnce"], storageClassName: storageClass, resources: { requests: { storage: "1Gi" } } },
  });
  // The binder (server) binds them: the open volume page follows without a reload.
  await expect(page.getByTestId("volume-claim-name")).toHaveText(`${STORAGE}/${claim}`);
  await expect(page.getByTestId("volume-binding").getByTestId("volume-phase").first()).toHaveText("Bound");
  await expect(page.getByTestId("bound-claim-phase")).toHaveText("Bound");
  await expect(page.getByTestId("claim-volume-ref")).toHaveText("names this volume");

  await page.getByTestId("claim-link").click();
  await expect(page.getByTestId("object-title")).toHaveText(`PersistentVolumeClaim ${claim}`);
  await expect(page.getByTestId("claim-phase")).toHaveText("Bound");
  await expect(page.getByTestId("claim-volume-name")).toHaveText(volume);
  await expect(page.getByTestId("claim-capacity")).toHaveText("1Gi");
  await expect(page.getByTestId("volume-claim-ref")).toHaveText("points back to this claim");
  await expect(page.getByTestId("binding-annotations").first()).toContainText("pv.kubernetes.io/bind-completed=yes");
  await shot(page, "claim-binding");
});

test("a pod page shows the SCC that admitted it, its ServiceAccount and its effective security context", async ({ page }) => {
  const name = uniqueName("secure");
  await create(pod(STORAGE, name, {}, { securityContext: { runAsUser: 1000, runAsGroup: 3000, fsGroup: 2000 } }));
  const stored = JSON.parse(await kubectl(["get", "-n", STORAGE, "pod", name, "-o", "json"]));
  const scc: string | undefined = stored.metadata.annotations?.["openshift.io/scc"];

  await signIn(page, `/namespaces/${STORAGE}/pods/${name}`);
  if (scc) await expect(page.getByTestId("pod-scc-link")).toHaveText(scc);
  else await expect(page.getByTestId("pod-scc")).toContainText("no openshift.io/scc annotation");
  await expect(page.getByTestId("pod-service-account")).toHaveAttribute("href", `/namespaces/${STORAGE}/serviceaccounts/${stored.spec.serviceAccountName ?? "default"}`);
  const row = page.locator('[data-testid=container-security-row][data-container="app"]');
  const runAsUser = stored.spec.containers[0].securityContext?.runAsUser ?? stored.spec.securityContext.runAsUser;
  await expect(row.getByTestId("sc-runAsUser")).toContainText(`runAsUser=${runAsUser}`);
  await expect(page.getByTestId("pod-fsGroup")).toHaveText(String(stored.spec.securityContext.fsGroup));
  // SCC admission (server) records the SCC it chose on every pod it admits.
  expect(scc, "openshift.io/scc annotation set by SCC admission").toBeTruthy();
});
