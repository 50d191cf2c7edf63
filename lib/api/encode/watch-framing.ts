// How a watch stream frames its events when it is not plain JSON lines of the stored objects: protobuf
// (length-prefixed WatchEvent frames), the metadata-only views, or JSON in another group's apiVersion. The
// watch cache encodes each event once per framing id and hands the same bytes to every watcher sharing it.
import { encodeObjectBody, encodeUnknown, encodeWatchFrame, partialObjectMetadataBytes } from "../../codec/protobuf";
import type { KubeObject } from "../../kinds/types";
import type { WatchFraming } from "../../storage";
import type { OutputFormat } from "../media";
import { partialMetadata } from "./table";

const line = (type: string, json: string) => Buffer.from(`{"type":"${type}","object":${json}}\n`);
const STATUS = { apiVersion: "v1", kind: "Status" };
const EMPTY = Buffer.alloc(0);

/**
 * The framing for a watch of `kind` served as `apiVersion` (`apiVersionChanged`: the stored objects carry
 * another group's), or undefined for the cache's own JSON lines. Table watches are encoded per watcher.
 */
export function watchFraming(kind: string, apiVersion: string, apiVersionChanged: boolean, format: OutputFormat, readAs?: (obj: KubeObject) => KubeObject | undefined): WatchFraming | undefined {
  const protobuf = format.media === "protobuf";
  // An in-stream Status (410 Expired) passes every conversion unchanged.
  const error = protobuf
    ? (json: string) => encodeWatchFrame("ERROR", encodeObjectBody(JSON.parse(json) as object, STATUS))
    : (json: string) => line("ERROR", json);
  const version = format.asVersion ?? "v1";

  if (format.as === "PartialObjectMetadataList") {
    // kube's embedded encoder cannot make a list of one object and ends the stream at the first event
    // (bookmarks included); an empty frame tells the stream to close.
    return { id: `${format.media}:closed`, event: () => EMPTY, frame: (type, json) => (type === "ERROR" ? error(json) : EMPTY) };
  }
  if (format.as === "PartialObjectMetadata") {
    const meta = { apiVersion: `meta.k8s.io/${version}`, kind: "PartialObjectMetadata" };
    const view = protobuf
      ? (type: string, obj: KubeObject, immutable: boolean) => encodeWatchFrame(type, encodeUnknown(meta.apiVersion, meta.kind, partialObjectMetadataBytes(obj, immutable)))
      : (type: string, obj: KubeObject) => line(type, JSON.stringify(partialMetadata(obj, version)));
    return {
      id: `${format.media}:${meta.apiVersion}`,
      event: (type, obj) => view(type, obj, true),
      frame: (type, json) => (type === "ERROR" ? error(json) : view(type, JSON.parse(json) as KubeObject, false)),
    };
  }
  if (protobuf) {
    const typeMeta = { apiVersion, kind };
    return {
      id: `protobuf:${apiVersion}`,
      event: (type, obj) => encodeWatchFrame(type, encodeObjectBody(obj, typeMeta, true)),
      frame: (type, json) => (type === "ERROR" ? error(json) : encodeWatchFrame(type, encodeObjectBody(JSON.parse(json) as object, typeMeta))),
    };
  }
  if (readAs) {
    // A custom resource's read path (defaults, pruning, apiVersion), once per event for every watcher of this version.
    return {
      id: `json:${apiVersion}:${kind}`,
      event: (type, obj, json) => {
        const answered = readAs(obj);
        return line(type, answered ? JSON.stringify(answered) : json);
      },
      frame: (type, json) => line(type, json),
    };
  }
  if (!apiVersionChanged) return undefined;
  return {
    id: `json:${apiVersion}`,
    event: (type, obj) => line(type, JSON.stringify({ ...obj, apiVersion })),
    frame: (type, json) => line(type, json),
  };
}
