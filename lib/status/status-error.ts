// StatusError: every API error, as kube's apimachinery StatusError; the request pipeline's encoder turns one
// into a v1 Status body (lib/api/encode). Imports nothing of ours: every layer raises these.

export type StatusReason =
  | "Unauthorized" | "Forbidden" | "NotFound" | "AlreadyExists" | "Conflict" | "Gone" | "Invalid"
  | "ServerTimeout" | "Timeout" | "TooManyRequests" | "BadRequest" | "MethodNotAllowed" | "NotAcceptable"
  | "RequestEntityTooLarge" | "UnsupportedMediaType" | "InternalError" | "Expired" | "ServiceUnavailable" | "";

export interface StatusCause { reason: string; message: string; field: string }

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: "Status";
  apiVersion: "v1";
  metadata: { resourceVersion?: string; continue?: string };
  status: "Success" | "Failure";
  message?: string;
  reason?: StatusReason;
  details?: StatusDetails;
  code?: number;
}

const BRAND = Symbol.for("cluster-core.StatusError");

/**
 * True for a StatusError from any copy of this module: Next.js bundles its own copy for the route handlers,
 * so `instanceof` cannot be trusted across the server.ts / route-handler boundary.
 */
export function isStatusError(e: unknown): e is StatusError {
  return typeof e === "object" && e !== null && (e as Record<symbol, unknown>)[BRAND] === true;
}

export class StatusError extends Error {
  readonly [BRAND] = true;

  constructor(
    readonly code: number,
    readonly reason: StatusReason,
    message: string,
    readonly details?: StatusDetails,
    readonly listMeta: { continue?: string } = {},
  ) {
    super(message);
  }

  toStatus(): Status {
    const s: Status = { kind: "Status", apiVersion: "v1", metadata: { ...this.listMeta }, status: "Failure", message: this.message, reason: this.reason };
    if (this.details) s.details = this.details;
    s.code = this.code;
    return s;
  }
}

