// Reusable pieces of kube-apiserver's printers (server-side Table output and the console's list columns).
import type { Column, KubeObject } from "./types";

export const NONE = "<none>";
export const UNKNOWN = "<unknown>";
export const UNSET = "<unset>";

/** ObjectMeta swagger descriptions, which kube-apiserver uses for its Name and Age columns. */
export const metadataDescriptions = {
  name:
    "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names",
  creationTimestamp:
    "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
};

type CellValue = string | number | boolean;

interface ColumnSpec<T> {
  name: string;
  type?: Column["type"];
  format?: string;
  priority?: 0 | 1;
  description: string;
  cell: (obj: T, now: number) => CellValue;
}

/** Declares a column over a kind's own type; the Table contract hands cells a plain KubeObject. */
export function column<T extends KubeObject>(spec: ColumnSpec<T>): Column {
  return {
    name: spec.name,
    type: spec.type ?? "string",
    format: spec.format ?? "",
    priority: spec.priority ?? 0,
    description: spec.description,
    cell: (obj, now) => spec.cell(obj as T, now),
  };
}

export const nameColumn: Column = column({
  name: "Name",
  format: "name",
  description: metadataDescriptions.name,
  cell: (obj) => obj.metadata?.name ?? "",
});

export const ageColumn: Column = column({
  name: "Age",
  description: metadataDescriptions.creationTimestamp,
  cell: (obj, now) => timestampSince(obj.metadata?.creationTimestamp, now),
});

/**
 * kubectl's human duration (apimachinery duration.HumanDuration): about two significant figures,
 * e.g. `5s`, `119s`, `3m10s`, `45m`, `5h3m`, `20h`, `2d5h`, `40d`, `2y326d`, `9y`.
 * Up to two seconds in the future reads as `0s` (clock skew); further is `<invalid>`.
 */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(ms / 60_000);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(ms / 3_600_000);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  const days = Math.trunc(hours / 24);
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${days}d` : `${days}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.trunc(days / 365);
  if (hours < 24 * 365 * 8) {
    const d = days % 365;
    return d === 0 ? `${years}y` : `${years}y${d}d`;
  }
  return `${years}y`;
}

/** Age of a timestamp as kubectl prints it; `<unknown>` when unset (Go's zero time) or unparseable. */
export function timestampSince(timestamp: string | null | undefined, now: number): string {
  if (!timestamp) return UNKNOWN;
  const at = Date.parse(timestamp);
  return Number.isNaN(at) ? UNKNOWN : humanDuration(now - at);
}

/** `k1=v1,k2=v2` with keys sorted, `<none>` when empty (labels.FormatLabels). */
export function formatLabels(labels: Record<string, string> | null | undefined): string {
  const keys = Object.keys(labels ?? {}).sort();
  return keys.length ? keys.map((k) => `${k}=${labels![k]}`).join(",") : NONE;
}

const accessModeAbbreviations: [string, string][] = [
  ["ReadWriteOnce", "RWO"],
  ["ReadOnlyMany", "ROX"],
  ["ReadWriteMany", "RWX"],
  ["ReadWriteOncePod", "RWOP"],
];

/** `RWO,ROX,RWX,RWOP` in that fixed order, duplicates and unknown modes dropped. */
export function formatAccessModes(modes: string[] | null | undefined): string {
  const present = new Set(modes ?? []);
  return accessModeAbbreviations.filter(([mode]) => present.has(mode)).map(([, short]) => short).join(",");
}

/** `ip:port`, with IPv6 addresses bracketed as net.JoinHostPort does. */
export function joinHostPort(host: string, port: number | string): string {
  return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
}

/** A quantity string as printed (Quantity.String()); a missing quantity prints as `0`. */
export function formatQuantity(quantity: string | number | null | undefined): string {
  return quantity === undefined || quantity === null || quantity === "" ? "0" : String(quantity);
}

/** Go's zero time, which the default table convertor prints for an object without a creationTimestamp. */
const ZERO_TIME = "0001-01-01T00:00:00Z";

/**
 * The default table convertor's second column (kinds without a kube-apiserver printer: `Name, Created At`):
 * the creation time in RFC 3339, UTC, whole seconds.
 */
export const createdAtColumn: Column = column({
  name: "Created At",
  type: "date",
  description: metadataDescriptions.creationTimestamp,
  cell: (obj) => {
    const timestamp = obj.metadata?.creationTimestamp;
    const at = timestamp ? Date.parse(timestamp) : NaN;
    return Number.isNaN(at) ? ZERO_TIME : new Date(at).toISOString().replace(/\.\d{3}Z$/, "Z");
  },
});
