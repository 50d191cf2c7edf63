// A watch: the registry's watch of the kind, streamed in the negotiated framing until its timeout (the
// client's `timeoutSeconds`, else kube's random 30 to 60 minutes).
import { PROTOBUF_WATCH_MEDIA_TYPE } from "../../codec/protobuf";
import { apiVersionOf } from "../../kinds";
import type { KubeObject } from "../../kinds/types";
import { parseListOptions } from "../../registry/options";
import type { ResourceRequest } from "../../request/request-info";
import type { EventType } from "../../storage";
import type { RequestContext } from "../context";
import { columnDefinitions, includeObject, tableRow } from "../encode/table";
import { BASE_HEADERS } from "../encode/value";
import { watchFraming } from "../encode/watch-framing";
import type { OutputFormat } from "../media";
import type { ApiResponse } from "../types";

export async function watch(ctx: RequestContext, info: ResourceRequest, format: OutputFormat): Promise<ApiResponse> {
  const registry = ctx.runtime.registry;
  const opts = parseListOptions(ctx.request.query, true);
  const spec = await registry.prepareWatch(info.kind, info.namespace, info.name, opts);
  const kind = info.kind;
  if (format.as === "Table") {
    const include = includeObject(ctx.request.query);
    let first = true;
    spec.encode = (type: EventType, object: KubeObject) => {
      const obj = {
        kind: "Table", apiVersion: "meta.k8s.io/v1", metadata: { resourceVersion: object.metadata.resourceVersion },
        columnDefinitions: first ? columnDefinitions(kind) : null, rows: [tableRow(kind, kind.readAs?.(object) ?? object, include)],
      };
      first = false;
      return `${JSON.stringify({ type, object: obj })}\n`;
    };
  } else {
    // Protobuf frames, metadata views and another group's apiVersion: one encoding per event and framing.
    spec.framing = watchFraming(kind.kind, apiVersionOf(kind), kind.servedFrom !== undefined, format, kind.readAs);
  }
  // That framing of as=PartialObjectMetadataList ends the stream at its first event (an empty frame).
  const closing = format.as === "PartialObjectMetadataList";
  const timeoutMs = opts.timeoutSeconds !== undefined && opts.timeoutSeconds > 0
    ? opts.timeoutSeconds * 1000
    : (1800 + Math.random() * 1800) * 1000;
  return {
    status: 200,
    headers: {
      ...BASE_HEADERS, "content-type": format.media === "protobuf" ? PROTOBUF_WATCH_MEDIA_TYPE : "application/json",
      "cache-control": "no-cache, private, no-transform", "x-accel-buffering": "no",
    },
    stream: { start: (sink) => registry.watch(spec, closing ? { send: (c) => c.length > 0 && sink.send(c), close: () => sink.close(), ready: sink.ready && (() => sink.ready!()) } : sink), timeoutMs },
  };
}
