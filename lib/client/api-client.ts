// The console's only door to the cluster: our own REST API on the same origin, authenticated by the
// next-auth session cookie. Every request carries `X-CSRF-Protection: 1`: the API refuses cookie-authenticated
// writes without it, and a cross-site page cannot add a custom header without a CORS preflight we never allow.
import { ApiError } from "./api-error";

export const CSRF_HEADER = "X-CSRF-Protection";

export interface RequestOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  contentType?: string;
  signal?: AbortSignal;
  /** The Accept header (default JSON), e.g. aggregated discovery's media type. */
  accept?: string;
}

let onUnauthorized: (() => void) | undefined;

/** Called once by the providers: what to do when the session no longer authenticates (sign in again). */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

export function apiHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { Accept: "application/json", [CSRF_HEADER]: "1", ...extra };
}

/** Sends one request; answers the parsed JSON body or throws an ApiError built from the v1 Status. */
export async function apiRequest<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers = apiHeaders(options.accept ? { Accept: options.accept } : {});
  let body: string | undefined;
  if (options.body !== undefined) {
    headers["Content-Type"] = options.contentType ?? "application/json";
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? "GET",
      headers,
      body,
      credentials: "same-origin",
      cache: "no-store",
      signal: options.signal,
    });
  } catch (e) {
    if ((e as Error)?.name === "AbortError") throw e;
    throw new ApiError(0, "NetworkError", `cannot reach the server: ${(e as Error)?.message ?? e}`);
  }
  const text = await response.text();
  let parsed: unknown = undefined;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
  }
  if (!response.ok) {
    if (response.status === 401) onUnauthorized?.();
    const error = ApiError.fromStatus(response.status, parsed);
    if (!parsed && text) error.message = text.slice(0, 500);
    throw error;
  }
  return parsed as T;
}

export function notifyUnauthorized(): void {
  onUnauthorized?.();
}
