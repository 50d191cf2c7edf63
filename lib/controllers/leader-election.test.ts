import { afterEach, describe, expect, it } from "vitest";
import { lease as leaseKind, type Lease } from "../kinds/lease";
import { serviceAccount } from "../kinds/service-account";
import { startControllers } from "./index";
import { CONTROLLERS_LEASE, LeaderElector } from "./leader-election";
import { cached, createNamespace, eventually, openCluster, tempDatabase, write, type TestCluster } from "./test-cluster";

const open: TestCluster[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  for (const c of open.splice(0)) await c.close();
});

/** Two "processes": two stores and registries on one SQLite file. */
async function twoProcesses(): Promise<[TestCluster, TestCluster]> {
  const file = tempDatabase();
  const a = await openCluster(file, { controllers: false });
  await createNamespace(a, "kube-system");
  const b = await openCluster(file, { controllers: false });
  open.push(a, b);
  return [a, b];
}

const leaseIn = (c: TestCluster) => cached(c, leaseKind.plural, CONTROLLERS_LEASE.namespace, CONTROLLERS_LEASE.name) as Lease | undefined;
const fast = { leaseDurationSeconds: 1, renewDeadlineMs: 700, retryPeriodMs: 100 };

function elector(c: TestCluster, identity: string, log: string[], opts = fast) {
  const e = new LeaderElector({
    registry: c.registry, identity, ...opts,
    onStartedLeading: () => log.push(`${identity} started`),
    onStoppedLeading: () => log.push(`${identity} stopped`),
  });
  cleanups.push(() => e.stop());
  return e;
}

describe("LeaderElector", () => {
  it("a lone process takes the Lease at once, with kube's fields, and renews it", async () => {
    const [a] = await twoProcesses();
    const log: string[] = [];
    const started = Date.now();
    elector(a, "host-a_1", log, { leaseDurationSeconds: 15, renewDeadlineMs: 10_000, retryPeriodMs: 200 }).start();
    await eventually(() => log.length > 0, 2000, "leadership");
    expect(Date.now() - started).toBeLessThan(500);
    expect(log).toEqual(["host-a_1 started"]);
    const first = leaseIn(a)!;
    expect(first.spec).toMatchObject({ holderIdentity: "host-a_1", leaseDurationSeconds: 15, leaseTransitions: 0 });
    expect(first.spec!.renewTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(first.spec!.acquireTime).toBe(first.spec!.renewTime);
    await eventually(() => leaseIn(a)!.spec!.renewTime !== first.spec!.renewTime, 2000, "a renewal");
    expect(leaseIn(a)!.spec!.acquireTime).toBe(first.spec!.acquireTime);
  });

  it("two processes: one leads, the other waits; a stopped leader releases and the other takes over at once", async () => {
    const [a, b] = await twoProcesses();
    const log: string[] = [];
    const ea = elector(a, "a", log);
    const eb = elector(b, "b", log);
    ea.start();
    await eventually(() => ea.isLeader, 2000, "a to lead");
    eb.start();
    await new Promise((r) => setTimeout(r, 2500)); // more than a lease duration: a keeps renewing
    expect(log).toEqual(["a started"]);
    expect(eb.isLeader).toBe(false);
    const stoppedAt = Date.now();
    await ea.stop();
    await eventually(() => eb.isLeader, 2000, "b to take over");
    expect(Date.now() - stoppedAt, "no wait for the lease to expire").toBeLessThan(600);
    expect(log).toEqual(["a started", "a stopped", "b started"]);
    await b.store.objects.catchUp();
    expect(leaseIn(b)!.spec).toMatchObject({ holderIdentity: "b", leaseTransitions: 1, leaseDurationSeconds: 1 });
  });

  it("a holder that stopped renewing (crashed) is replaced only after the lease duration", async () => {
    const [a, b] = await twoProcesses();
    const now = new Date().toISOString().replace("Z", "000Z");
    await a.registry.create(leaseKind, "kube-system", {
      metadata: { name: CONTROLLERS_LEASE.name },
      spec: { holderIdentity: "crashed_0", leaseDurationSeconds: 2, renewTime: now, acquireTime: now, leaseTransitions: 4 },
    }, write);
    const log: string[] = [];
    const started = Date.now();
    const eb = elector(b, "b", log);
    eb.start();
    await eventually(() => eb.isLeader, 5000, "b to take over");
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(2000);
    expect(waited).toBeLessThan(3000);
    expect(leaseIn(b)!.spec).toMatchObject({ holderIdentity: "b", leaseTransitions: 5 });
  });

  it("startControllers runs the controllers only in the process holding the Lease", async () => {
    const [a, b] = await twoProcesses();
    const stopA = startControllers({ registry: a.registry, leaderElection: { identity: "a", ...fast } });
    await eventually(() => leaseIn(a)?.spec?.holderIdentity === "a", 2000, "a to lead");
    const stopB = startControllers({ registry: b.registry, leaderElection: { identity: "b", ...fast } });
    cleanups.push(stopB, stopA);
    await createNamespace(a, "one");
    await eventually(() => cached(a, serviceAccount.plural, "one", "default"), 2000, "the leader's controllers");
    // Only one instance wrote it: one create, no conflicting second one.
    expect(a.events.filter((e) => e.key.resource === serviceAccount.plural && e.key.namespace === "one")).toHaveLength(1);
    await stopA();
    await eventually(() => leaseIn(b)?.spec?.holderIdentity === "b", 2000, "b to take over");
    await createNamespace(b, "two");
    await eventually(() => cached(b, serviceAccount.plural, "two", "default"), 2000, "the new leader's controllers");
  });
});
