// Who manages which field of an object, for the console's managed-fields view: each `metadata.managedFields`
// entry (manager, operation, apiVersion, time, subresource) with its FieldsV1 set decoded into the paths kube
// prints in apply conflicts (`.data.key`, `.spec.containers[name="app"].image`), in tree order: a field
// before what it contains, siblings in FieldsV1 order. Decoding is lib/apply's, the server's own.
import { FieldsV1Error, fromFieldsV1 } from "@/lib/apply/fields-v1";
import type { FieldSet } from "@/lib/apply/field-set";
import { comparePathElements, pathElementString, PathElementError, type PathElement } from "@/lib/apply/path-element";
import type { KubeObject } from "@/lib/kinds";

export interface ManagerFields {
  manager: string;
  operation: string;
  apiVersion?: string;
  time?: string;
  subresource?: string;
  /** Every field the entry owns, parents included (owning `.data` is owning the map itself). */
  fields: string[];
  /** Set when the entry's fieldsV1 does not decode (its fields are then unknown). */
  error?: string;
}

/** Paths of a set in tree order: each member, then the fields inside it, as `kubectl` readers expect. */
export function fieldPaths(set: FieldSet, prefix = ""): string[] {
  const out: string[] = [];
  const { members, children } = set;
  const elements: { pe: PathElement; member: boolean; child?: FieldSet }[] = [];
  let mi = 0;
  let ci = 0;
  while (mi < members.length || ci < children.length) {
    const c = mi < members.length && ci < children.length ? comparePathElements(members[mi], children[ci].pe) : mi < members.length ? -1 : 1;
    if (c < 0) elements.push({ pe: members[mi++], member: true });
    else if (c > 0) elements.push({ pe: children[ci].pe, member: false, child: children[ci++].set });
    else elements.push({ pe: members[mi++], member: true, child: children[ci++].set });
  }
  for (const e of elements) {
    const path = prefix + pathElementString(e.pe);
    if (e.member) out.push(path);
    if (e.child) out.push(...fieldPaths(e.child, path));
  }
  return out;
}

const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);

/** The object's managedFields, one row per entry in the order the server keeps them. */
export function managerFields(obj: KubeObject | undefined): ManagerFields[] {
  const entries = obj?.metadata?.managedFields;
  if (!Array.isArray(entries)) return [];
  return entries.map((raw): ManagerFields => {
    const e = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
    const row: ManagerFields = {
      manager: text(e.manager) ?? "(no manager)",
      operation: text(e.operation) ?? "",
      apiVersion: text(e.apiVersion),
      time: text(e.time),
      subresource: text(e.subresource),
      fields: [],
    };
    try {
      row.fields = fieldPaths(fromFieldsV1(e.fieldsV1));
    } catch (err) {
      if (!(err instanceof FieldsV1Error || err instanceof PathElementError)) throw err;
      row.error = `fieldsV1 does not decode: ${err.message}`;
    }
    return row;
  });
}
