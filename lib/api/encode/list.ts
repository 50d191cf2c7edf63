// A list as the answer: the stored serialisations spliced (no parse, no re-stringify), kept protobuf encodings
// copied, or a Table or PartialObjectMetadataList built from the objects.
import { encodeListBody, messageBytes, partialObjectMetadataBytes } from "../../codec/protobuf";
import { apiVersionOf } from "../../kinds";
import type { ListAnswer } from "../../registry/registry";
import { errors } from "../../status";
import type { OutputFormat } from "../media";
import type { ApiResponse } from "../types";
import { goPackage } from "./metadata";
import { servedAs } from "./object";
import { partialMetadata, table, type IncludeObject } from "./table";
import { BASE_HEADERS, contentType, encodeValue } from "./value";

function listMeta(list: ListAnswer): Record<string, unknown> {
  const meta: Record<string, unknown> = { resourceVersion: list.resourceVersion };
  if (list.continue) meta.continue = list.continue;
  if (list.remainingItemCount !== undefined) meta.remainingItemCount = list.remainingItemCount;
  return meta;
}

export function listResponse(answer: ListAnswer, format: OutputFormat, pretty: boolean, include: IncludeObject): ApiResponse {
  const headers = { ...BASE_HEADERS, "content-type": contentType(format.media) };
  const kind = answer.kind;
  if (format.as === "PartialObjectMetadata") {
    throw errors.conversionNotAcceptable(`you requested PartialObjectMetadata, but the requested object is a list (*${goPackage(apiVersionOf(kind))}.${kind.kind}List)`);
  }
  const version = format.asVersion ?? "v1";
  if (format.media === "protobuf") {
    // List items carry no type meta in protobuf, and the store's objects keep their encodings: a list is copies.
    const body = format.as === "PartialObjectMetadataList"
      ? encodeListBody({ apiVersion: `meta.k8s.io/${version}`, kind: "PartialObjectMetadataList" }, listMeta(answer), answer.items.map((i) => partialObjectMetadataBytes(i.object, true)))
      : encodeListBody({ apiVersion: apiVersionOf(kind), kind: `${kind.kind}List` }, listMeta(answer), answer.items.map((i) => messageBytes(kind.kind, i.object, true)));
    return { status: 200, headers, body };
  }
  const list = answer.kind.servedFrom ? {
    ...answer,
    items: answer.items.map((i) => {
      const object = servedAs(answer.kind, i.object) ?? i.object;
      return { ...i, object, json: JSON.stringify(object) };
    }),
  } : answer;
  const meta = listMeta(list);
  if (format.as === "Table") {
    return { status: 200, headers, body: encodeValue(table(list.kind, list.items.map((i) => i.object), meta, include), format.media, pretty) };
  }
  if (format.as === "PartialObjectMetadataList") {
    const view = { kind: "PartialObjectMetadataList", apiVersion: `meta.k8s.io/${version}`, metadata: meta, items: list.items.map((i) => partialMetadata(i.object, version)) };
    return { status: 200, headers, body: encodeValue(view, format.media, pretty) };
  }
  const head = { kind: `${list.kind.kind}List`, apiVersion: apiVersionOf(list.kind), metadata: meta };
  if (format.media === "yaml" || pretty) {
    return { status: 200, headers, body: encodeValue({ ...head, items: list.items.map((i) => i.object) }, format.media, pretty) };
  }
  // Splice the stored serialisations: no parse, no re-stringify of the items.
  const prefix = JSON.stringify(head).slice(0, -1);
  return { status: 200, headers, body: `${prefix},"items":[${list.items.map((i) => i.json).join(",")}]}\n` };
}
