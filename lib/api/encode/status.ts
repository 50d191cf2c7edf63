// A Status error as the answer (kube's ErrorNegotiated and WriteRawJSON).
import type { StatusError } from "../../status";
import type { MediaFormat } from "../media";
import type { ApiResponse } from "../types";
import { BASE_HEADERS, contentType, encodeValue } from "./value";

/**
 * A Status error in `media` (negotiated as kube's ErrorNegotiated does), or "raw" when even that failed: then
 * kube writes the Status as JSON indented by two spaces.
 */
export function statusResponse(err: StatusError, media: MediaFormat | "raw" = "json", pretty = false): ApiResponse {
  const headers: Record<string, string> = { ...BASE_HEADERS, "content-type": media === "raw" ? "application/json" : contentType(media), "x-content-type-options": "nosniff" };
  if (err.details?.retryAfterSeconds) headers["retry-after"] = String(err.details.retryAfterSeconds);
  const status = wellFormed(err.toStatus());
  const body = media === "raw" ? JSON.stringify(status, null, 2) : encodeValue(status, media, pretty);
  return { status: err.code, headers, body };
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A name from a request path may hold bytes that are not UTF-8 (lib/request/url-escapes.ts keeps them as lone
 * surrogates); Go's json.Marshal writes each as U+FFFD, and so does this, in every encoding.
 */
function wellFormed<T>(value: T): T {
  if (typeof value === "string") return value.replace(LONE_SURROGATE, "\ufffd") as T;
  if (Array.isArray(value)) return value.map(wellFormed) as T;
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, wellFormed(v)])) as T;
  }
  return value;
}
