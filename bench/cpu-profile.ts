// Reads a .cpuprofile (BENCH_CPU_PROF=1, or node --cpu-prof) and prints where the time went: self time per
// file and per function, and inclusive time per function, as shares of the busy (non-idle) samples.
//   node --import tsx bench/cpu-profile.ts <file.cpuprofile> [rows]     whole profile
//   HIST=1 ...                      busy/idle ms per second since the start (to find the load window)
//   FROM_S=10 TO_S=18 ...           only the samples in that window (seconds since the start)
import { readFileSync } from "node:fs";

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
interface Profile { nodes: Node[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] }

const p = JSON.parse(readFileSync(process.argv[2], "utf8")) as Profile;
const rows = Number(process.argv[3] ?? 40);
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
let t = p.startTime;
const times = p.timeDeltas.map((d) => (t += d));
const idle = (id: number) => byId.get(id)!.callFrame.functionName === "(idle)";

if (process.env.HIST) {
  const h = new Map<number, [number, number]>();
  p.samples.forEach((id, i) => {
    const sec = Math.floor((times[i] - p.startTime) / 1e6);
    const e = h.get(sec) ?? [0, 0];
    e[idle(id) ? 1 : 0] += p.timeDeltas[i];
    h.set(sec, e);
  });
  for (const [sec, [busy, idleUs]] of [...h].sort((a, b) => a[0] - b[0])) console.log(`${sec}s busy ${(busy / 1e3).toFixed(0)} ms, idle ${(idleUs / 1e3).toFixed(0)} ms`);
  process.exit(0);
}

const from = p.startTime + Number(process.env.FROM_S ?? 0) * 1e6;
const to = process.env.TO_S ? p.startTime + Number(process.env.TO_S) * 1e6 : Infinity;
const file = (url: string) => (url || "(native)").replace(/^file:\/\//, "").replace(/.*\/node_modules\//, "node_modules/").replace(/.*cluster-core-bench-[^/]+\/src\//, "");
const label = (n: Node) => `${n.callFrame.functionName || "(anonymous)"} ${file(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
const self = new Map<string, number>(), byFile = new Map<string, number>(), inclusive = new Map<string, number>();
let total = 0;
const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
p.samples.forEach((id, i) => {
  if (times[i] < from || times[i] >= to || idle(id)) return;
  const dt = p.timeDeltas[i];
  const n = byId.get(id)!;
  total += dt;
  add(self, label(n), dt);
  add(byFile, file(n.callFrame.url), dt);
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const k = label(byId.get(cur)!);
    if (!seen.has(k)) { seen.add(k); add(inclusive, k, dt); }
  }
});
const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`).join("\n");
console.log(`busy ${(total / 1e6).toFixed(2)} s`);
console.log(`== self time by file\n${top(byFile, 25)}\n== self time by function\n${top(self, rows)}\n== inclusive time by function\n${top(inclusive, rows)}`);
