// One object as the answer, in the negotiated form: the store's serialisation or kept protobuf encoding when
// it can be used as is, else a Table, a metadata view or the value encoded; a Status (deletes) unchanged.
import { encodeObjectBody, encodeUnknown, keptMessageBytes } from "../../codec/protobuf";
import { apiVersionOf } from "../../kinds";
import type { AnyKind, KubeObject } from "../../kinds/types";
import type { Answer } from "../../registry/registry";
import type { OutputFormat } from "../media";
import type { ApiResponse } from "../types";
import { goPackage, metadataView } from "./metadata";
import { table, type IncludeObject } from "./table";
import { answerHeaders, encodeValue } from "./value";

/**
 * A stored object as the request's group and version serve it: objects of a kind also served by another group are
 * stored with the declared apiVersion and answered with the one of the group asked; a kind with `readAs` (custom
 * resources) answers what it says (undefined: unchanged).
 */
export function servedAs(kind: AnyKind, obj: KubeObject): KubeObject | undefined {
  if (obj?.kind !== kind.kind) return undefined;
  if (kind.readAs) return kind.readAs(obj);
  if (!kind.servedFrom) return undefined;
  return { ...obj, apiVersion: apiVersionOf(kind) };
}

export function objectResponse(kind: AnyKind, answer: Extract<Answer, { object: unknown }>, format: OutputFormat, pretty: boolean, include: IncludeObject): ApiResponse {
  const headers = answerHeaders(format.media);
  // The stored serialisation as it is (not for a kind that answers in another form: another group's apiVersion, a
  // custom resource read through its version's schema): the object itself is not read (the cache parses it only on demand).
  const asStored = !kind.servedFrom && !kind.readAs;
  if (answer.json !== undefined && format.media === "json" && !pretty && !format.as) {
    if (asStored) {
      // The cache's bytes of the answer when it keeps them (a recently asked object): nothing to encode.
      const stored = answer.stored;
      return { status: answer.code, headers, body: stored?.json === answer.json && stored.jsonLine ? stored.jsonLine : `${answer.json}\n` };
    }
    // A custom resource's entry read through its version: remembered per entry, parsed once.
    if (kind.readJsonAs && answer.stored) return { status: answer.code, headers, body: `${kind.readJsonAs(answer.stored) ?? answer.json}\n` };
  }
  // Its protobuf encoding, kept with the stored object.
  if (answer.stored && format.media === "protobuf" && !format.as && asStored) {
    return { status: answer.code, headers, body: encodeUnknown(apiVersionOf(kind), kind.kind, keptMessageBytes(kind.kind, answer.stored)) };
  }
  const stored = answer.object as KubeObject;
  const served = servedAs(kind, stored);
  const a = served ? { ...answer, object: served, json: undefined } : answer;
  const obj = a.object as KubeObject;
  const isObject = (obj as { kind?: string }).kind === kind.kind;
  // An answer with its stored serialisation is the store's own object, which never changes: protobuf keeps its encoding.
  const immutable = answer.json !== undefined;
  if (format.as === "Table" && isObject) {
    return { status: a.code, headers, body: encodeValue(table(kind, [obj], { resourceVersion: obj.metadata.resourceVersion }, include), format.media, pretty) };
  }
  if (format.as && isObject) return { status: a.code, headers, body: metadataView(stored, `${goPackage(apiVersionOf(kind))}.${kind.kind}`, format, pretty, immutable) };
  if (format.media === "protobuf" && isObject) {
    return { status: a.code, headers, body: encodeObjectBody(stored, { apiVersion: apiVersionOf(kind), kind: kind.kind }, immutable) };
  }
  return { status: a.code, headers, body: encodeValue(a.object, format.media, pretty, a.json) };
}

/** A create-only handler's answer (a review, a TokenRequest) in the negotiated representation. */
export function actionResponse(object: unknown, format: OutputFormat, pretty: boolean, code: number): ApiResponse {
  const obj = object as KubeObject;
  const body = format.as ? metadataView(obj, `${goPackage(obj.apiVersion ?? "")}.${obj.kind}`, format, pretty, false) : encodeValue(obj, format.media, pretty);
  return { status: code, headers: answerHeaders(format.media), body };
}
