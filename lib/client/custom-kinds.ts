// Custom kinds as the console knows them: read from the server's aggregated discovery (`/apis` asked for
// apidiscovery.k8s.io/v2) while the console runs, never compiled in. Pure: the discovery document (and, when the
// user may read them, the CRDs' printer columns) → console kinds shaped like the built-in declarations, so the
// generic views (lists, object pages, YAML, delete, history) take them as they take a ConfigMap.
// A custom kind's console URL segment is `<plural>.<group>`, as kubectl names it (`widgets.example.com`); the
// built-in kinds keep their plural, which never holds a dot.
import { nameColumn, timestampSince } from "../kinds/columns";
import { kinds as builtInKinds, type AnyKind, type Column, type KubeObject } from "../kinds";
import type { CustomResourceColumnDefinition } from "../kinds/custom-resource-definition";

/** What the console needs of one custom kind (serialisable: the server page hands it to the browser). */
export interface CustomKindInfo {
  group: string;
  /** The served version the console reads and writes: discovery's preferred (first) version holding the kind. */
  version: string;
  plural: string;
  singular: string;
  kind: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  verbs: string[];
  /** Whether the version has a `/status` subresource. */
  hasStatus: boolean;
  /** The version's `additionalPrinterColumns` (from its CRD, when the user may read it). */
  printerColumns?: PrinterColumn[];
}

/** A version's `additionalPrinterColumns` entry, as the CRD declares it (a type only: nothing of lib/kinds' CRD kind is bundled). */
export type PrinterColumn = CustomResourceColumnDefinition;

/** The subset of apidiscovery.k8s.io/v2's APIGroupDiscoveryList read here. */
export interface DiscoveryList {
  items?: {
    metadata?: { name?: string };
    versions?: {
      version?: string;
      resources?: {
        resource?: string;
        responseKind?: { kind?: string };
        scope?: string;
        singularResource?: string;
        verbs?: string[];
        shortNames?: string[];
        categories?: string[];
        subresources?: { subresource?: string }[];
      }[];
    }[];
  }[];
}

/** The aggregated discovery media type the browser asks `/apis` for. */
export const AGGREGATED_DISCOVERY_ACCEPT = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

const builtIn = new Set<string>();
for (const k of builtInKinds) {
  builtIn.add(`${k.group ?? ""}/${k.plural}`);
  for (const n of k.alsoServedBy ?? []) builtIn.add(`${n.group}/${k.plural}`);
}

/** The route segment of a kind: its plural, or a custom kind's `<plural>.<group>`. */
export function kindSegment(kind: AnyKind): string {
  return kind.storageResource ?? kind.plural;
}

/** A route segment read back: `widgets.example.com` → plural `widgets` of group `example.com`; `pods` → core or built-in. */
export function parseKindSegment(segment: string): { plural: string; group?: string } {
  const dot = segment.indexOf(".");
  if (dot <= 0 || dot === segment.length - 1) return { plural: segment };
  return { plural: segment.slice(0, dot), group: segment.slice(dot + 1) };
}

/**
 * The custom kinds in an aggregated discovery document: every listable resource (no subresource) that no
 * built-in kind serves, at the group's preferred version (discovery lists versions most preferred first; a
 * kind not served there is taken at the first version that serves it).
 */
export function customKindsFromDiscovery(list: DiscoveryList): CustomKindInfo[] {
  const out: CustomKindInfo[] = [];
  for (const group of list.items ?? []) {
    const name = group.metadata?.name ?? "";
    if (!name) continue;
    const seen = new Set<string>();
    for (const version of group.versions ?? []) {
      for (const r of version.resources ?? []) {
        const plural = r.resource ?? "";
        if (!plural || plural.includes("/") || seen.has(plural) || builtIn.has(`${name}/${plural}`)) continue;
        const verbs = r.verbs ?? [];
        if (!verbs.includes("list") || !verbs.includes("get")) continue;
        seen.add(plural);
        const kind = r.responseKind?.kind ?? "";
        out.push({
          group: name,
          version: version.version ?? "",
          plural,
          singular: r.singularResource || kind.toLowerCase(),
          kind,
          namespaced: r.scope === "Namespaced",
          shortNames: r.shortNames ?? [],
          categories: r.categories ?? [],
          verbs,
          hasStatus: (r.subresources ?? []).some((s) => s.subresource === "status"),
        });
      }
    }
  }
  return out.sort((a, b) => (a.group === b.group ? a.kind.localeCompare(b.kind) : a.group.localeCompare(b.group)));
}

/** The subset of a CustomResourceDefinition read for printer columns. */
export interface CrdColumnsSource {
  metadata?: { name?: string };
  spec?: { versions?: { name?: string; additionalPrinterColumns?: PrinterColumn[] }[] };
}

/** Each kind with its version's printer columns from the CRD named `<plural>.<group>`, when one is given. */
export function withPrinterColumns(infos: CustomKindInfo[], crds: readonly CrdColumnsSource[]): CustomKindInfo[] {
  const byName = new Map(crds.map((c) => [c.metadata?.name ?? "", c]));
  return infos.map((info) => {
    const version = byName.get(`${info.plural}.${info.group}`)?.spec?.versions?.find((v) => v.name === info.version);
    return version?.additionalPrinterColumns?.length ? { ...info, printerColumns: version.additionalPrinterColumns } : info;
  });
}

/**
 * The value at a printer column's JSONPath (`.spec.replicas`, `.status.conditions[0].type`,
 * `.metadata.labels['app']`), or undefined when a step is missing. kube allows only such simple paths there.
 */
export function valueAtJsonPath(obj: unknown, path: string): unknown {
  const p = path.startsWith("{") && path.endsWith("}") ? path.slice(1, -1) : path;
  const re = /\.([^.[\]]+)|\[(\d+)\]|\[['"]([^'"]*)['"]\]/gy;
  let v: unknown = obj;
  let m: RegExpExecArray | null;
  while (re.lastIndex < p.length && (m = re.exec(p))) {
    const step = m[1] ?? (m[2] !== undefined ? Number(m[2]) : m[3]);
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<string | number, unknown>)[step];
  }
  return re.lastIndex === p.length ? v : undefined;
}

const AGE: PrinterColumn = { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp", description: "" };

/** A printer column as kube's table convertor prints its value: dates as ages, missing as `<none>`. */
function printerColumn(c: PrinterColumn): Column {
  const type = (["integer", "number", "boolean", "date"].includes(c.type ?? "") ? c.type : "string") as Column["type"];
  return {
    name: c.name ?? "",
    type,
    format: c.format ?? "",
    priority: c.priority && c.priority > 0 ? 1 : 0,
    description: c.description ?? "",
    cell: (obj, now) => {
      const v = valueAtJsonPath(obj, c.jsonPath ?? "");
      if (v === undefined || v === null) return "<none>";
      if (type === "date") return typeof v === "string" ? timestampSince(v, now) : String(v);
      if ((type === "integer" || type === "number") && typeof v === "number") return v;
      if (type === "boolean" && typeof v === "boolean") return v;
      return typeof v === "object" ? JSON.stringify(v) : String(v);
    },
  };
}

/**
 * Columns as `kubectl get` shows a custom kind: Name, the declared printer columns, and Age last when no
 * column is a date already (kube's default columns are Name and Age).
 */
export function customColumns(info: CustomKindInfo): Column[] {
  const declared = info.printerColumns ?? [];
  const cols = declared.map(printerColumn);
  if (!declared.some((c) => c.type === "date")) cols.push(printerColumn(AGE));
  return [nameColumn, ...cols];
}

/** The console's declaration of a custom kind: the fields the generic views read (no server hooks). */
export function consoleKindOf(info: CustomKindInfo): AnyKind {
  const apiVersion = `${info.group}/${info.version}`;
  const template: KubeObject = { apiVersion, kind: info.kind, metadata: { name: "example" } };
  return {
    kind: info.kind,
    group: info.group,
    version: info.version,
    storageResource: `${info.plural}.${info.group}`,
    plural: info.plural,
    singular: info.singular,
    shortNames: info.shortNames,
    categories: info.categories,
    namespaced: info.namespaced,
    nameRule: "dns1123-subdomain",
    genericObjectMeta: true,
    hasStatus: info.hasStatus,
    generation: true,
    verbs: info.verbs,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
    deleteReturns: "status",
    deleteCollection: info.verbs.includes("deletecollection"),
    selectableFields: {},
    fieldSelectorError: "known-only",
    columns: customColumns(info),
    template,
  } as AnyKind;
}

/** Whether a kind is one the console learnt from discovery (a custom kind), not one compiled in. */
export function isCustomKind(kind: AnyKind): boolean {
  return kind.storageResource !== undefined && !builtInKinds.includes(kind);
}
