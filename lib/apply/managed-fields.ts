// `metadata.managedFields` ↔ the ownership map the updater works on, as apimachinery's managedfields package
// encodes it. Entries are keyed by a manager identifier: the JSON of the entry's manager, operation,
// apiVersion (Update only) and subresource, so one manager has one Apply entry and one Update entry per
// version and subresource. Encoded entries are sorted by operation, time, manager, apiVersion, subresource.
import { fromFieldsV1, toFieldsV1, type FieldsV1 } from "./fields-v1";
import { goQuoteJson } from "./go-json";
import type { ManagedSets } from "./updater";

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: FieldsV1;
  subresource?: string;
}

/** The ownership map and, per manager identifier, the time of its last change. */
export interface Managed {
  fields: ManagedSets;
  times: Map<string, string | undefined>;
}

export const emptyManaged = (): Managed => ({ fields: new Map(), times: new Map() });

export class ManagedFieldsError extends Error {}

export interface ManagerInfo {
  manager: string;
  operation: "Apply" | "Update";
  apiVersion?: string;
  subresource?: string;
}

/** BuildManagerIdentifier: the entry without its fields and time, and without apiVersion for appliers. */
export function managerIdentifier(info: ManagerInfo): string {
  const parts: string[] = [];
  if (info.manager) parts.push(`"manager":${goQuoteJson(info.manager)}`);
  if (info.operation) parts.push(`"operation":${goQuoteJson(info.operation)}`);
  if (info.operation !== "Apply" && info.apiVersion) parts.push(`"apiVersion":${goQuoteJson(info.apiVersion)}`);
  if (info.subresource) parts.push(`"subresource":${goQuoteJson(info.subresource)}`);
  return `{${parts.join(",")}}`;
}

/** The parts of an identifier (it is always JSON this module wrote, or a client's decoded entry re-encoded). */
export function parseIdentifier(id: string): ManagerInfo {
  try {
    const o = JSON.parse(id) as Partial<ManagerInfo>;
    return { manager: o.manager ?? "", operation: o.operation === "Apply" ? "Apply" : "Update", apiVersion: o.apiVersion, subresource: o.subresource };
  } catch {
    return { manager: id, operation: "Update" };
  }
}

const str = (v: unknown) => (typeof v === "string" ? v : "");

/** DecodeManagedFields: throws ManagedFieldsError for an entry kube would not decode. */
export function decodeManagedFields(entries: unknown): Managed {
  const managed = emptyManaged();
  if (entries === undefined || entries === null) return managed;
  if (!Array.isArray(entries)) throw new ManagedFieldsError("managedFields must be a list");
  entries.forEach((raw, i) => {
    const e = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
    const operation = str(e.operation);
    if (operation !== "Apply" && operation !== "Update") throw new ManagedFieldsError("operation must be `Apply` or `Update`");
    const apiVersion = str(e.apiVersion);
    if (!apiVersion) throw new ManagedFieldsError("apiVersion must not be empty");
    const fieldsType = str(e.fieldsType);
    if (fieldsType === "") throw new ManagedFieldsError(`missing fieldsType in managed fields entry ${i}`);
    if (fieldsType !== "FieldsV1") throw new ManagedFieldsError(`invalid fieldsType "${fieldsType}" in managed fields entry ${i}`);
    const id = managerIdentifier({ manager: str(e.manager), operation, apiVersion, subresource: str(e.subresource) });
    let set;
    try {
      set = fromFieldsV1(e.fieldsV1);
    } catch (err) {
      throw new ManagedFieldsError(`error decoding versioned set: ${(err as Error).message}`);
    }
    managed.fields.set(id, { set, apiVersion, applied: operation === "Apply" });
    managed.times.set(id, typeof e.time === "string" ? e.time : undefined);
  });
  return managed;
}

/** Decodes, or undefined when kube would fail to. */
export function tryDecodeManagedFields(entries: unknown): Managed | undefined {
  try {
    return decodeManagedFields(entries);
  } catch (err) {
    if (err instanceof ManagedFieldsError) return undefined;
    throw err;
  }
}

const seconds = (t: string | undefined) => {
  if (!t) return 0;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
};

const cmp = (a: string | undefined, b: string | undefined) => ((a ?? "") < (b ?? "") ? -1 : (a ?? "") > (b ?? "") ? 1 : 0);

/** The `metadata.managedFields` for an ownership map; undefined when nobody owns anything. */
export function encodeManagedFields(managed: Managed): ManagedFieldsEntry[] | undefined {
  if (managed.fields.size === 0) return undefined;
  const entries: ManagedFieldsEntry[] = [];
  for (const [id, vs] of managed.fields) {
    const info = parseIdentifier(id);
    const e: ManagedFieldsEntry = {};
    if (info.manager) e.manager = info.manager;
    e.operation = vs.applied ? "Apply" : info.operation;
    e.apiVersion = vs.apiVersion;
    const time = managed.times.get(id);
    if (time) e.time = time;
    e.fieldsType = "FieldsV1";
    e.fieldsV1 = toFieldsV1(vs.set);
    if (info.subresource) e.subresource = info.subresource;
    entries.push(e);
  }
  return entries.sort((p, q) =>
    cmp(p.operation, q.operation) || seconds(p.time) - seconds(q.time) || cmp(p.manager, q.manager)
    || cmp(p.apiVersion, q.apiVersion) || cmp(p.subresource, q.subresource));
}
