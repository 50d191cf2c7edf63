// A CustomResourceDefinition as its page reads it: the names and scope it asks for (and those the API server
// accepted, which differ when a name conflicts), one row per version (served, storage, stored, deprecated,
// subresources, printer columns), the stored versions no longer served, and where its custom resources are
// listed in the console. Pure: the page's components render these.
import type {
  CustomResourceColumnDefinition,
  CustomResourceDefinition,
  CustomResourceDefinitionNames,
} from "@/lib/kinds/custom-resource-definition";
import type { JSONSchemaProps } from "@/lib/crd-schema/types";
import type { KubeObject } from "@/lib/kinds";

type Loose = Record<string, unknown>;

const record = (v: unknown): Loose => (v && typeof v === "object" && !Array.isArray(v) ? (v as Loose) : {});
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
const str = (v: unknown): string => (typeof v === "string" ? v : "");

export interface CrdNames {
  group: string;
  kind: string;
  listKind: string;
  plural: string;
  singular: string;
  shortNames: string[];
  categories: string[];
  /** "Namespaced" or "Cluster". */
  scope: string;
  /** The resource as kubectl names it: `<plural>.<group>`. */
  resource: string;
}

export function crdNames(obj: KubeObject): CrdNames {
  const spec = record((obj as CustomResourceDefinition).spec);
  const names = record(spec.names);
  const group = str(spec.group);
  const plural = str(names.plural);
  return {
    group,
    kind: str(names.kind),
    listKind: str(names.listKind),
    plural,
    singular: str(names.singular),
    shortNames: strings(names.shortNames),
    categories: strings(names.categories),
    scope: str(spec.scope),
    resource: plural && group ? `${plural}.${group}` : plural || obj.metadata.name || "",
  };
}

export interface NameDifference {
  field: keyof CustomResourceDefinitionNames;
  /** What spec.names asks for. */
  requested: string;
  /** What status.acceptedNames holds ("" when none was accepted yet). */
  accepted: string;
}

const NAME_FIELDS: (keyof CustomResourceDefinitionNames)[] = ["plural", "singular", "shortNames", "kind", "listKind", "categories"];

/**
 * The names the API server has not accepted as asked: each field of spec.names whose status.acceptedNames
 * differs (a name another CRD of the group holds keeps its old accepted value, or none). Nothing while the
 * server has not looked at the CRD yet (no NamesAccepted condition), since acceptedNames then starts empty.
 */
export function nameDifferences(obj: KubeObject): NameDifference[] {
  const crd = obj as CustomResourceDefinition;
  const status = record(crd.status);
  const conditions = Array.isArray(status.conditions) ? (status.conditions as Loose[]) : [];
  if (!conditions.some((c) => c.type === "NamesAccepted")) return [];
  const requested = record(record(crd.spec).names);
  const accepted = record(status.acceptedNames);
  const text = (v: unknown) => (Array.isArray(v) ? strings(v).join(", ") : str(v));
  const out: NameDifference[] = [];
  for (const field of NAME_FIELDS) {
    const want = text(requested[field]);
    const have = text(accepted[field]);
    if (want !== have) out.push({ field, requested: want, accepted: have });
  }
  return out;
}

export interface PrinterColumn {
  name: string;
  type: string;
  format?: string;
  jsonPath: string;
  description?: string;
  /** kubectl shows a column of priority > 0 only with `-o wide`. */
  wideOnly: boolean;
}

export interface VersionRow {
  name: string;
  served: boolean;
  storage: boolean;
  /** In status.storedVersions: objects may be stored at this version. */
  stored: boolean;
  deprecated: boolean;
  /** The Warning kube sends for a deprecated version: the CRD's own words or kube's default. */
  deprecationWarning?: string;
  statusSubresource: boolean;
  scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
  printerColumns: PrinterColumn[];
  /** selectableFields: the JSON paths field selectors may use besides metadata.name and metadata.namespace. */
  selectableFields: string[];
  schema?: JSONSchemaProps;
}

/** One row per spec.versions entry, in the CRD's order. */
export function versionRows(obj: KubeObject): VersionRow[] {
  const crd = obj as CustomResourceDefinition;
  const spec = record(crd.spec);
  const group = str(spec.group);
  const kind = str(record(spec.names).kind);
  const stored = new Set(strings(record(crd.status).storedVersions));
  const versions = Array.isArray(spec.versions) ? (spec.versions as Loose[]) : [];
  return versions.map((raw) => {
    const v = record(raw);
    const name = str(v.name);
    const sub = record(v.subresources);
    const scale = sub.scale === undefined ? undefined : record(sub.scale);
    const deprecated = v.deprecated === true;
    const columns = Array.isArray(v.additionalPrinterColumns) ? (v.additionalPrinterColumns as CustomResourceColumnDefinition[]) : [];
    return {
      name,
      served: v.served === true,
      storage: v.storage === true,
      stored: stored.has(name),
      deprecated,
      // kube's default warning (apiextensions-apiserver's deprecation warning for a version without its own).
      deprecationWarning: deprecated ? (typeof v.deprecationWarning === "string" ? v.deprecationWarning : `${group}/${name} ${kind} is deprecated`) : undefined,
      statusSubresource: "status" in sub,
      scale: scale && {
        specReplicasPath: str(scale.specReplicasPath),
        statusReplicasPath: str(scale.statusReplicasPath),
        ...(typeof scale.labelSelectorPath === "string" ? { labelSelectorPath: scale.labelSelectorPath } : {}),
      },
      printerColumns: columns.map((c) => ({
        name: str(c.name),
        type: str(c.type),
        ...(c.format ? { format: c.format } : {}),
        jsonPath: str(c.jsonPath),
        ...(c.description ? { description: c.description } : {}),
        wideOnly: (c.priority ?? 0) > 0,
      })),
      selectableFields: (Array.isArray(v.selectableFields) ? (v.selectableFields as unknown[]) : []).map((f) => str(record(f).jsonPath)).filter(Boolean),
      schema: record(v.schema).openAPIV3Schema as JSONSchemaProps | undefined,
    };
  });
}

/**
 * status.storedVersions that are no longer served (or gone from spec.versions): objects may still be stored
 * at them, and no client can read those objects at that version any more. Kube refuses to drop a stored version
 * from spec.versions, so the usual case is a version set to served: false before its objects were migrated.
 */
export function storedNotServed(obj: KubeObject): string[] {
  const crd = obj as CustomResourceDefinition;
  const served = new Set(versionRows(obj).filter((v) => v.served).map((v) => v.name));
  return strings(record(crd.status).storedVersions).filter((v) => !served.has(v));
}

/** The storage version's name (the version whose schema the page opens first), else the first version's. */
export function storageVersion(rows: VersionRow[]): string | undefined {
  return (rows.find((r) => r.storage) ?? rows[0])?.name;
}

/**
 * The console's list of the CRD's custom resources, `/<plural>.<group>` (all namespaces for a namespaced kind),
 * once the kind is served: Established True. Undefined before, and while it terminates.
 */
export function customResourcesHref(obj: KubeObject): string | undefined {
  const crd = obj as CustomResourceDefinition;
  const conditions = Array.isArray(record(crd.status).conditions) ? (record(crd.status).conditions as Loose[]) : [];
  const established = conditions.some((c) => c.type === "Established" && c.status === "True");
  const terminating = conditions.some((c) => c.type === "Terminating" && c.status === "True") || !!crd.metadata.deletionTimestamp;
  const { plural, group } = crdNames(obj);
  if (!established || terminating || !plural || !group) return undefined;
  return `/${encodeURIComponent(`${plural}.${group}`)}`;
}
