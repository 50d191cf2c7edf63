// A strict reader of the Prometheus text exposition format 0.0.4, for tests and tools: every line must be a
// well-formed HELP, TYPE, comment or sample; a family's samples are contiguous and typed before they start;
// no series repeats; histograms have increasing `le` bounds, cumulative counts, a `+Inf` bucket equal to
// `_count`, and `_sum`/`_count`. Any violation throws an Error naming the line.

export type ParsedType = "counter" | "gauge" | "histogram" | "summary" | "untyped";

export interface ParsedSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface ParsedFamily {
  name: string;
  type: ParsedType;
  help?: string;
  samples: ParsedSample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*/;
const TYPES = new Set<ParsedType>(["counter", "gauge", "histogram", "summary", "untyped"]);

function fail(lineNo: number, line: string, why: string): never {
  throw new Error(`line ${lineNo}: ${why}: ${JSON.stringify(line.length > 200 ? `${line.slice(0, 200)}...` : line)}`);
}

/** A float as Go's ParseFloat reads it (what Prometheus uses), plus `+Inf`, `-Inf` and `NaN`. */
function parseNumber(s: string): number | undefined {
  if (s === "+Inf" || s === "Inf") return Infinity;
  if (s === "-Inf") return -Infinity;
  if (s === "NaN") return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(s)) return undefined;
  return Number(s);
}

function unescape(s: string, allowQuote: boolean): string | undefined {
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c !== "\\") { out += c; continue; }
    const n = s[++i];
    if (n === "\\") out += "\\";
    else if (n === "n") out += "\n";
    else if (n === '"' && allowQuote) out += '"';
    else return undefined;
  }
  return out;
}

/** `{a="x",b="y"}` at the start of `s`: the labels and the rest of the line. */
function parseLabels(s: string, lineNo: number, line: string): { labels: Record<string, string>; rest: string } {
  const labels: Record<string, string> = {};
  let i = 1;
  for (;;) {
    if (s[i] === "}") return { labels, rest: s.slice(i + 1) };
    const m = LABEL.exec(s.slice(i));
    if (!m) fail(lineNo, line, "bad label name");
    const name = m[0];
    if (name.startsWith("__")) fail(lineNo, line, `reserved label name ${name}`);
    if (Object.hasOwn(labels, name)) fail(lineNo, line, `label ${name} repeated`);
    i += name.length;
    if (s.slice(i, i + 2) !== '="') fail(lineNo, line, `label ${name} without ="value"`);
    i += 2;
    let raw = "";
    for (;;) {
      if (i >= s.length) fail(lineNo, line, `unterminated value of label ${name}`);
      const c = s[i];
      if (c === "\\") { raw += c + (s[i + 1] ?? ""); i += 2; continue; }
      if (c === '"') break;
      raw += c;
      i++;
    }
    const value = unescape(raw, true);
    if (value === undefined) fail(lineNo, line, `bad escape in label ${name}`);
    labels[name] = value;
    i++;
    if (s[i] === ",") { i++; continue; }
    if (s[i] !== "}") fail(lineNo, line, "expected , or } after a label");
  }
}

/** The family a sample name belongs to, given the families typed so far. */
function familyOf(name: string, families: Map<string, ParsedFamily>): ParsedFamily | undefined {
  const exact = families.get(name);
  if (exact && exact.type !== "histogram" && exact.type !== "summary") return exact;
  for (const suffix of ["_bucket", "_sum", "_count"]) {
    if (!name.endsWith(suffix)) continue;
    const f = families.get(name.slice(0, -suffix.length));
    if (f && (f.type === "histogram" || (f.type === "summary" && suffix !== "_bucket"))) return f;
  }
  if (exact?.type === "summary") return exact;
  return undefined;
}

const seriesKey = (name: string, labels: Record<string, string>) =>
  `${name}{${Object.keys(labels).sort().map((k) => `${k}=${JSON.stringify(labels[k])}`).join(",")}}`;

export function parseExposition(text: string): Map<string, ParsedFamily> {
  if (text !== "" && !text.endsWith("\n")) throw new Error("the exposition does not end with a newline");
  const families = new Map<string, ParsedFamily>();
  const series = new Set<string>();
  const closed = new Set<string>();
  const typed = new Set<string>();
  let current: ParsedFamily | undefined;
  const lines = text === "" ? [] : text.slice(0, -1).split("\n");
  lines.forEach((line, idx) => {
    const lineNo = idx + 1;
    if (line === "") fail(lineNo, line, "empty line");
    if (line.startsWith("#")) {
      const m = /^# (HELP|TYPE) ([^ ]+)(?: (.*))?$/.exec(line);
      if (!m) {
        if (/^#\s*(HELP|TYPE)\b/.test(line)) fail(lineNo, line, "malformed HELP or TYPE line");
        return; // a plain comment
      }
      const [, what, name, arg = ""] = m;
      if (!NAME.test(name) || NAME.exec(name)![0] !== name) fail(lineNo, line, "bad metric name");
      if (closed.has(name)) fail(lineNo, line, `family ${name} appears twice`);
      let f = families.get(name);
      if (f && f !== current) fail(lineNo, line, `family ${name} appears twice`);
      if (f && f.samples.length) fail(lineNo, line, `${what} after the samples of ${name}`);
      if (!f) {
        if (current) closed.add(current.name);
        f = { name, type: "untyped", samples: [] };
        families.set(name, f);
        current = f;
      }
      if (what === "HELP") {
        if (f.help !== undefined) fail(lineNo, line, `second HELP for ${name}`);
        const help = unescape(arg, false);
        if (help === undefined) fail(lineNo, line, "bad escape in HELP");
        f.help = help;
      } else {
        if (typed.has(name)) fail(lineNo, line, `second TYPE for ${name}`);
        if (!TYPES.has(arg as ParsedType)) fail(lineNo, line, `unknown type ${JSON.stringify(arg)}`);
        f.type = arg as ParsedType;
        typed.add(name);
      }
      return;
    }
    const nm = NAME.exec(line);
    if (!nm) fail(lineNo, line, "bad metric name");
    const name = nm[0];
    let rest = line.slice(name.length);
    let labels: Record<string, string> = {};
    if (rest.startsWith("{")) ({ labels, rest } = parseLabels(rest, lineNo, line));
    const vm = /^ (\S+)(?: (-?\d+))?$/.exec(rest);
    if (!vm) fail(lineNo, line, "expected ' value [timestamp]' after the name and labels");
    const value = parseNumber(vm[1]);
    if (value === undefined) fail(lineNo, line, `bad value ${JSON.stringify(vm[1])}`);
    let f = familyOf(name, families);
    if (!f) {
      if (families.has(name) || closed.has(name)) fail(lineNo, line, `sample ${name} outside its family`);
      if (current) closed.add(current.name);
      f = { name, type: "untyped", samples: [] };
      families.set(name, f);
      current = f;
    }
    if (f !== current) fail(lineNo, line, `sample of ${f.name} after another family started`);
    if (f.type === "histogram" && name === `${f.name}_bucket` && labels.le === undefined) fail(lineNo, line, "bucket without le");
    if (f.type === "histogram" && name !== `${f.name}_bucket` && labels.le !== undefined) fail(lineNo, line, "le on a non-bucket sample");
    if (f.type === "counter" && value < 0) fail(lineNo, line, "negative counter");
    const key = seriesKey(name, labels);
    if (series.has(key)) fail(lineNo, line, `series ${key} repeated`);
    series.add(key);
    f.samples.push({ name, labels, value });
  });
  for (const f of families.values()) if (f.type === "histogram") checkHistogram(f);
  return families;
}

function checkHistogram(f: ParsedFamily): void {
  const groups = new Map<string, { buckets: [number, number][]; sum?: number; count?: number }>();
  for (const s of f.samples) {
    const { le, ...rest } = s.labels;
    const key = seriesKey("", rest);
    let g = groups.get(key);
    if (!g) { g = { buckets: [] }; groups.set(key, g); }
    if (s.name.endsWith("_bucket")) {
      const bound = parseNumber(le);
      if (bound === undefined || Number.isNaN(bound)) throw new Error(`${f.name}${key}: bad le ${JSON.stringify(le)}`);
      g.buckets.push([bound, s.value]);
    } else if (s.name.endsWith("_sum")) g.sum = s.value;
    else g.count = s.value;
  }
  for (const [key, g] of groups) {
    const where = `${f.name}${key}`;
    if (g.sum === undefined || g.count === undefined) throw new Error(`${where}: histogram without _sum or _count`);
    for (let i = 1; i < g.buckets.length; i++) {
      if (!(g.buckets[i][0] > g.buckets[i - 1][0])) throw new Error(`${where}: le bounds not increasing`);
      if (g.buckets[i][1] < g.buckets[i - 1][1]) throw new Error(`${where}: bucket counts not cumulative`);
    }
    const last = g.buckets.at(-1);
    if (!last || last[0] !== Infinity) throw new Error(`${where}: no +Inf bucket`);
    if (last[1] !== g.count) throw new Error(`${where}: +Inf bucket ${last[1]} differs from _count ${g.count}`);
  }
}

/** The value of one series (labels must match exactly), or undefined. */
export function sampleValue(families: Map<string, ParsedFamily>, name: string, labels: Record<string, string> = {}): number | undefined {
  const key = seriesKey(name, labels);
  for (const f of families.values()) {
    for (const s of f.samples) if (s.name === name && seriesKey(s.name, s.labels) === key) return s.value;
  }
  return undefined;
}

/** Every sample of `name` whose labels include `match`. */
export function samplesMatching(families: Map<string, ParsedFamily>, name: string, match: Record<string, string> = {}): ParsedSample[] {
  const out: ParsedSample[] = [];
  for (const f of families.values()) {
    for (const s of f.samples) {
      if (s.name === name && Object.entries(match).every(([k, v]) => s.labels[k] === v)) out.push(s);
    }
  }
  return out;
}
