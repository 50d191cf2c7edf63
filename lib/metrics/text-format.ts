// The Prometheus text exposition format, version 0.0.4 (what Prometheus and kube-apiserver's /metrics speak):
// `# HELP` and `# TYPE` lines per family, then one sample per line, `name{label="value",...} value`.

export const CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

export type MetricType = "counter" | "gauge" | "histogram";

/** One family's samples, appended to `out` one line each (no trailing newline). */
export interface Collectable {
  readonly name: string;
  readonly help: string;
  readonly type: MetricType;
  /** False when the family has no sample to show (a labelled family nobody has used yet is left out). */
  write(out: string[]): boolean;
}

/** `# HELP` text: backslash and newline escaped. */
export function escapeHelp(s: string): string {
  return s.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
}

/** A label value: backslash, double quote and newline escaped. */
export function escapeLabelValue(s: string): string {
  return s.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

/** A sample value (or `le` bound) as Prometheus writes it: `+Inf`, `-Inf`, `NaN`, otherwise the shortest decimal. */
export function formatValue(n: number): string {
  if (n === Infinity) return "+Inf";
  if (n === -Infinity) return "-Inf";
  if (Number.isNaN(n)) return "NaN";
  return String(n);
}

/** `{a="x",b="y"}`, or "" without labels. */
export function labelsText(names: readonly string[], values: readonly string[], extra?: [string, string]): string {
  const parts: string[] = [];
  for (let i = 0; i < names.length; i++) parts.push(`${names[i]}="${escapeLabelValue(values[i])}"`);
  if (extra) parts.push(`${extra[0]}="${escapeLabelValue(extra[1])}"`);
  return parts.length ? `{${parts.join(",")}}` : "";
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** Throws on a name Prometheus would refuse (checked once, when a family is declared). */
export function checkNames(name: string, labelNames: readonly string[], reserved: readonly string[] = []): void {
  if (!METRIC_NAME.test(name)) throw new Error(`invalid metric name ${JSON.stringify(name)}`);
  for (const l of labelNames) {
    if (!LABEL_NAME.test(l) || l.startsWith("__") || reserved.includes(l)) throw new Error(`invalid label name ${JSON.stringify(l)} for ${name}`);
  }
  if (new Set(labelNames).size !== labelNames.length) throw new Error(`duplicate label names for ${name}`);
}

/** The header lines of a family. */
export function header(m: Collectable): string[] {
  return [`# HELP ${m.name} ${escapeHelp(m.help)}`, `# TYPE ${m.name} ${m.type}`];
}

/** The whole exposition: families in name order, as the Go client writes them. */
export function encode(families: Iterable<Collectable>): string {
  const sorted = [...families].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const lines: string[] = [];
  for (const m of sorted) {
    const samples: string[] = [];
    if (!m.write(samples)) continue;
    lines.push(...header(m), ...samples);
  }
  return lines.length ? `${lines.join("\n")}\n` : "";
}
