// The process figures every Prometheus client exposes (the Go client's names, read from /proc on Linux as it
// does): CPU time, memory, file descriptors and start time. Read at scrape time only; where /proc is missing
// the /proc-based figures are left out and the rest stays.
import { readdirSync, readFileSync } from "node:fs";
import { Gauge, type Samples } from "./gauge";
import type { Collectable } from "./text-format";

const one = (v: number | undefined): Samples => (v === undefined || !Number.isFinite(v) ? [] : [[[], v]]);

function procStatusKiB(field: string): number | undefined {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(readFileSync("/proc/self/status", "utf8"));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** The soft limit of one /proc/self/limits row ("unlimited" as the Go client reports it: 2^64 - 1). */
function softLimit(row: string): number | undefined {
  try {
    const line = readFileSync("/proc/self/limits", "utf8").split("\n").find((l) => l.startsWith(row));
    const soft = line?.slice(row.length).trim().split(/\s+/)[0];
    if (soft === undefined) return undefined;
    return soft === "unlimited" ? 2 ** 64 - 1 : Number(soft);
  } catch {
    return undefined;
  }
}

function openFds(): number | undefined {
  try {
    return readdirSync("/proc/self/fd").length;
  } catch {
    return undefined;
  }
}

export function processMetrics(): Collectable[] {
  const startSeconds = Math.round(performance.timeOrigin) / 1000;
  return [
    new Gauge("process_cpu_seconds_total", "Total user and system CPU time spent in seconds.", [], () => {
      const u = process.cpuUsage();
      return one((u.user + u.system) / 1e6);
    }, "counter"),
    new Gauge("process_resident_memory_bytes", "Resident memory size in bytes.", [], () => one(process.memoryUsage.rss())),
    new Gauge("process_virtual_memory_bytes", "Virtual memory size in bytes.", [], () => one(procStatusKiB("VmSize"))),
    new Gauge("process_virtual_memory_max_bytes", "Maximum amount of virtual memory available in bytes.", [], () => one(softLimit("Max address space"))),
    new Gauge("process_open_fds", "Number of open file descriptors.", [], () => one(openFds())),
    new Gauge("process_max_fds", "Maximum number of open file descriptors.", [], () => one(softLimit("Max open files"))),
    new Gauge("process_start_time_seconds", "Start time of the process since unix epoch in seconds.", [], () => one(startSeconds)),
  ];
}
