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
  const body = media === "raw" ? JSON.stringify(err.toStatus(), null, 2) : encodeValue(err.toStatus(), media, pretty);
  return { status: err.code, headers, body };
}
