// The one error type the console's API client throws: a Kubernetes v1 Status answer (or a transport
// failure dressed as one), so every view shows the same reason, message and per-field causes.

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusBody {
  kind?: string;
  status?: string;
  message?: string;
  reason?: string;
  code?: number;
  details?: { name?: string; kind?: string; causes?: StatusCause[] };
}

export class ApiError extends Error {
  readonly code: number;
  readonly reason: string;
  readonly causes: StatusCause[];

  constructor(code: number, reason: string, message: string, causes: StatusCause[] = []) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.reason = reason;
    this.causes = causes;
  }

  static fromStatus(httpStatus: number, body: unknown): ApiError {
    const status = (body && typeof body === "object" ? body : {}) as StatusBody;
    const code = typeof status.code === "number" && status.code > 0 ? status.code : httpStatus;
    const message = status.message || `the server answered ${httpStatus}`;
    return new ApiError(code, status.reason ?? "", message, status.details?.causes ?? []);
  }

  get isConflict(): boolean {
    return this.code === 409 && this.reason !== "AlreadyExists";
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;
