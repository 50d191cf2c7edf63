// The pipeline's contracts with its adapters and its composition root: a request, an answer (possibly a
// watch stream), and the runtime every filter and endpoint is built from.
import type { SessionBearer } from "../auth/session";
import type { TokenLease } from "../auth/token-lease";
import type { UserInfo } from "../auth/user-info";
import type { Authorizer } from "../authz/attributes";
import type { AuditRecord } from "../audit/audit-event";
import type { FlowController } from "../flowcontrol/flow-controller";
import type { ServerMetrics } from "../metrics/server-metrics";
import type { ActionHandler } from "../registry/action-handler";
import type { Registry } from "../registry/registry";
import type { WatchSink } from "../storage";
import type { OpenApiDocuments } from "./handlers/openapi";

export interface ApiRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** Header value by lower-case name. */
  header(name: string): string | undefined;
  /** Every value of a header (lower-case name), repeated headers kept apart. */
  headerValues(name: string): string[];
  /** Lower-case names of the headers sent that start with `prefix` (lower-case; "" for every one). */
  headerNamesWith(prefix: string): string[];
  /** The body, at most `limit` bytes (throws a 413 StatusError beyond). */
  body(limit: number): Promise<Buffer>;
  /** The client's address, for audit. */
  remoteAddress?: string;
  /** An object that lives exactly as long as the client's connection (the TLS socket for HTTP/1.1, the Http2Session for HTTP/2; undefined through the fetch adapter). Filters may keep per-connection memos keyed by it in a WeakMap. */
  connection?: object;
}

export interface WatchStream {
  /**
   * Start streaming into `sink`; returns a function that stops and frees everything. The adapters pass "cut"
   * when they close a watcher that stopped reading (its backlog too large, or no progress for a while).
   */
  start(sink: WatchSink): (reason?: "cut") => void;
  timeoutMs: number;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string | string[]>;
  body?: string | Buffer;
  /**
   * A body written as it is made (a list): the adapters ask for the next chunk only once the client has taken
   * the previous ones, so a slow reader holds a bounded buffer, never the whole answer. Everything that can
   * fail is decided before the answer is returned; a chunk that still throws cuts the connection.
   */
  chunks?: Iterable<Buffer>;
  stream?: WatchStream;
}

export interface ApiRuntime {
  registry: Registry;
  /** The user a bearer token belongs to, or undefined (401). */
  authenticate(token: string): Promise<UserInfo | undefined>;
  /**
   * The request path's form of `authenticate`: the user with how long the answer stands (lib/auth/token-lease.ts),
   * at once when it is known, so that a connection may reuse it for its next requests with the same header.
   * Without it, every request asks `authenticate`.
   */
  authenticateLease?(token: string): TokenLease | undefined | Promise<TokenLease | undefined>;
  authorizer: Authorizer;
  /** The bearer token held by a console session cookie, if any, and when the session ends. */
  sessionBearer?(cookieHeader: string): Promise<SessionBearer | undefined>;
  openapi?: OpenApiDocuments;
  serverAddress: string;
  isReady(): boolean;
  /** Create-only handlers by `<plural>/<subresource>` (core) or `<group>/<plural>` (reviews). */
  actions?: Map<string, ActionHandler>;
  /** The service-account issuer's discovery documents. */
  oidc?: { configuration(): unknown; jwks(): unknown };
  audit?(record: AuditRecord): void;
  /** The process's metrics (lib/metrics); without it requests are not measured and /metrics is not served. */
  metrics?: ServerMetrics;
  /** Seats, fair queues and deadlines (lib/flowcontrol); without it requests are admitted at once. */
  flowControl?: FlowController;
}
