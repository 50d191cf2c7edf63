// Several replicas on one PostgreSQL database behave as one server (issue 12): two, then three server processes
// (and one more that starts late) share TEST_PG_URL's database, one serving certificate (TLS_CERT_FILE/
// TLS_KEY_FILE with TLS_CA_FILE naming its CA) and one admin token, each on its own port and data directory.
// kubectl and @kubernetes/client-node talk to one replica while watches run on the others; writers on every
// replica at once; a replica that starts after the writes replays them from the shared log; a replica killed
// with SIGKILL in the middle of writes, while another replica keeps writing, loses nothing it acknowledged,
// leaves nothing half-written and, restarted, replays the same history; the controllers run on exactly one
// replica (the controllers' Lease), and when it dies another takes over once its lease runs out.
import { createHash, generateKeyPairSync } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { CoreV1Api, KubeConfig, Watch } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ensureServingCertificate, pkiPaths } from "../../lib/tls/certificates";
import { freshPostgresDatabase, skipPostgres } from "../../lib/storage/test-databases";
import { describe as describeEvents, openWatch, sleep, startSharedServers, type WatchEvent, type WatchStream } from "./cluster";
import { createNamespaces, startServer, stopAll, waitFor, type ApiResponse, type Server } from "./harness";

const cmPath = (ns: string, name?: string) => `/api/v1/namespaces/${ns}/configmaps${name ? `/${name}` : ""}`;
const sha = (s: string) => createHash("sha256").update(s).digest("hex");
const fmt = (e: WatchEvent) => `${e.type} ${e.object?.metadata?.name}@${e.object?.metadata?.resourceVersion}`;
const rvOf = (e: WatchEvent) => Number(e.object?.metadata?.resourceVersion);
const LEASE = "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/cluster-core-controllers";
const KUBE_LEASE_DURATION_MS = 15_000;

describe.skipIf(skipPostgres).each([2, 3])("%i replicas on one PostgreSQL database", { timeout: 180_000 }, (n) => {
  const pkiDir = mkdtempSync(path.join(os.tmpdir(), "cluster-core-replicas-pki-"));
  let replicas: Server[];
  let shared: { env: Record<string, string>; ca: string };
  const label = (i: number) => String.fromCharCode(65 + i);

  beforeAll(async () => {
    // One certificate for every replica, issued by a CA the replicas are told about (TLS_CA_FILE).
    await ensureServingCertificate({ dataDir: pkiDir, hosts: ["127.0.0.1"] });
    const p = pkiPaths(pkiDir);
    // One ServiceAccount signing key for every replica (SERVICE_ACCOUNT_SIGNING_KEY_FILE).
    const saKey = path.join(pkiDir, "shared-sa.key");
    writeFileSync(saKey, generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600 });
    shared = {
      env: {
        DATABASE_URL: await freshPostgresDatabase(),
        TLS_CERT_FILE: p.servingCert, TLS_KEY_FILE: p.servingKey, TLS_CA_FILE: p.caCert,
        CLUSTER_ADMIN_TOKEN: "replicas-shared-admin-token-0123456789",
        SERVICE_ACCOUNT_SIGNING_KEY_FILE: saKey,
        // controllersLeader() below tells the controllers' replica by which process writes over one renewal of
        // their Lease; every replica also renews its identity Lease (the kubernetes Endpoints' record, every 10 s
        // by default), which would write into that window now and then. Renewed once a day here, it writes only
        // in the replica's start.
        IDENTITY_LEASE_DURATION_SECONDS: "86400",
      },
      ca: readFileSync(p.caCert, "utf8"),
    };
    replicas = await startSharedServers(n, { env: shared.env, ca: shared.ca }, shared.env.DATABASE_URL);
    await createNamespaces(replicas[0], "replicas-kubectl", "replicas-writers", "replicas-late", "replicas-kill");
  }, 180_000);

  afterAll(async () => {
    await stopAll();
    rmSync(pkiDir, { recursive: true, force: true });
  }, 60_000);

  /** The store's revision as a consistent list on `s` answers it. */
  async function listRev(s: Server, ns: string): Promise<number> {
    const r = await s.request("GET", cmPath(ns));
    expect(r.status, r.text).toBe(200);
    return Number(r.body.metadata.resourceVersion);
  }

  /** Waits until every stream has the event with revision `rev`. */
  async function allSee(streams: { label: string; w: WatchStream }[], rev: number): Promise<void> {
    await Promise.all(streams.map(({ label, w }) => w.until((evs) => evs.some((e) => rvOf(e) === rev), 30_000, `${label} to see revision ${rev}`)));
  }

  /** The Lease as replica `s` reads it. */
  async function leaseOn(s: Server): Promise<any> {
    const r = await s.request("GET", LEASE);
    expect(r.status, r.text.slice(0, 200)).toBe(200);
    return r.body;
  }

  /** Writes this replica's process committed to the store (its /metrics). */
  async function writesBy(s: Server): Promise<number> {
    const r = await s.request("GET", "/metrics");
    expect(r.status, r.text.slice(0, 200)).toBe(200);
    const m = /^cluster_core_storage_writes_total (\S+)$/m.exec(r.text);
    expect(m, "cluster_core_storage_writes_total in /metrics").not.toBeNull();
    return Number(m![1]);
  }

  /**
   * Which of `among` runs the controllers, seen from outside while nothing else writes: every replica's Lease
   * names one holder, and over one renewal of it exactly one replica's process wrote to the store (the renewal).
   */
  async function controllersLeader(among: Server[]): Promise<{ holder: string; index: number }> {
    const before = await Promise.all(among.map(writesBy));
    const first = (await leaseOn(among[0])).spec;
    expect(first.holderIdentity, "the Lease names a holder").toBeTruthy();
    await waitFor("the holder to renew the Lease", async () => {
      const now = (await leaseOn(among[0])).spec;
      return now.renewTime !== first.renewTime ? now : undefined;
    }, 10_000, 100);
    const after = await Promise.all(among.map(writesBy));
    const holders = await Promise.all(among.map(async (s) => (await leaseOn(s)).spec.holderIdentity as string));
    expect(holders, "every replica reads the same holder, the one that renewed").toEqual(among.map(() => first.holderIdentity));
    const wrote = among.map((_, i) => after[i] - before[i]);
    expect(wrote.filter((d) => d > 0).length, `writes per replica over one renewal (nothing else writes): ${wrote.join(", ")}`).toBe(1);
    return { holder: first.holderIdentity, index: wrote.findIndex((d) => d > 0) };
  }

  // Three replicas only: the takeover waits out kube's 15 s lease duration, and two processes (on SQLite) are
  // covered in events-and-leases.test.ts.
  if (n === 3) test("the controllers run on exactly one replica; SIGKILL it and another takes over within the lease duration", { timeout: 120_000 }, async () => {
    const { holder, index } = await controllersLeader(replicas);
    const victim = replicas[index];
    const survivors = replicas.filter((_, i) => i !== index);
    await victim.kill9();
    const killedAt = Date.now();
    // Until the dead holder's lease runs out no replica runs the controllers: a namespace created now gets its
    // default ServiceAccount only once a survivor has taken the Lease.
    const ns = "replicas-lease-failover";
    const made = await survivors[0].request("POST", "/api/v1/namespaces", { body: { apiVersion: "v1", kind: "Namespace", metadata: { name: ns } } });
    expect(made.status, made.text).toBe(201);
    const early: string[] = [];
    const next = await waitFor("a survivor to take the Lease", async () => {
      // The ServiceAccount first: the controllers create it only after their replica's Lease write committed.
      const sa = await survivors[1].request("GET", `/api/v1/namespaces/${ns}/serviceaccounts/default`);
      const h = (await leaseOn(survivors[0])).spec.holderIdentity;
      if (h === holder && sa.status !== 404) early.push(`${Date.now() - killedAt} ms after the kill: ${sa.status}`);
      return h && h !== holder ? h as string : undefined;
    }, KUBE_LEASE_DURATION_MS + 15_000, 100);
    const waited = Date.now() - killedAt;
    expect(early, "no default ServiceAccount while the dead replica still held the Lease").toEqual([]);
    expect(waited, "not before the killed holder's lease ran out").toBeGreaterThan(KUBE_LEASE_DURATION_MS - 5_000);
    expect(waited, "within the lease duration plus a retry period (and a busy machine's slack)").toBeLessThan(KUBE_LEASE_DURATION_MS + 10_000);
    await waitFor("the new holder's controllers to give the namespace its default ServiceAccount", async () =>
      (await survivors[0].request("GET", `/api/v1/namespaces/${ns}/serviceaccounts/default`)).status === 200 || undefined, 10_000);
    const after = await controllersLeader(survivors);
    expect(after.holder, "the survivor that writes the renewals is the one the Lease names").toBe(next);

    // Restarted, the killed replica stays a standby: the holder keeps the Lease, and only it writes.
    replicas[index] = await victim.restart();
    const again = await controllersLeader(replicas);
    expect(again.holder).toBe(next);
    expect(again.index, "the restarted replica does not write renewals").not.toBe(index);
  });

  test("kubectl and client-node on one replica, watches on the others; every kubeconfig carries the shared CA", async () => {
    const [a, b] = replicas;
    const c = replicas[n - 1]; // the last replica: B itself when there are two
    const ns = "replicas-kubectl";
    for (const s of replicas) {
      const kubeconfig = readFileSync(s.kubeconfig, "utf8");
      const caData = /certificate-authority-data: (\S+)/.exec(kubeconfig)?.[1];
      expect(Buffer.from(caData ?? "", "base64").toString("utf8").trim(), `${s.kubeconfig} trusts TLS_CA_FILE`).toBe(shared.ca.trim());
    }
    const start = await listRev(b, ns);
    const watches = await Promise.all(replicas.slice(1).map(async (s, i) =>
      ({ label: `watch on ${label(i + 1)}`, w: await openWatch(s, `${cmPath(ns)}?watch=true&resourceVersion=${start}`) })));
    const k = (args: string[]) => a.kubectl([...args, "-n", ns]);
    const created = JSON.parse((await k(["create", "configmap", "app", "--from-literal=v=1", "-o", "json"])).stdout);
    await k(["label", "configmap", "app", "tier=web"]);
    const patched = JSON.parse((await k(["patch", "configmap", "app", "--type=merge", "-p", '{"data":{"v":"2"}}', "-o", "json"])).stdout);
    await k(["delete", "configmap", "app"]);
    const gone = await b.request("GET", cmPath(ns, "app"));
    expect(gone.status, "a consistent read on another replica sees kubectl's delete").toBe(404);
    const sentinel = await a.request("POST", cmPath(ns), { body: { metadata: { name: "sentinel" } } });
    expect(sentinel.status, sentinel.text).toBe(201);
    await allSee(watches, Number(sentinel.body.metadata.resourceVersion));
    // (kubectl label -o json prints the object as it was before the patch, so its revision comes from the watch.)
    const summary = (e: WatchEvent) => `${e.type} ${e.object.metadata.name} tier=${e.object.metadata.labels?.tier ?? "-"} v=${e.object.data?.v ?? "-"}`;
    for (const { label, w } of watches) {
      expect(w.events.map(summary), label).toEqual([
        "ADDED app tier=- v=1", "MODIFIED app tier=web v=1", "MODIFIED app tier=web v=2", "DELETED app tier=web v=2", "ADDED sentinel tier=- v=-",
      ]);
      expect([w.events[0], w.events[2], w.events[4]].map(fmt), label).toEqual([
        `ADDED app@${created.metadata.resourceVersion}`, `MODIFIED app@${patched.metadata.resourceVersion}`, `ADDED sentinel@${sentinel.body.metadata.resourceVersion}`,
      ]);
      w.close();
    }
    for (const { label: l, w } of watches) expect(w.events.map(fmt), `${l} saw the same revisions as the watch on B`).toEqual(watches[0].w.events.map(fmt));

    // @kubernetes/client-node with replica B's kubeconfig (Node's TLS verifies the shared certificate against
    // the CA) lists, and its Watch on the last replica sees a write made through replica A.
    const kcB = new KubeConfig();
    kcB.loadFromFile(b.kubeconfig);
    const listed = await kcB.makeApiClient(CoreV1Api).listNamespacedConfigMap({ namespace: ns });
    expect(listed.items.map((o) => o.metadata?.name)).toContain("sentinel");
    const kcC = new KubeConfig();
    kcC.loadFromFile(c.kubeconfig);
    const seen: string[] = [];
    const req = await new Watch(kcC).watch(cmPath(ns), { resourceVersion: listed.metadata?.resourceVersion }, (type, obj) => {
      seen.push(`${type} ${obj?.metadata?.name}`);
    }, () => {});
    try {
      const viaA = await a.request("POST", cmPath(ns), { body: { metadata: { name: "from-client-node-test" } } });
      expect(viaA.status, viaA.text).toBe(201);
      for (let i = 0; i < 300 && !seen.includes("ADDED from-client-node-test"); i++) await sleep(50);
      expect(seen).toEqual(["ADDED from-client-node-test"]);
    } finally {
      req.abort();
    }

    // Writes through one replica are read at once through the others (resourceVersion unset), and an update
    // made on two replicas from the same resourceVersion succeeds on exactly one of them.
    for (let i = 0; i < 6; i++) {
      const [writer, reader] = [replicas[i % n], replicas[(i + 1) % n]];
      const made = await writer.request("POST", cmPath(ns), { body: { metadata: { name: `ryw-${i}` }, data: { i: String(i) } } });
      expect(made.status, made.text).toBe(201);
      const read = await reader.request("GET", cmPath(ns, `ryw-${i}`));
      expect(read.status, `replica ${label((i + 1) % n)} reads what replica ${label(i % n)} acknowledged`).toBe(200);
    }
    for (let round = 0; round < 5; round++) {
      const cur = await a.request("GET", cmPath(ns, "ryw-0"));
      const answers = await Promise.all([a, b].map((s, i) =>
        s.request("PUT", cmPath(ns, "ryw-0"), { body: { ...cur.body, data: { by: String(i), round: String(round) } } })));
      expect(answers.map((r) => r.status).sort(), answers.map((r) => r.text.slice(0, 200)).join(" | ")).toEqual([200, 409]);
    }
  });

  test("a ServiceAccount token minted on one replica (kubectl create token) is accepted by every replica", async () => {
    const a = replicas[0];
    const ns = "replicas-kubectl";
    await a.kubectl(["create", "serviceaccount", "robot", "-n", ns]).catch(() => undefined);
    const token = (await a.kubectl(["create", "token", "robot", "-n", ns])).stdout.trim();
    for (const [i, s] of replicas.entries()) {
      const r = await s.request("POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews", {
        token, body: { apiVersion: "authentication.k8s.io/v1", kind: "SelfSubjectReview" },
      });
      expect(r.status, `replica ${label(i)}: ${r.text}`).toBe(201);
      expect(r.body.status.userInfo.username).toBe(`system:serviceaccount:${ns}:robot`);
    }
    // Every replica publishes the same verification key.
    const jwks = await Promise.all(replicas.map(async (s) => JSON.stringify((await s.request("GET", "/openid/v1/jwks")).body.keys)));
    expect(new Set(jwks).size).toBe(1);
  });

  test("concurrent writes on every replica reach every watcher on every replica exactly once, in revision order", async () => {
    const ns = "replicas-writers";
    const start = await listRev(replicas[0], ns);
    const reference = await Promise.all(replicas.map(async (s, i) => ({ label: `from ${start} on replica ${i}`, w: await openWatch(s, `${cmPath(ns)}?watch=true&resourceVersion=${start}`) })));
    const later: { label: string; w: WatchStream; from: number }[] = [];
    const acks: { type: string; name: string; rv?: number; via: number }[] = [];
    const unexpected: string[] = [];
    const names = Array.from({ length: 8 }, (_, i) => `obj-${i}`);
    let seq = 0;

    async function writer(via: number, w: number): Promise<void> {
      const s = replicas[via];
      for (let i = 0; i < 22; i++) {
        const name = names[(w * 7 + i * 3) % names.length];
        const v = String(++seq);
        const op = (w + i) % 4;
        let res: ApiResponse;
        let type: string;
        if (op === 0) {
          type = "ADDED";
          res = await s.request("POST", cmPath(ns), { body: { metadata: { name }, data: { v } } });
        } else if (op === 1 || op === 2) {
          type = "MODIFIED";
          res = await s.request("PATCH", cmPath(ns, name), { body: { data: { v } }, contentType: "application/merge-patch+json" });
        } else {
          type = "DELETED";
          res = await s.request("DELETE", cmPath(ns, name));
        }
        if (res.status === 200 || res.status === 201) acks.push({ type, name, via, rv: type === "DELETED" ? undefined : Number(res.body.metadata.resourceVersion) });
        else if (![404, 409].includes(res.status)) unexpected.push(`${type} ${name} via ${via}: ${res.status} ${res.text.slice(0, 200)}`);
      }
    }
    async function openLater(): Promise<void> {
      for (let i = 0; i < n; i++) {
        await sleep(300);
        const from = Math.max(start, ...acks.map((x) => x.rv ?? 0));
        later.push({ label: `from ${from} on replica ${i}`, from, w: await openWatch(replicas[i], `${cmPath(ns)}?watch=true&resourceVersion=${from}`) });
      }
    }
    await Promise.all([...replicas.flatMap((_, via) => [writer(via, via * 2), writer(via, via * 2 + 1)]), openLater()]);
    expect(unexpected).toEqual([]);
    const sentinel = await replicas[n - 1].request("POST", cmPath(ns), { body: { metadata: { name: "sentinel" } } });
    expect(sentinel.status, sentinel.text).toBe(201);
    const end = Number(sentinel.body.metadata.resourceVersion);
    await allSee([...reference, ...later], end);

    const ref = reference[0].w.events.map(fmt);
    const revs = reference[0].w.events.map(rvOf);
    expect(revs, "strictly increasing revisions").toEqual([...new Set(revs)].sort((x, y) => x - y));
    for (const { label, w } of reference) expect(w.events.map(fmt), label).toEqual(ref);
    const ackedRevs = acks.filter((x) => x.rv !== undefined).map((x) => x.rv!);
    expect(new Set(ackedRevs).size, "no revision acknowledged twice").toBe(ackedRevs.length);
    const byRev = new Map(reference[0].w.events.map((e) => [rvOf(e), e]));
    for (const x of acks.filter((y) => y.rv !== undefined)) {
      const e = byRev.get(x.rv!);
      expect(e && `${e.type} ${e.object.metadata.name}`, `acknowledged ${x.type} ${x.name}@${x.rv} via replica ${x.via}`).toBe(`${x.type} ${x.name}`);
    }
    const deletes = (xs: { type: string; name: string }[]) => xs.filter((x) => x.type === "DELETED").map((x) => x.name).sort();
    expect(deletes(reference[0].w.events.map((e) => ({ type: e.type, name: e.object.metadata.name }))), "one DELETED per acknowledged delete").toEqual(deletes(acks));
    expect(reference[0].w.events.length, "nothing but the acknowledged writes and the sentinel").toBe(acks.length + 1);
    for (const { label, w, from } of later) {
      expect(w.events.map(fmt), label).toEqual(reference[0].w.events.filter((e) => rvOf(e) > from).map(fmt));
    }
    for (const { w } of [...reference, ...later]) w.close();
  });

  test("a replica that starts after the writes serves watches and lists from a revision before its start", async () => {
    const [a, b] = replicas;
    const ns = "replicas-late";
    const start = await listRev(a, ns);
    // Creates, updates, label changes and deletes on two replicas, before the late replica exists.
    for (let i = 0; i < 6; i++) {
      const s = replicas[i % 2];
      expect((await s.request("POST", cmPath(ns), { body: { metadata: { name: `cm-${i}`, labels: { phase: "one" } }, data: { i: String(i) } } })).status).toBe(201);
    }
    const mid = await listRev(b, ns);
    for (let i = 0; i < 6; i++) {
      const s = replicas[(i + 1) % 2];
      if (i % 3 === 0) expect((await s.request("DELETE", cmPath(ns, `cm-${i}`))).status).toBe(200);
      else expect((await s.request("PATCH", cmPath(ns, `cm-${i}`), { body: { metadata: { labels: { phase: i % 3 === 1 ? "two" : "one" } } }, contentType: "application/merge-patch+json" })).status).toBe(200);
    }
    const before = await listRev(a, ns);
    await sleep(1000);
    const late = await startServer({ env: shared.env, ca: shared.ca });
    try {
      for (const q of [`resourceVersion=${start}`, `resourceVersion=${mid}`, `resourceVersion=${mid}&labelSelector=phase%3Done`]) {
        const [want, got] = await Promise.all([openWatch(a, `${cmPath(ns)}?watch=true&${q}`), openWatch(late, `${cmPath(ns)}?watch=true&${q}`)]);
        const marker = await b.request("POST", cmPath(ns), { body: { metadata: { name: `marker-${Date.now()}`, labels: { phase: "one" } } } });
        expect(marker.status).toBe(201);
        const streams = [{ label: `replica A ${q}`, w: want }, { label: `late replica ${q}`, w: got }];
        await allSee(streams, Number(marker.body.metadata.resourceVersion));
        expect(got.events.filter((e) => e.type === "ERROR"), `late replica ${q}: ${describeEvents(got.events)}`).toEqual([]);
        expect(got.events.map(fmt), `late replica ${q}`).toEqual(want.events.map(fmt));
        expect(got.events.filter((e) => rvOf(e) <= before).length, `late replica ${q}: the writes before its start`).toBeGreaterThan(0);
        want.close();
        got.close();
      }
      const exact = `${cmPath(ns)}?resourceVersion=${mid}&resourceVersionMatch=Exact`;
      const [listA, listLate] = await Promise.all([a.request("GET", exact), late.request("GET", exact)]);
      expect(listLate.status, listLate.text.slice(0, 300)).toBe(200);
      const items = (r: ApiResponse) => (r.body.items as any[]).map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`);
      expect(items(listLate)).toEqual(items(listA));
      expect(items(listLate).filter((x) => x.startsWith("cm-"))).toHaveLength(6);
    } finally {
      await late.stop();
    }
  });

  test("a replica killed with SIGKILL mid-write while another keeps writing, then restarted: every watcher sees every write once, in order, whole", async () => {
    const [a, b] = replicas;
    const ns = "replicas-kill";
    const start = await listRev(b, ns);
    const watches = await Promise.all(replicas.slice(1).map(async (s, i) =>
      ({ label: `watch on ${label(i + 1)}`, w: await openWatch(s, `${cmPath(ns)}?watch=true&resourceVersion=${start}`) })));
    const sent = new Map<string, string>();
    const acks: { rev: number; name: string }[] = [];
    const ackedBy = { A: 0, B: 0, "restarted A": 0 };
    const unknown = new Set<string>(); // writes to A in flight when it died: they may or may not have happened
    const failures: string[] = []; // writes to a live replica that did not succeed
    let killed = false;
    let done = false;
    async function writer(via: keyof typeof ackedBy, s: Server, w: number, until: () => boolean): Promise<void> {
      for (let i = 0; !until(); i++) {
        const name = `${via.replace(" ", "-").toLowerCase()}-w${w}-${i}`;
        const payload = `${name}:`.padEnd(2048 + ((w * 131 + i * 17) % 2048), String.fromCharCode(97 + ((w + i) % 26)));
        sent.set(name, payload);
        try {
          const res = await s.request("POST", cmPath(ns), { body: { metadata: { name }, data: { payload, sum: sha(payload) } } });
          if (res.status === 201) {
            acks.push({ rev: Number(res.body.metadata.resourceVersion), name });
            ackedBy[via]++;
          } else if (via === "A" && killed) {
            unknown.add(name); // answered while dying (e.g. 503 from a closing store)
          } else failures.push(`${name} via ${via}: ${res.status} ${res.text.slice(0, 200)}`);
        } catch (err) {
          if (via === "A" && killed) {
            unknown.add(name);
            return; // the replica is gone: this write's outcome is unknown
          }
          failures.push(`${name} via ${via}: ${String(err)}`);
          return;
        }
      }
    }
    const until = async (what: string, cond: () => boolean) => {
      for (const deadline = Date.now() + 60_000; !cond(); await sleep(10)) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (acknowledged: ${JSON.stringify(ackedBy)}; failures: ${failures.slice(0, 3).join(" | ")})`);
      }
    };
    // Eight writers on A, which gets killed; three on B, which keep writing through A's death and restart.
    const onA = Array.from({ length: 8 }, (_, w) => writer("A", a, w, () => killed));
    const onB = Array.from({ length: 3 }, (_, w) => writer("B", b, w, () => done));
    await until("60 writes acknowledged by A and 10 by B", () => ackedBy.A >= 60 && ackedBy.B >= 10);
    killed = true;
    await a.kill9();
    await Promise.all(onA);
    const byBAtKill = ackedBy.B;
    await until("10 more writes acknowledged by B while A is down", () => ackedBy.B >= byBAtKill + 10);
    const byBBeforeRestart = ackedBy.B;
    replicas[0] = await a.restart();
    const restarted = replicas[0];
    expect(ackedBy.B, "B kept acknowledging writes while A restarted").toBeGreaterThan(byBBeforeRestart);
    // A watch on the restarted replica from before the kill replays the shared log, then follows the writes
    // that continue on B and start again on the restarted A.
    const replay = { label: "watch on the restarted A", w: await openWatch(restarted, `${cmPath(ns)}?watch=true&resourceVersion=${start}`) };
    const onRestarted = Array.from({ length: 2 }, (_, w) => writer("restarted A", restarted, w, () => done));
    const byBAtRestart = ackedBy.B;
    await until("10 writes acknowledged by the restarted A and 10 more by B", () => ackedBy["restarted A"] >= 10 && ackedBy.B >= byBAtRestart + 10);
    done = true;
    await Promise.all([...onB, ...onRestarted]);
    expect(failures, "every write to a live replica succeeded").toEqual([]);
    const sentinel = await restarted.request("POST", cmPath(ns), { body: { metadata: { name: "sentinel" } } });
    expect(sentinel.status, sentinel.text).toBe(201);
    const streams = [...watches, replay];
    await allSee(streams, Number(sentinel.body.metadata.resourceVersion));

    const all = watches[0].w.events;
    for (const { label: l, w } of streams) {
      expect(w.events.filter((e) => e.type === "ERROR"), `${l}: ${describeEvents(w.events)}`).toEqual([]);
      expect(w.events.map(fmt), `${l} saw the same writes in the same order as the watch on B`).toEqual(all.map(fmt));
    }
    const revs = all.map(rvOf);
    expect(revs, "strictly increasing revisions: each write once, in order").toEqual([...new Set(revs)].sort((x, y) => x - y));
    expect(new Set(acks.map((x) => x.rev)).size, "no revision acknowledged twice").toBe(acks.length);
    const seen = new Map(all.map((e) => [rvOf(e), e]));
    for (const { rev, name } of acks) expect(seen.get(rev)?.object.metadata.name, `acknowledged ${name}@${rev}`).toBe(name);
    const events = all.filter((e) => e.object.metadata.name !== "sentinel");
    const acked = new Set(acks.map((x) => x.name));
    expect(events.map((e) => e.object.metadata.name).filter((x) => !acked.has(x) && !unknown.has(x)), "nothing but the acknowledged writes and those in flight on A when it died").toEqual([]);
    for (const e of events) {
      const name = e.object.metadata.name;
      expect(e.type, name).toBe("ADDED");
      expect(e.object.data, `${name} arrived whole`).toEqual({ payload: sent.get(name), sum: sha(sent.get(name)!) });
    }
    for (const s of replicas) {
      const listed = await s.request("GET", cmPath(ns));
      expect((listed.body.items as any[]).map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`).filter((x) => !x.startsWith("kube-root-ca.crt@")).sort(), `a list on ${s.url} = what the watches saw`)
        .toEqual(all.map((e) => `${e.object.metadata.name}@${e.object.metadata.resourceVersion}`).sort());
    }
    for (const { w } of streams) w.close();
  });
});
