import { describe, expect, it } from "vitest";
import type { KubeObject } from "@/lib/kinds";
import { podStateCounts } from "./pod-state-counts";

const now = Date.parse("2026-11-28T03:00:00Z");
let n = 0;
const pod = (status: object, metadata: object = {}) =>
  ({ kind: "Pod", metadata: { name: `p${++n}`, namespace: "ns", ...metadata }, spec: { containers: [{ name: "app", image: "nginx" }] }, status }) as KubeObject;
const container = (state: object, ready = false) => ({ name: "app", image: "nginx", state, ready, restartCount: 0 });
const running = () => pod({ phase: "Running", conditions: [{ type: "Ready", status: "True" }], containerStatuses: [container({ running: { startedAt: "2026-11-28T02:00:00Z" } }, true)] });
const crashing = () => pod({ phase: "Running", containerStatuses: [container({ waiting: { reason: "CrashLoopBackOff" } })] });
const oomKilled = () => pod({ phase: "Running", containerStatuses: [container({ terminated: { exitCode: 137, reason: "OOMKilled" } })] });
const pending = () => pod({ phase: "Pending" });

describe("podStateCounts", () => {
  it("counts kubectl's STATUS words, errors first, then warnings, healthy last", () => {
    const pods = [running(), crashing(), pending(), ...Array.from({ length: 3 }, running), crashing(), oomKilled(), pending(), crashing(), crashing(), pending()];
    expect(podStateCounts(pods, now).map((c) => `${c.count} ${c.label} (${c.tone})`)).toEqual([
      "4 CrashLoopBackOff (error)",
      "1 OOMKilled (error)",
      "3 Pending (warning)",
      "4 Running (ok)",
    ]);
  });

  it("a pod being deleted is Terminating, and a Running pod with unready containers is counted apart", () => {
    const terminating = running();
    terminating.metadata.deletionTimestamp = "2026-11-28T02:59:00Z";
    const unready = pod({ phase: "Running", containerStatuses: [container({ running: { startedAt: "2026-11-28T02:00:00Z" } })] });
    expect(podStateCounts([running(), terminating, unready], now).map((c) => [c.label, c.state, c.count])).toEqual([
      ["Running, not ready", "Running", 1],
      ["Terminating", "Terminating", 1],
      ["Running", "Running", 1],
    ]);
  });

  it("no pods, no counts", () => {
    expect(podStateCounts([], now)).toEqual([]);
  });
});
