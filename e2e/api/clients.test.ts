// Real watch clients against the server: `kubectl get pods -w` (Table watch, spawned and read line by line)
// and a `@kubernetes/client-node` informer (list + watch, re-watching from its last resourceVersion when the
// server ends a watch), each seeing changes another client makes.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { CoreV1Api, KubeConfig, ListWatch, Watch, makeInformer, type V1ConfigMap } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sleep } from "./cluster";
import { createNamespaces, ROOT_CA, rootCA, startServer, stopAll, type Server } from "./harness";
import { KINDS, loadFixture } from "./kinds";

let server: Server;
const kubeHome = mkdtempSync(path.join(os.tmpdir(), "cluster-core-kubectl-watch-"));
const children = new Set<ChildProcess>();

beforeAll(async () => {
  server = await startServer();
  await createNamespaces(server, "clients-kubectl", "clients-kubectl-grace", "clients-informer", "clients-informer-rewatch", "clients-informer-restart");
}, 90_000);

afterAll(async () => {
  for (const c of children) c.kill("SIGKILL");
  await stopAll();
  rmSync(kubeHome, { recursive: true, force: true });
}, 60_000);

/** A long-running kubectl whose output is read as it comes. */
function spawnKubectl(args: string[]) {
  const proc = spawn(process.env.KUBECTL ?? "/usr/bin/kubectl", [`--cache-dir=${path.join(kubeHome, "cache")}`, ...args], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: kubeHome, KUBECONFIG: server.kubeconfig } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(proc);
  let stdout = "";
  let stderr = "";
  let exited = false;
  proc.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
  proc.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
  proc.on("exit", () => {
    exited = true;
    children.delete(proc);
  });
  const lines = () => stdout.split("\n").filter((l) => l.trim() !== "");
  return {
    lines,
    stderr: () => stderr,
    async until(pred: (lines: string[]) => boolean, what: string, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!pred(lines())) {
        if (exited) throw new Error(`kubectl ${args.join(" ")} exited before ${what}\nstdout:\n${stdout}\nstderr:\n${stderr}`);
        if (Date.now() > deadline) throw new Error(`kubectl ${args.join(" ")}: no ${what} within ${timeoutMs} ms\nstdout:\n${stdout}\nstderr:\n${stderr}`);
        await sleep(50);
      }
    },
    stop() {
      if (!exited) proc.kill("SIGTERM");
    },
  };
}

const podKind = KINDS.find((k) => k.kind === "Pod")!;
const pod = (name: string, extra: Record<string, unknown> = {}) => {
  const p = loadFixture(podKind);
  p.metadata = { name, labels: { app: "watched" } };
  return { ...p, spec: { ...p.spec, ...extra } };
};

describe("kubectl get -w", { timeout: 90_000 }, () => {
  test("kubectl get pods -w sees a pod created, labelled and deleted by another client", async () => {
    const ns = "clients-kubectl";
    const podsPath = `/api/v1/namespaces/${ns}/pods`;
    // A pod that is there from the start: once kubectl printed it, its list is done and it watches from
    // the list's revision (with an empty list, kubectl -w prints nothing to wait for).
    const seed = pod("seed");
    seed.metadata.labels.tier = "frontend";
    expect((await server.request("POST", podsPath, { body: seed })).status).toBe(201);
    const all = spawnKubectl(["get", "pods", "-n", ns, "-w", "--output-watch-events"]);
    const selected = spawnKubectl(["get", "pods", "-n", ns, "-w", "--output-watch-events", "-l", "tier=frontend"]);
    try {
      await all.until((ls) => ls.some((l) => /^ADDED\s+seed\s/.test(l)), "the initial list");
      await selected.until((ls) => ls.some((l) => /^ADDED\s+seed\s/.test(l)), "the initial list");

      const created = await server.request("POST", podsPath, { body: pod("web-1") });
      expect(created.status, created.text).toBe(201);
      await all.until((ls) => ls.some((l) => /^ADDED\s+web-1\s/.test(l)), "the ADDED row");

      const labelled = await server.request("PATCH", `${podsPath}/web-1`, {
        body: { metadata: { labels: { tier: "frontend" } } },
        contentType: "application/merge-patch+json",
      });
      expect(labelled.status, labelled.text).toBe(200);
      await all.until((ls) => ls.some((l) => /^MODIFIED\s+web-1\s/.test(l)), "the MODIFIED row");
      // For the selector watch, the pod starts matching: ADDED.
      await selected.until((ls) => ls.some((l) => /^ADDED\s+web-1\s/.test(l)), "the ADDED row (started matching)");

      const deleted = await server.request("DELETE", `${podsPath}/web-1`);
      expect(deleted.status, deleted.text).toBe(200);
      await all.until((ls) => ls.some((l) => /^DELETED\s+web-1\s/.test(l)), "the DELETED row");
      await selected.until((ls) => ls.some((l) => /^DELETED\s+web-1\s/.test(l)), "the DELETED row");

      const rows = all.lines();
      expect(rows[0]).toMatch(/^EVENT\s+NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE$/);
      // An unscheduled pod goes at once, but as in kube its deletionTimestamp is written first (a MODIFIED).
      expect(rows.slice(1).map((l) => l.split(/\s+/).slice(0, 2).join(" "))).toEqual(["ADDED seed", "ADDED web-1", "MODIFIED web-1", "MODIFIED web-1", "DELETED web-1"]);
      expect(rows[2]).toMatch(/^ADDED\s+web-1\s+0\/1\s+Pending\s+0\s+\d+s$/);
      const selRows = selected.lines();
      expect(selRows.slice(1).map((l) => l.split(/\s+/).slice(0, 2).join(" "))).toEqual(["ADDED seed", "ADDED web-1", "MODIFIED web-1", "DELETED web-1"]);
      expect(all.stderr()).toBe("");
      expect(selected.stderr()).toBe("");
    } finally {
      all.stop();
      selected.stop();
    }
  });

  test("kubectl get pods -w shows a graceful deletion as Terminating, then DELETED", async () => {
    const ns = "clients-kubectl-grace";
    const podsPath = `/api/v1/namespaces/${ns}/pods`;
    const created = await server.request("POST", podsPath, { body: pod("scheduled", { nodeName: "node-a" }) });
    expect(created.status, created.text).toBe(201);
    const w = spawnKubectl(["get", "pods", "-n", ns, "-w", "--output-watch-events"]);
    try {
      await w.until((ls) => ls.some((l) => /^ADDED\s+scheduled\s/.test(l)), "the listed pod");
      const del = await server.request("DELETE", `${podsPath}/scheduled?gracePeriodSeconds=1`);
      expect(del.status, del.text).toBe(200);
      await w.until((ls) => ls.some((l) => /^MODIFIED\s+scheduled\s.*Terminating/.test(l)), "the Terminating row");
      await w.until((ls) => ls.some((l) => /^DELETED\s+scheduled\s/.test(l)), "the DELETED row", 15_000);
      const events = w.lines().slice(1).map((l) => l.split(/\s+/)[0]);
      expect(events[0]).toBe("ADDED");
      expect(events.at(-1)).toBe("DELETED");
      expect(events.slice(1, -1).every((e) => e === "MODIFIED")).toBe(true);
    } finally {
      w.stop();
    }
  });
});

/** A client-node Watch that asks the server to end every watch after `seconds` (as client-go reflectors do). */
class ShortWatch extends Watch {
  constructor(kc: KubeConfig, private readonly seconds: number, readonly requests: Record<string, unknown>[] = []) {
    super(kc);
  }

  override watch(
    watchPath: string,
    queryParams: Record<string, string | number | boolean | undefined>,
    callback: (phase: string, apiObj: any, watchObj?: any) => void,
    done: (err: any) => void,
  ): Promise<AbortController> {
    const params = { ...queryParams, timeoutSeconds: this.seconds };
    this.requests.push(params);
    return super.watch(watchPath, params, callback, done);
  }
}

describe("@kubernetes/client-node informer", { timeout: 90_000 }, () => {
  function clientFor(s: Server) {
    const kc = new KubeConfig();
    kc.loadFromFile(s.kubeconfig);
    return { kc, api: kc.makeApiClient(CoreV1Api) };
  }

  function record(informer: { on: (verb: any, cb: (o: V1ConfigMap) => void) => void }) {
    const log: string[] = [];
    for (const verb of ["add", "update", "delete"] as const) {
      informer.on(verb, (o: V1ConfigMap) => log.push(`${verb} ${o.metadata?.name}@${o.metadata?.resourceVersion} v=${o.data?.v ?? ""}`));
    }
    return log;
  }

  async function waitFor(pred: () => boolean, what: string, timeoutMs = 20_000, detail: () => string = () => "") {
    const deadline = Date.now() + timeoutMs;
    while (!pred()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${detail()}`);
      await sleep(50);
    }
  }

  test("makeInformer sees add, update and delete made by another client", async () => {
    const ns = "clients-informer";
    const cmPath = `/api/v1/namespaces/${ns}/configmaps`;
    const ca = await rootCA(server, ns);
    await server.request("POST", cmPath, { body: { metadata: { name: "pre-existing" }, data: { v: "0" } } });
    const { kc, api } = clientFor(server);
    const informer = makeInformer<V1ConfigMap>(kc, cmPath, () => api.listNamespacedConfigMap({ namespace: ns }));
    const log = record(informer);
    const errors: unknown[] = [];
    informer.on("error", (err: unknown) => errors.push(err));
    await informer.start();
    try {
      await waitFor(() => log.length >= 2, "the initial list", 20_000, () => log.join(", "));
      const a = (await server.request("POST", cmPath, { body: { metadata: { name: "a" }, data: { v: "1" } } })).body;
      await waitFor(() => log.some((l) => l.startsWith("add a@")), "add a", 20_000, () => log.join(", "));
      const a2 = (await server.request("PATCH", `${cmPath}/a`, { body: { data: { v: "2" } }, contentType: "application/merge-patch+json" })).body;
      await waitFor(() => log.some((l) => l.startsWith("update a@")), "update a", 20_000, () => log.join(", "));
      expect((await server.request("DELETE", `${cmPath}/a`)).status).toBe(200);
      await waitFor(() => log.some((l) => l.startsWith("delete a@")), "delete a", 20_000, () => log.join(", "));
      expect(log).toEqual([
        // The initial list, in key order: the namespace's kube-root-ca.crt, then the test's object.
        `add ${ROOT_CA}@${ca.metadata.resourceVersion} v=`,
        expect.stringMatching(/^add pre-existing@\d+ v=0$/),
        `add a@${a.metadata.resourceVersion} v=1`,
        `update a@${a2.metadata.resourceVersion} v=2`,
        expect.stringMatching(/^delete a@\d+ v=2$/),
      ]);
      expect(informer.list(ns).map((o) => o.metadata?.name).sort()).toEqual([ROOT_CA, "pre-existing"]);
      expect(errors).toEqual([]);
    } finally {
      await informer.stop();
    }
  });

  test("an informer whose watches the server ends (timeoutSeconds=1) re-watches and misses nothing", async () => {
    const ns = "clients-informer-rewatch";
    const cmPath = `/api/v1/namespaces/${ns}/configmaps`;
    const ca = await rootCA(server, ns);
    const { kc, api } = clientFor(server);
    const watch = new ShortWatch(kc, 1);
    let lists = 0;
    const informer = new ListWatch<V1ConfigMap>(cmPath, watch, () => {
      lists++;
      return api.listNamespacedConfigMap({ namespace: ns });
    }, false);
    const log = record(informer);
    const errors: unknown[] = [];
    informer.on("error", (err: unknown) => errors.push(err));
    await informer.start();
    try {
      // Writes spread over several server-ended watches (one per second), after the initial list (which holds
      // only the namespace's kube-root-ca.crt).
      const expected: string[] = [`add ${ROOT_CA}@${ca.metadata.resourceVersion} v=`];
      for (let round = 0; round < 5; round++) {
        const name = `cm-${round}`;
        const c = (await server.request("POST", cmPath, { body: { metadata: { name }, data: { v: `${round}` } } })).body;
        expected.push(`add ${name}@${c.metadata.resourceVersion} v=${round}`);
        await sleep(350);
        const u = (await server.request("PATCH", `${cmPath}/${name}`, { body: { data: { v: `${round}b` } }, contentType: "application/merge-patch+json" })).body;
        expected.push(`update ${name}@${u.metadata.resourceVersion} v=${round}b`);
        await sleep(350);
        if (round % 2 === 1) {
          expect((await server.request("DELETE", `${cmPath}/cm-${round - 1}`)).status).toBe(200);
          expected.push(`delete cm-${round - 1}`);
        }
        await sleep(400);
      }
      await waitFor(() => log.length >= expected.length, "every change", 20_000, () => log.join(", "));
      await sleep(1_500); // one more server-ended watch: nothing may be delivered twice
      expect(log.map((l) => (l.startsWith("delete") ? l.replace(/@.*$/, "") : l))).toEqual(expected);
      expect(watch.requests.length, "the server ended several watches and the informer re-watched").toBeGreaterThanOrEqual(4);
      // Re-watches resume from the last resourceVersion seen, never from scratch.
      expect(watch.requests.slice(1).every((q) => typeof q.resourceVersion === "string" && q.resourceVersion !== "" && q.resourceVersion !== "0")).toBe(true);
      const final = await server.request("GET", cmPath);
      const serverState = (final.body.items as any[]).map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`).sort();
      expect(informer.list(ns).map((o) => `${o.metadata?.name}@${o.metadata?.resourceVersion}`).sort()).toEqual(serverState);
      expect(errors).toEqual([]);
      expect(lists, "one list at the start, never a relist").toBe(1);
    } finally {
      await informer.stop();
    }
  });

  test("after a server restart drops its watch, a restarted informer converges on the server's state", async () => {
    const ns = "clients-informer-restart";
    const cmPath = `/api/v1/namespaces/${ns}/configmaps`;
    await server.request("POST", cmPath, { body: { metadata: { name: "before" }, data: { v: "1" } } });
    const { kc, api } = clientFor(server);
    const informer = makeInformer<V1ConfigMap>(kc, cmPath, () => api.listNamespacedConfigMap({ namespace: ns }));
    const log = record(informer);
    let errorCount = 0;
    let stopped = false;
    // The documented pattern: on error, start again (after a short pause); a clean end re-watches by itself.
    informer.on("error", () => {
      errorCount++;
      if (!stopped) setTimeout(() => void informer.start().catch(() => undefined), 300);
    });
    await informer.start();
    try {
      await waitFor(() => log.some((l) => l.startsWith("add before@")), "the initial list");
      server = await server.restart();
      const after = (await server.request("POST", cmPath, { body: { metadata: { name: "after" }, data: { v: "2" } } })).body;
      const before2 = (await server.request("PATCH", `${cmPath}/before`, { body: { data: { v: "3" } }, contentType: "application/merge-patch+json" })).body;
      await waitFor(
        () => informer.get("after", ns)?.metadata?.resourceVersion === after.metadata.resourceVersion &&
          informer.get("before", ns)?.metadata?.resourceVersion === before2.metadata.resourceVersion,
        "the informer to catch up after the restart",
        30_000,
        () => `${log.join(", ")} (errors: ${errorCount})`,
      );
      expect(log).toContain(`add after@${after.metadata.resourceVersion} v=2`);
      expect(log).toContain(`update before@${before2.metadata.resourceVersion} v=3`);
    } finally {
      stopped = true;
      await informer.stop();
    }
  });
});
