// Preloaded into every server the benchmark starts (ours and the references alike, with
// `node --import tsx --import ./bench/probe.ts ...`), so resource figures come from outside the server's own
// code: event-loop delay (perf_hooks.monitorEventLoopDelay), peak RSS sampled every 50 ms, and
// process.memoryUsage(). Answers the orchestrator over the IPC channel only; does nothing without one.
import { monitorEventLoopDelay } from "node:perf_hooks";

if (process.send) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let peakRss = process.memoryUsage.rss();
  const sampler = setInterval(() => {
    const rss = process.memoryUsage.rss();
    if (rss > peakRss) peakRss = rss;
  }, 50);
  sampler.unref();

  const stats = () => {
    const m = process.memoryUsage();
    if (m.rss > peakRss) peakRss = m.rss;
    const ms = (ns: number) => Number((ns / 1e6).toFixed(2));
    return {
      eldP50: ms(histogram.percentile(50)),
      eldP99: ms(histogram.percentile(99)),
      eldMax: ms(histogram.max),
      rss: m.rss,
      peakRss,
      heapUsed: m.heapUsed,
      external: m.external,
      arrayBuffers: m.arrayBuffers,
    };
  };

  process.on("message", (msg: { probe?: number; cmd?: string }) => {
    if (!msg || typeof msg.probe !== "number") return;
    if (msg.cmd === "gc") {
      const gc = (globalThis as { gc?: () => void }).gc;
      if (gc) { gc(); gc(); }
    }
    if (msg.cmd === "reset") {
      histogram.reset();
      peakRss = process.memoryUsage.rss();
    }
    process.send?.({ probe: msg.probe, stats: stats() });
  });
  // The channel must not keep a server alive on its own.
  process.channel?.unref();
}
