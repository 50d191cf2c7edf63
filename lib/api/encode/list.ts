// A list as the answer, written as it is read: the stored serialisations spliced item by item (no parse, no
// re-stringify), the kept protobuf encodings passed on, or a Table or PartialObjectMetadataList made row by
// row; never assembled whole. What the list holds (its snapshot of the cache's objects, its continue token,
// its remaining count) is decided before the answer is returned, so nothing can fail after the head.
import { keptMessageBytes, listBodyChunks, partialObjectMetadataBytes } from "../../codec/protobuf";
import { apiVersionOf } from "../../kinds";
import type { KubeObject } from "../../kinds/types";
import type { ListAnswer } from "../../registry/registry";
import { errors } from "../../status";
import type { OutputFormat } from "../media";
import type { ApiResponse } from "../types";
import { CHUNK_BYTES, inChunks, jsonWithArray, yamlWithArray } from "./chunked-body";
import { goPackage } from "./metadata";
import { servedAs } from "./object";
import { columnDefinitions, partialMetadata, tableRow, type IncludeObject } from "./table";
import { BASE_HEADERS, contentType } from "./value";

function listMeta(list: ListAnswer): Record<string, unknown> {
  const meta: Record<string, unknown> = { resourceVersion: list.resourceVersion };
  if (list.continue) meta.continue = list.continue;
  if (list.remainingItemCount !== undefined) meta.remainingItemCount = list.remainingItemCount;
  return meta;
}

function* mapped<T, U>(items: readonly T[], f: (item: T) => U): Generator<U> {
  for (const item of items) yield f(item);
}

export function listResponse(answer: ListAnswer, format: OutputFormat, pretty: boolean, include: IncludeObject): ApiResponse {
  const headers = { ...BASE_HEADERS, "content-type": contentType(format.media) };
  const kind = answer.kind;
  if (format.as === "PartialObjectMetadata") {
    throw errors.conversionNotAcceptable(`you requested PartialObjectMetadata, but the requested object is a list (*${goPackage(apiVersionOf(kind))}.${kind.kind}List)`);
  }
  const chunks = format.media === "protobuf" ? protobufChunks(answer, format) : inChunks(listPieces(answer, format, pretty, include));
  return { status: 200, headers, chunks: primed(chunks) };
}

/** List items carry no type meta in protobuf, and the store's objects keep their encodings: a list is copies. */
function protobufChunks(answer: ListAnswer, format: OutputFormat): Generator<Buffer> {
  const { kind, items } = answer;
  const meta = listMeta(answer);
  const version = format.asVersion ?? "v1";
  return format.as === "PartialObjectMetadataList"
    ? listBodyChunks({ apiVersion: `meta.k8s.io/${version}`, kind: "PartialObjectMetadataList" }, meta, items.length, (i) => partialObjectMetadataBytes(items[i].object, true), CHUNK_BYTES)
    : listBodyChunks({ apiVersion: apiVersionOf(kind), kind: `${kind.kind}List` }, meta, items.length, (i) => keptMessageBytes(kind.kind, items[i]), CHUNK_BYTES);
}

/**
 * The first chunk made now, while a failure can still be answered as a Status (the protobuf envelope, which
 * encodes every item to state their length, comes first); the rest as the client reads.
 */
function primed(chunks: Generator<Buffer>): Iterable<Buffer> {
  const first = chunks.next();
  return {
    *[Symbol.iterator]() {
      try {
        if (first.done) return;
        yield first.value;
        yield* { [Symbol.iterator]: () => chunks };
      } finally {
        chunks.return(undefined);
      }
    },
  };
}

function listPieces(answer: ListAnswer, format: OutputFormat, pretty: boolean, include: IncludeObject): Iterable<string> {
  const { kind, items } = answer;
  const meta = listMeta(answer);
  const version = format.asVersion ?? "v1";
  // Objects of a kind another group also serves are answered in the apiVersion of the group asked.
  const object = kind.servedFrom || kind.readAs ? (o: KubeObject) => servedAs(kind, o) ?? o : (o: KubeObject) => o;
  const write = (head: Record<string, unknown>, key: string, values: Iterable<unknown>, json?: Iterable<string>) =>
    format.media === "yaml" ? yamlWithArray(head, key, values)
      : jsonWithArray(head, key, json ?? mappedJson(values, pretty), pretty);
  if (format.as === "Table") {
    const now = Date.now();
    const head = { kind: "Table", apiVersion: "meta.k8s.io/v1", metadata: meta, columnDefinitions: columnDefinitions(kind) };
    return write(head, "rows", mapped(items, (i) => tableRow(kind, object(i.object), include, now)));
  }
  if (format.as === "PartialObjectMetadataList") {
    const head = { kind: "PartialObjectMetadataList", apiVersion: `meta.k8s.io/${version}`, metadata: meta };
    return write(head, "items", mapped(items, (i) => partialMetadata(object(i.object), version)));
  }
  const head = { kind: `${kind.kind}List`, apiVersion: apiVersionOf(kind), metadata: meta };
  // Compact JSON splices the stored serialisations: no parse, no re-stringify of the items.
  // Objects a kind's read path changes are written anew; the others keep their stored serialisation.
  const spliced = pretty || kind.servedFrom && !kind.readAs ? undefined
    : kind.readJsonAs ? mapped(items, (i) => kind.readJsonAs!(i) ?? i.json)
    : kind.readAs ? mapped(items, (i) => { const o = object(i.object); return o === i.object ? i.json : JSON.stringify(o); })
    : mapped(items, (i) => i.json);
  return write(head, "items", mapped(items, (i) => object(i.object)), spliced);
}

function* mappedJson(values: Iterable<unknown>, pretty: boolean): Generator<string> {
  for (const v of values) yield JSON.stringify(v, null, pretty ? 2 : undefined);
}
