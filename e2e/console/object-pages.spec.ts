// Object pages explain the object, not only its YAML: a pod's status as kubectl computes it (coloured, in
// words), its containers, conditions, what it uses and the Services that select it; a ServiceAccount's
// credentials; what uses a ConfigMap; an SCC's strategies; a quota at its limit in words. There is no kubelet:
// the spec plays it, writing pod status through the status subresource as a kubelet would.
import { expect as baseExpect, type Page } from "@playwright/test";
import { ensureNamespaces, expectAccessible, kubectl, shot, signIn, test, uniqueName } from "./support";

// The machine running these specs is shared: a page's first list can take longer than the default 15 s.
const expect = baseExpect.configure({ timeout: 45_000 });
test.describe.configure({ timeout: 240_000 });

const NS = "e2e-object-pages";
const create = (obj: object) => kubectl(["create", "--validate=false", "-f", "-"], JSON.stringify(obj));
const setStatus = (name: string, status: object) => kubectl(["patch", "-n", NS, "pod", name, "--subresource=status", "--type=merge", "-p", JSON.stringify({ status })]);

const app = uniqueName("web");
const names = {
  config: `${app}-config`,
  secret: `${app}-secret`,
  pull: `${app}-pull`,
  claim: `${app}-data`,
  account: `${app}-runner`,
  service: `${app}-svc`,
  running: `${app}-running`,
  crash: `${app}-crash`,
  pull_: `${app}-pulling`,
  done: `${app}-done`,
  init: `${app}-init`,
};

const t0 = new Date(Date.now() - 5 * 60_000).toISOString();

const appContainer = {
  name: "app",
  image: "registry.example/web:1",
  ports: [{ name: "http", containerPort: 8080 }],
  livenessProbe: { httpGet: { path: "/healthz", port: 8080 }, periodSeconds: 10 },
  readinessProbe: { tcpSocket: { port: "http" }, initialDelaySeconds: 5 },
  resources: { requests: { cpu: "100m", memory: "64Mi" }, limits: { cpu: "100m", memory: "64Mi" } },
  env: [{ name: "DB_PASSWORD", valueFrom: { secretKeyRef: { name: names.secret, key: "password" } } }],
  envFrom: [{ configMapRef: { name: names.config } }],
};

const podOf = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name, namespace: NS, labels: { app } },
  // The Service's targetPort is the port's name: kube's endpoints controller skips a pod without it.
  spec: { nodeName: "node-1", containers: [{ name: "app", image: "registry.example/web:1", ports: [{ name: "http", containerPort: 8080 }] }], ...extra },
});

const running = (ready: boolean) => ({ name: "app", image: "registry.example/web:1", imageID: "", ready, restartCount: 0, state: { running: { startedAt: t0 } } });

test.beforeAll(async () => {
  await ensureNamespaces(NS);
  await create({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: names.config, namespace: NS }, data: { MODE: "prod" } });
  await create({ apiVersion: "v1", kind: "Secret", metadata: { name: names.secret, namespace: NS }, stringData: { password: "pw" } });
  await create({ apiVersion: "v1", kind: "Secret", metadata: { name: names.pull, namespace: NS }, type: "Opaque", stringData: { x: "y" } });
  await create({ apiVersion: "v1", kind: "ServiceAccount", metadata: { name: names.account, namespace: NS }, imagePullSecrets: [{ name: names.pull }] });
  await create({ apiVersion: "v1", kind: "PersistentVolumeClaim", metadata: { name: names.claim, namespace: NS }, spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } } });
  await create({ apiVersion: "v1", kind: "Service", metadata: { name: names.service, namespace: NS }, spec: { selector: { app }, ports: [{ name: "http", port: 80, targetPort: "http" }] } });

  await create(
    podOf(names.running, {
      serviceAccountName: names.account,
      initContainers: [{ name: "setup", image: "registry.example/setup:1", resources: { limits: { cpu: "100m", memory: "64Mi" } } }],
      containers: [appContainer],
      volumes: [{ name: "data", persistentVolumeClaim: { claimName: names.claim } }, { name: "settings", configMap: { name: names.config } }],
    }),
  );
  await setStatus(names.running, {
    phase: "Running",
    hostIP: "192.168.10.4",
    podIP: "10.8.0.7",
    podIPs: [{ ip: "10.8.0.7" }],
    startTime: t0,
    conditions: [
      { type: "Initialized", status: "True", lastTransitionTime: t0 },
      { type: "Ready", status: "True", lastTransitionTime: t0 },
      { type: "ContainersReady", status: "True", lastTransitionTime: t0 },
      { type: "PodScheduled", status: "True", lastTransitionTime: t0 },
    ],
    initContainerStatuses: [{ name: "setup", image: "registry.example/setup:1", imageID: "", ready: false, restartCount: 0, state: { terminated: { exitCode: 0, reason: "Completed", startedAt: t0, finishedAt: t0 } } }],
    containerStatuses: [running(true)],
  });

  await create(podOf(names.crash));
  await setStatus(names.crash, {
    phase: "Running",
    podIP: "10.8.0.8",
    podIPs: [{ ip: "10.8.0.8" }],
    conditions: [{ type: "Ready", status: "False", reason: "ContainersNotReady", message: "containers with unready status: [app]", lastTransitionTime: t0 }],
    containerStatuses: [
      {
        name: "app",
        image: "registry.example/web:1",
        imageID: "",
        ready: false,
        restartCount: 5,
        state: { waiting: { reason: "CrashLoopBackOff", message: "back-off 2m40s restarting failed container=app" } },
        lastState: { terminated: { exitCode: 1, reason: "Error", startedAt: t0, finishedAt: new Date(Date.now() - 60_000).toISOString() } },
      },
    ],
  });

  await create(podOf(names.pull_));
  await setStatus(names.pull_, { phase: "Pending", containerStatuses: [{ name: "app", image: "registry.example/web:1", imageID: "", ready: false, restartCount: 0, state: { waiting: { reason: "ImagePullBackOff", message: "Back-off pulling image" } } }] });

  await create(podOf(names.done, { restartPolicy: "Never" }));
  await setStatus(names.done, { phase: "Succeeded", containerStatuses: [{ name: "app", image: "registry.example/web:1", imageID: "", ready: false, restartCount: 0, state: { terminated: { exitCode: 0, reason: "Completed", startedAt: t0, finishedAt: t0 } } }] });

  await create(podOf(names.init, { initContainers: [{ name: "setup", image: "registry.example/setup:1" }] }));
  await setStatus(names.init, {
    phase: "Pending",
    initContainerStatuses: [{ name: "setup", image: "registry.example/setup:1", imageID: "", ready: false, restartCount: 0, state: { running: { startedAt: t0 } } }],
    containerStatuses: [{ name: "app", image: "registry.example/web:1", imageID: "", ready: false, restartCount: 0, state: { waiting: { reason: "PodInitializing" } } }],
  });
});

const podPage = (name: string) => `/namespaces/${NS}/pods/${name}`;
const container = (page: Page, name: string) => page.locator(`[data-testid=container][data-container="${name}"]`);

test("a running pod's page shows its status, placement, containers, conditions and every object it uses as links", async ({ page }) => {
  await signIn(page, podPage(names.running));
  await expect(page.getByTestId("pod-status")).toHaveText("Running");
  await expect(page.getByTestId("pod-status")).toHaveAttribute("data-tone", "ok");
  await expect(page.getByTestId("pod-ready")).toHaveText("1/1 containers");
  await expect(page.getByTestId("pod-node")).toHaveText("node-1");
  await expect(page.getByTestId("pod-ips")).toHaveText("10.8.0.7");
  await expect(page.getByTestId("pod-host-ip")).toHaveText("192.168.10.4");
  await expect(page.getByTestId("pod-qos")).toHaveText("Guaranteed");
  await expect(page.getByTestId("pod-start-time")).toContainText(/\(\d+m\d*s? ago\)/);

  const appCard = container(page, "app");
  await expect(appCard.getByTestId("container-state")).toHaveText("Running");
  await expect(appCard.getByTestId("container-ready")).toHaveText("yes");
  await expect(appCard.getByTestId("container-image")).toHaveText("registry.example/web:1");
  await expect(appCard.getByTestId("container-ports")).toHaveText("8080/TCP (http)");
  await expect(appCard.getByTestId("probe-liveness")).toHaveText("liveness: HTTP GET :8080/healthz every 10s, timeout 1s, fails after 3 misses");
  await expect(appCard.getByTestId("probe-readiness")).toContainText("TCP :http every 10s, first after 5s");
  await expect(appCard.getByTestId("container-resources")).toHaveText("requests cpu 100m, memory 64Mi; limits cpu 100m, memory 64Mi");
  const setup = container(page, "setup");
  await expect(setup).toHaveAttribute("data-role", "init");
  await expect(setup.getByTestId("container-state")).toHaveText("Terminated: Completed (exit code 0)");

  const ready = page.getByTestId("pod-conditions").locator('[data-testid=condition][data-type="Ready"]');
  await expect(ready).toHaveAttribute("data-status", "True");
  await expect(ready).toContainText(/\d+m\d*s? ago/);
  // The generic status YAML is left out: the page says it in words.
  await expect(page.getByTestId("status")).toHaveCount(0);

  const use = (kind: string, name: string) => page.locator(`[data-testid=pod-use][data-kind="${kind}"][data-name="${name}"]`);
  await expect(use("ServiceAccount", names.account).getByRole("link")).toHaveAttribute("href", `/namespaces/${NS}/serviceaccounts/${names.account}`);
  await expect(use("ConfigMap", names.config)).toContainText("volume settings, envFrom in app");
  await expect(use("ConfigMap", names.config).getByRole("link")).toHaveAttribute("href", `/namespaces/${NS}/configmaps/${names.config}`);
  await expect(use("Secret", names.secret)).toContainText("env DB_PASSWORD in app");
  await expect(use("PersistentVolumeClaim", names.claim).getByRole("link")).toHaveAttribute("href", `/namespaces/${NS}/persistentvolumeclaims/${names.claim}`);
  await shot(page, "pod-page-running");

  // The Services that select it, live: its Service page lists it among the endpoints.
  await page.getByTestId("pod-selected-by").getByRole("link", { name: names.service }).click();
  await expect(page.getByTestId("object-title")).toHaveText(`Service ${names.service}`);
  await expect(page.getByTestId("service-port")).toContainText("http");
  const address = page.locator('[data-testid=endpoint-address][data-ip="10.8.0.7"]');
  await expect(address).toHaveAttribute("data-ready", "true");
  await expect(address.getByRole("link", { name: names.running })).toHaveAttribute("href", podPage(names.running));
  await expect(page.locator('[data-testid=endpoint-address][data-ip="10.8.0.8"]')).toHaveAttribute("data-ready", "false");
  // The pods it selects, each with its status: CrashLoopBackOff is not Running.
  await expect(page.locator(`[data-testid=related-pod][data-name="${names.crash}"]`)).toContainText("CrashLoopBackOff");
  await expect(page.locator(`[data-testid=related-pod][data-name="${names.running}"]`)).toContainText("Running");
});

test("pods in trouble say so: CrashLoopBackOff with the last termination, ImagePullBackOff, Completed, Init:0/1", async ({ page }) => {
  await signIn(page, podPage(names.crash));
  await expect(page.getByTestId("pod-status")).toHaveText("CrashLoopBackOff");
  await expect(page.getByTestId("pod-status")).toHaveAttribute("data-tone", "error");
  await expect(page.getByTestId("pod-ready")).toHaveText("0/1 containers");
  const app = container(page, "app");
  await expect(app.getByTestId("container-state")).toHaveText("Waiting: CrashLoopBackOff");
  await expect(app.getByTestId("container-state-message")).toHaveText("back-off 2m40s restarting failed container=app");
  await expect(app.getByTestId("container-restarts")).toHaveText("5");
  await expect(app.getByTestId("container-last-termination")).toHaveText(/^Error \(exit code 1\), (\d+s|\dm\d*s?) ago$/);
  await expect(app.getByTestId("container-ready")).toHaveText("no");
  await expect(page.getByTestId("pod-qos")).toHaveText("BestEffort");
  await expect(page.getByTestId("pod-conditions").locator('[data-testid=condition][data-type="Ready"]')).toContainText("containers with unready status: [app]");
  await shot(page, "pod-page-crashloop");

  for (const [name, text, tone] of [
    [names.pull_, "ImagePullBackOff", "error"],
    [names.done, "Completed", "neutral"],
    [names.init, "Init:0/1", "warning"],
  ] as const) {
    await page.goto(podPage(name));
    await expect(page.getByTestId("pod-status")).toHaveText(text);
    await expect(page.getByTestId("pod-status")).toHaveAttribute("data-tone", tone);
  }
  await expect(container(page, "setup").getByTestId("container-state")).toHaveText("Running");
  await expect(container(page, "app").getByTestId("container-state")).toHaveText("Waiting: PodInitializing");

  // A change written by the "kubelet" shows without a reload.
  await setStatus(names.init, {
    initContainerStatuses: [{ name: "setup", image: "registry.example/setup:1", imageID: "", ready: false, restartCount: 1, state: { terminated: { exitCode: 2, reason: "Error", startedAt: t0, finishedAt: t0 } } }],
  });
  await expect(page.getByTestId("pod-status")).toHaveText("Init:Error");
  await expect(page.getByTestId("pod-status")).toHaveAttribute("data-tone", "error");
});

test("a ConfigMap, Secret, claim and ServiceAccount name the pods that use them, and how", async ({ page }) => {
  await signIn(page, `/namespaces/${NS}/configmaps/${names.config}`);
  const pod = page.locator(`[data-testid=related-pod][data-name="${names.running}"]`);
  await expect(pod.getByTestId("related-pod-via")).toHaveText("volume settings, envFrom in app");
  await expect(pod.getByRole("link", { name: names.running })).toHaveAttribute("href", podPage(names.running));

  await page.goto(`/namespaces/${NS}/secrets/${names.secret}`);
  await expect(page.locator(`[data-testid=related-pod][data-name="${names.running}"]`).getByTestId("related-pod-via")).toHaveText("env DB_PASSWORD in app");

  await page.goto(`/namespaces/${NS}/persistentvolumeclaims/${names.claim}`);
  await expect(page.getByTestId("claim-requested")).toHaveText("1Gi");
  await expect(page.locator(`[data-testid=related-pod][data-name="${names.running}"]`).getByTestId("related-pod-via")).toHaveText("volume data");

  await page.goto(`/namespaces/${NS}/serviceaccounts/${names.account}`);
  await expect(page.getByTestId("sa-pull-secrets").getByRole("link", { name: names.pull })).toHaveAttribute("href", `/namespaces/${NS}/secrets/${names.pull}`);
  await expect(page.locator(`[data-testid=related-pod][data-name="${names.running}"]`)).toBeVisible();
  await shot(page, "service-account-page");
});

test("an SCC page reads its strategies as a table, with host access in words and service-account users as links", async ({ page }) => {
  const name = uniqueName("scc");
  await create({
    apiVersion: "security.openshift.io/v1",
    kind: "SecurityContextConstraints",
    metadata: { name },
    priority: 5,
    allowHostNetwork: true,
    allowPrivilegedContainer: false,
    allowedCapabilities: ["NET_BIND_SERVICE"],
    requiredDropCapabilities: ["KILL", "MKNOD"],
    runAsUser: { type: "MustRunAsRange", uidRangeMin: 1000, uidRangeMax: 2000 },
    seLinuxContext: { type: "MustRunAs", seLinuxOptions: { level: "s0:c1,c2" } },
    fsGroup: { type: "MustRunAs", ranges: [{ min: 5000, max: 5999 }] },
    supplementalGroups: { type: "RunAsAny" },
    volumes: ["configMap", "secret", "persistentVolumeClaim"],
    users: [`system:serviceaccount:${NS}:${names.account}`],
    groups: ["system:authenticated"],
  });
  await signIn(page, `/securitycontextconstraints/${name}`);
  const row = (s: string) => page.locator(`[data-testid=scc-strategy][data-strategy="${s}"]`);
  await expect(row("runAsUser")).toContainText("MustRunAsRange");
  await expect(row("runAsUser")).toContainText("a UID in 1000–2000");
  await expect(row("seLinuxContext")).toContainText("level s0:c1,c2");
  await expect(row("fsGroup")).toContainText("5000–5999");
  await expect(row("supplementalGroups")).toContainText("any supplemental groups");
  await expect(page.getByTestId("scc-flags").getByText("Host network: yes")).toBeVisible();
  await expect(page.getByTestId("scc-flags").getByText("Privileged containers: no")).toBeVisible();
  await expect(page.getByTestId("scc-priority")).toHaveText("5");
  await expect(page.getByTestId("scc-drop-capabilities")).toHaveText("KILL, MKNOD");
  await expect(page.getByTestId("scc-volumes")).toHaveText("configMap, persistentVolumeClaim, secret");
  await expect(page.getByTestId("scc-users").getByRole("link")).toHaveAttribute("href", `/namespaces/${NS}/serviceaccounts/${names.account}`);
  await shot(page, "scc-page");
});

test("a quota at its limit says so in words, not only in colour", async ({ page }) => {
  const ns = "e2e-object-pages-quota";
  await ensureNamespaces(ns);
  const quota = uniqueName("pods");
  await kubectl(["create", "--validate=false", "-f", "-"], JSON.stringify({ apiVersion: "v1", kind: "ResourceQuota", metadata: { name: quota, namespace: ns }, spec: { hard: { pods: "1", "requests.cpu": "1" } } }));
  await signIn(page, `/namespaces/${ns}/resourcequotas/${quota}`);
  const row = (r: string) => page.locator(`[data-testid=quota-row][data-resource="${r}"]`);
  await expect(row("pods").getByTestId("quota-numbers")).toHaveText("0 / 1");
  await expect(row("pods").getByTestId("quota-level")).toHaveCount(0);
  await kubectl(["create", "--validate=false", "-f", "-"], JSON.stringify({ apiVersion: "v1", kind: "Pod", metadata: { name: uniqueName("q"), namespace: ns }, spec: { containers: [{ name: "a", image: "x", resources: { requests: { cpu: "900m" } } }] } }));
  await expect(row("pods").getByTestId("quota-numbers")).toHaveText("1 / 1");
  await expect(row("pods").getByTestId("quota-level")).toHaveText("at the limit");
  await expect(row("pods")).toHaveAttribute("data-level", "full");
  await expect(row("requests.cpu").getByTestId("quota-level")).toHaveText("nearly full");
});

test("pod and Service pages are axe-clean with their coloured statuses, in both themes", async ({ page }) => {
  await signIn(page, podPage(names.crash));
  await expect(page.getByTestId("pod-status")).toHaveText("CrashLoopBackOff");
  await expectAccessible(page, "pod crash");
  await shot(page, "pod-page-crash");
  await page.goto(podPage(names.running));
  await expect(page.getByTestId("pod-status")).toHaveText("Running");
  await expect(page.getByTestId("pod-services")).toContainText(names.service);
  await expectAccessible(page, "pod running");
  await page.goto(`/namespaces/${NS}/services/${names.service}`);
  await expect(page.locator(`[data-testid=related-pod][data-name="${names.crash}"]`)).toContainText("CrashLoopBackOff");
  await expectAccessible(page, "service");
});
