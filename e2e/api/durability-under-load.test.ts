// Durability under load: concurrent writers create, update and delete while the server is killed with
// SIGKILL mid-stream, several rounds in a row. After each restart every acknowledged write must be there
// exactly as acknowledged (resourceVersion and data); a write in flight at the kill may have landed or not,
// but nothing else; deleted objects stay deleted; the revision never goes back.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sleep } from "./cluster";
import { createNamespaces, rv, startServer, stopAll, type Server } from "./harness";

const NS = "e2e-load-durability";
const CM = `/api/v1/namespaces/${NS}/configmaps`;
const ROUNDS = 4;
const WRITERS = 12;

/** What a key is known to hold: the last acknowledged state, plus the write in flight when the server died. */
interface KeyState {
  acked?: { deleted: boolean; resourceVersion?: string; data?: Record<string, string> };
  inFlight?: { deleted: boolean; data?: Record<string, string> };
}

let server: Server;
beforeAll(async () => {
  server = await startServer();
  await createNamespaces(server, NS);
}, 90_000);
afterAll(stopAll, 60_000);

/** A writer cycles over its own keys: create, update twice, delete, create again... until told to stop. */
async function writer(s: Server, id: number, round: number, states: Map<string, KeyState>, stop: { now: boolean; acked: number }): Promise<void> {
  for (let step = 0; !stop.now; step++) {
    const key = `w${id}-k${step % 3}`;
    const st = states.get(key) ?? {};
    states.set(key, st);
    const exists = st.acked && !st.acked.deleted;
    const data = { writer: String(id), round: String(round), step: String(step) };
    let res;
    try {
      if (!exists) {
        st.inFlight = { deleted: false, data };
        res = await s.request("POST", CM, { body: { metadata: { name: key }, data } });
        if (res.status !== 201) throw new Error(`create ${key}: ${res.status} ${res.text.slice(0, 200)}`);
        st.acked = { deleted: false, resourceVersion: res.body.metadata.resourceVersion, data };
      } else if (step % 4 === 3) {
        st.inFlight = { deleted: true };
        res = await s.request("DELETE", `${CM}/${key}`);
        if (res.status !== 200) throw new Error(`delete ${key}: ${res.status} ${res.text.slice(0, 200)}`);
        st.acked = { deleted: true };
      } else {
        st.inFlight = { deleted: false, data };
        res = await s.request("PUT", `${CM}/${key}`, { body: { metadata: { name: key, resourceVersion: st.acked!.resourceVersion }, data } });
        if (res.status !== 200) throw new Error(`update ${key}: ${res.status} ${res.text.slice(0, 200)}`);
        st.acked = { deleted: false, resourceVersion: res.body.metadata.resourceVersion, data };
      }
      st.inFlight = undefined;
      stop.acked++;
    } catch (err) {
      if (stop.now) return; // the connection died with the server: this write stays "in flight"
      throw err;
    }
  }
}

async function verify(s: Server, states: Map<string, KeyState>): Promise<string[]> {
  const problems: string[] = [];
  for (const [key, st] of states) {
    const res = await s.request("GET", `${CM}/${key}`);
    const gone = res.status === 404;
    const matchesAcked = st.acked === undefined ? gone
      : st.acked.deleted ? gone
      : !gone && res.body.metadata.resourceVersion === st.acked.resourceVersion && JSON.stringify(res.body.data) === JSON.stringify(st.acked.data);
    const matchesInFlight = st.inFlight !== undefined && (st.inFlight.deleted ? gone
      : !gone && JSON.stringify(res.body.data) === JSON.stringify(st.inFlight.data));
    if (!matchesAcked && !matchesInFlight) {
      problems.push(`${key}: ${res.status} ${gone ? "" : JSON.stringify(res.body.data)} (acknowledged ${JSON.stringify(st.acked)}, in flight ${JSON.stringify(st.inFlight)})`);
    }
    // Whatever landed is now the known state for the next round.
    st.acked = gone ? (st.acked ? { deleted: true } : undefined)
      : { deleted: false, resourceVersion: res.body.metadata.resourceVersion, data: res.body.data };
    st.inFlight = undefined;
  }
  return problems;
}

describe("durability under load", () => {
  test(`${ROUNDS} rounds of ${WRITERS} concurrent writers, each ended by kill -9`, async () => {
    const states = new Map<string, KeyState>();
    let lastRev = 0n;
    for (let round = 0; round < ROUNDS; round++) {
      const stop = { now: false, acked: 0 };
      const writers = Array.from({ length: WRITERS }, (_, id) => writer(server, id, round, states, stop));
      await sleep(400 + round * 150);
      stop.now = true;
      await server.kill9();
      await Promise.all(writers);
      server = await server.restart();
      expect(stop.acked, `round ${round}: writes acknowledged before the kill`).toBeGreaterThan(WRITERS);
      expect(await verify(server, states), `round ${round}`).toEqual([]);
      const list = await server.request("GET", CM);
      const rev = rv(list.body.metadata.resourceVersion);
      expect(rev >= lastRev, `round ${round}: revision went back from ${lastRev} to ${rev}`).toBe(true);
      lastRev = rev;
    }
  }, 240_000);
});
