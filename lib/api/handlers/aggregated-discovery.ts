// Aggregated discovery (apidiscovery.k8s.io/v2 and v2beta1 APIGroupDiscoveryList at /api and /apis, with an
// ETag), the form kubectl 1.32 asks for first, built from the legacy lists; and the negotiation at /api and
// /apis between it and the legacy APIVersions/APIGroupList.
import { createHash } from "node:crypto";
import { stringify as toYaml } from "yaml";
import { errors } from "../../status";
import type { ApiResponse } from "../types";
import { apiGroupList, apiGroupNames, apiResourceList, apiVersions, groupVersions, onDiscoveryChanged, type ApiResource } from "./discovery";

export const AGGREGATED_GROUP = "apidiscovery.k8s.io";
export const AGGREGATED_KIND = "APIGroupDiscoveryList";
/** The versions of the aggregated form kube-apiserver 1.32 serves (v2beta1 goes away in 1.33). */
export const AGGREGATED_VERSIONS = ["v2", "v2beta1"] as const;
export type AggregatedVersion = (typeof AGGREGATED_VERSIONS)[number];

interface GroupVersionKind { group: string; version: string; kind: string }

export interface SubresourceDiscovery { subresource: string; responseKind: GroupVersionKind; verbs: string[] }

export interface ResourceDiscovery {
  resource: string;
  responseKind: GroupVersionKind;
  scope: "Namespaced" | "Cluster";
  singularResource: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: SubresourceDiscovery[];
}

export interface GroupDiscovery {
  metadata: { name?: string; creationTimestamp: null };
  versions: { version: string; resources: ResourceDiscovery[]; freshness: "Current" }[];
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * One group version's APIResourceList entries in the aggregated shape, as kube's
 * ConvertGroupVersionIntoToDiscovery does it: each resource with its subresources nested, the response kind's group
 * and version empty unless the entry names its own (`serviceaccounts/token` → authentication.k8s.io/v1
 * TokenRequest). Resources and subresources come in name order, as kube-apiserver installs its paths sorted.
 */
export function toResourceDiscovery(list: ApiResource[]): ResourceDiscovery[] {
  const gvk = (r: ApiResource): GroupVersionKind => ({ group: (r.group as string) ?? "", version: (r.version as string) ?? "", kind: r.kind as string });
  const scope = (r: ApiResource) => (r.namespaced ? "Namespaced" : "Cluster") as ResourceDiscovery["scope"];
  const parents = new Map<string, ResourceDiscovery>();
  for (const r of list) {
    const name = r.name as string;
    if (name.includes("/")) continue;
    const shortNames = r.shortNames as string[] | undefined;
    const categories = r.categories as string[] | undefined;
    parents.set(name, {
      resource: name, responseKind: gvk(r), scope: scope(r), singularResource: r.singularName as string, verbs: [...(r.verbs as string[])],
      ...(shortNames?.length ? { shortNames: [...shortNames] } : {}),
      ...(categories?.length ? { categories: [...categories] } : {}),
    });
  }
  for (const r of list) {
    const [parent, subresource] = (r.name as string).split("/", 2);
    if (subresource === undefined) continue;
    let owner = parents.get(parent);
    if (!owner) {
      // kube lists a subresource without a served parent under an empty parent entry.
      owner = { resource: parent, responseKind: { group: "", version: "", kind: "" }, scope: scope(r), singularResource: "", verbs: [] };
      parents.set(parent, owner);
    }
    (owner.subresources ??= []).push({ subresource, responseKind: gvk(r), verbs: [...(r.verbs as string[])] });
  }
  const out = [...parents.values()].sort((a, b) => byName(a.resource, b.resource));
  for (const r of out) r.subresources?.sort((a, b) => byName(a.subresource, b.subresource));
  return out;
}

function groupDiscovery(name: string): GroupDiscovery {
  const versions = name ? groupVersions(name) : ["v1"];
  return {
    metadata: name ? { name, creationTimestamp: null } : { creationTimestamp: null },
    versions: versions.map((v) => {
      const list = apiResourceList(name ? `${name}/${v}` : v) as { resources: ApiResource[] };
      return { version: v, resources: toResourceDiscovery(list.resources), freshness: "Current" as const };
    }),
  };
}

/** The groups of `/api` (the core group, name "") or `/apis` (every other group, in /apis order). */
export function aggregatedGroups(root: "api" | "apis"): GroupDiscovery[] {
  return root === "api" ? [groupDiscovery("")] : apiGroupNames().map((g) => groupDiscovery(g));
}

/**
 * kube's discovery ETag: the SHA-512 of the document's JSON (the list without its type meta), upper-case hex.
 * Equal documents give equal tags; any change to the content changes it.
 */
export function discoveryETag(items: GroupDiscovery[]): string {
  return createHash("sha512").update(JSON.stringify({ metadata: {}, items })).digest("hex").toUpperCase();
}

interface AggregatedDocument { items: GroupDiscovery[]; etag: string; json: Map<AggregatedVersion, string> }

const aggregatedDocs = new Map<"api" | "apis", AggregatedDocument>();
onDiscoveryChanged(() => aggregatedDocs.clear());

function aggregatedDocument(root: "api" | "apis"): AggregatedDocument {
  let doc = aggregatedDocs.get(root);
  if (!doc) {
    const items = aggregatedGroups(root);
    doc = { items, etag: discoveryETag(items), json: new Map() };
    aggregatedDocs.set(root, doc);
  }
  return doc;
}

/** The APIGroupDiscoveryList of `/api` or `/apis` in one of the served versions. */
export function aggregatedDiscovery(root: "api" | "apis", version: AggregatedVersion = "v2") {
  return { kind: AGGREGATED_KIND, apiVersion: `${AGGREGATED_GROUP}/${version}`, metadata: {}, items: aggregatedDocument(root).items };
}

type Format = "json" | "yaml";

/** What a discovery request at `/api` or `/apis` is answered with. */
export type DiscoveryChoice = { aggregated: AggregatedVersion; format: Format } | { legacy: Format };

interface AcceptClause { type: string; subtype: string; params: Record<string, string>; q: number; order: number }

function parseAccept(header: string): AcceptClause[] {
  const clauses: AcceptClause[] = [];
  header.split(",").forEach((part, order) => {
    const [mime, ...rest] = part.split(";").map((x) => x.trim());
    if (!mime) return;
    const [type, subtype = type === "*" ? "*" : ""] = mime.toLowerCase().split("/", 2);
    const params: Record<string, string> = {};
    let q = 1;
    for (const p of rest) {
      const eq = p.indexOf("=");
      if (eq <= 0) continue;
      const key = p.slice(0, eq).trim();
      const value = p.slice(eq + 1).trim();
      if (key === "q") q = Number(value);
      else params[key] = value;
    }
    if (Number.isFinite(q) && q > 0 && subtype) clauses.push({ type, subtype, params, q, order });
  });
  // Preference as goautoneg sorts: higher q first, then concrete types before wildcards, then header order.
  const wild = (c: AcceptClause) => (c.type === "*" ? 2 : c.subtype === "*" ? 1 : 0);
  return clauses.sort((a, b) => b.q - a.q || wild(a) - wild(b) || a.order - b.order);
}

/** The serialisations offered here, in kube's order (protobuf is not offered for discovery). */
const OFFERED: { type: string; subtype: string; format: Format }[] = [
  { type: "application", subtype: "json", format: "json" },
  { type: "application", subtype: "yaml", format: "yaml" },
];

function matches(c: AcceptClause): Format[] {
  return OFFERED.filter((o) => (c.type === "*" || c.type === o.type) && (c.subtype === "*" || c.subtype === o.subtype)).map((o) => o.format);
}

/**
 * kube's negotiation at /api and /apis: the first clause (in preference order) asking for the aggregated kind
 * (`g=apidiscovery.k8s.io;v=v2|v2beta1;as=APIGroupDiscoveryList`) in a serialisation offered here wins, wherever it
 * sits in the header; otherwise the legacy document in the first clause without conversion parameters; otherwise
 * 406.
 */
export function negotiateDiscovery(accept: string | undefined): DiscoveryChoice {
  if (!accept || !accept.trim()) return { legacy: "json" };
  const clauses = parseAccept(accept);
  for (const c of clauses) {
    const formats = matches(c);
    if (!formats.length || c.params.sv) continue;
    const { g, v, as } = c.params;
    if (g === AGGREGATED_GROUP && as === AGGREGATED_KIND && (AGGREGATED_VERSIONS as readonly string[]).includes(v ?? "")) {
      return { aggregated: v as AggregatedVersion, format: formats[0] };
    }
  }
  for (const c of clauses) {
    const formats = matches(c);
    if (!formats.length || c.params.sv || c.params.g !== undefined || c.params.v !== undefined || c.params.as !== undefined) continue;
    return { legacy: formats[0] };
  }
  throw errors.notAcceptable(OFFERED.map((o) => `${o.type}/${o.subtype}`).join(", "));
}

function serialise(value: unknown, format: Format, pretty: boolean, compact?: string): string {
  if (format === "yaml") return toYaml(value, { lineWidth: 0 });
  if (compact !== undefined && !pretty) return compact;
  return `${JSON.stringify(value, null, pretty ? 2 : undefined)}\n`;
}

export interface DiscoveryRequest {
  accept?: string;
  ifNoneMatch?: string;
  pretty: boolean;
  /** For /api's legacy APIVersions. */
  serverAddress: string;
}

/**
 * The answer at `/api` or `/apis`. Aggregated: the APIGroupDiscoveryList with `Content-Type` naming the kind
 * (`application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList`), `ETag`, `Vary: Accept`,
 * `Cache-Control: public`, and 304 without a body when `If-None-Match` is exactly the quoted tag. Legacy:
 * APIVersions or APIGroupList as plain JSON or YAML.
 */
export function discoveryResponse(root: "api" | "apis", req: DiscoveryRequest): ApiResponse {
  const choice = negotiateDiscovery(req.accept);
  if ("legacy" in choice) {
    const value = root === "api" ? apiVersions(req.serverAddress) : apiGroupList();
    const contentType = choice.legacy === "yaml" ? "application/yaml" : "application/json";
    return { status: 200, headers: { "cache-control": "no-cache, private", "content-type": contentType }, body: serialise(value, choice.legacy, req.pretty) };
  }
  const doc = aggregatedDocument(root);
  const etag = `"${doc.etag}"`;
  const headers: Record<string, string> = { etag, vary: "Accept", "cache-control": "public" };
  if (req.ifNoneMatch === etag) return { status: 304, headers };
  const value = aggregatedDiscovery(root, choice.aggregated);
  let compact = doc.json.get(choice.aggregated);
  if (compact === undefined) {
    compact = `${JSON.stringify(value)}\n`;
    doc.json.set(choice.aggregated, compact);
  }
  headers["content-type"] = `application/${choice.format};g=${AGGREGATED_GROUP};v=${choice.aggregated};as=${AGGREGATED_KIND}`;
  return { status: 200, headers, body: serialise(value, choice.format, req.pretty, compact) };
}
