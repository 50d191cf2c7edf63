// A value in the negotiated media type (JSON, YAML, protobuf), and the headers every API answer carries.
import { stringify as toYaml } from "yaml";
import { encodeObjectBody, PROTOBUF_MEDIA_TYPE } from "../../codec/protobuf";
import type { MediaFormat } from "../media";
import type { ApiResponse } from "../types";

export const BASE_HEADERS = { "cache-control": "no-cache, private" };

/**
 * `value` in `media`; for protobuf it names its own kind and apiVersion (an object, a Status). `json`: its
 * serialisation when already made (the store's), used as is unless pretty or YAML is asked for.
 */
export function encodeValue(value: unknown, media: MediaFormat, pretty: boolean, json?: string): ApiResponse["body"] {
  if (media === "protobuf") {
    const obj = value as { apiVersion?: unknown; kind?: unknown };
    return encodeObjectBody(obj, { apiVersion: String(obj.apiVersion ?? ""), kind: String(obj.kind ?? "") });
  }
  if (media === "yaml") return toYaml(json !== undefined ? JSON.parse(json) : value, { lineWidth: 0 });
  if (json !== undefined && !pretty) return `${json}\n`;
  return `${JSON.stringify(value, null, pretty ? 2 : undefined)}\n`;
}

/** The headers of an answer in `media`: a new object each time (the adapters complete it in place). */
export function answerHeaders(media: MediaFormat): Record<string, string | string[]> {
  return { "cache-control": BASE_HEADERS["cache-control"], "content-type": contentType(media) };
}

export function contentType(media: MediaFormat): string {
  return media === "yaml" ? "application/yaml" : media === "protobuf" ? PROTOBUF_MEDIA_TYPE : "application/json";
}

/** A JSON answer (discovery documents, openapi v3, object history). */
export function jsonResponse(value: unknown, pretty: boolean): ApiResponse {
  return { status: 200, headers: { ...BASE_HEADERS, "content-type": "application/json" }, body: encodeValue(value, "json", pretty) };
}
