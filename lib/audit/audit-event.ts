// One audit.k8s.io/v1 Event at the Metadata level, as kube-apiserver 1.32 writes it to its JSON audit log.
// The input record has no field for headers or bodies, and the builder copies named fields only, so a
// token or a Secret's data cannot reach the log even if a caller passes a wider object.
import { randomUUID } from "node:crypto";
import type { UserInfo } from "../auth/user-info";

/** Kube emits ResponseStarted only for long-running requests (watches) and failed authentication. */
export type AuditStage = "ResponseStarted" | "ResponseComplete";

export interface AuditObjectRef {
  resource?: string;
  namespace?: string;
  name?: string;
  /** From the request object (update with a body that carries metadata.uid), as kube's LogRequestObject. */
  uid?: string;
  /** "" or absent for the core group. */
  apiGroup?: string;
  apiVersion?: string;
  /** From the request object, as for uid. */
  resourceVersion?: string;
  subresource?: string;
}

/** The bounded part of the metav1.Status the request answered with (kube copies exactly these). */
export interface AuditResponseStatus {
  status?: "Success" | "Failure";
  message?: string;
  reason?: string;
  details?: { name?: string; group?: string; kind?: string; uid?: string; retryAfterSeconds?: number };
}

/** What the pipeline knows about one request; deliberately no place for headers or bodies. */
export interface AuditRecord {
  /** The request's Audit-ID header or a generated uuid (see auditIdFor); both stages of a watch share it. */
  auditID?: string;
  /** Path and query as the client sent them. */
  requestURI: string;
  /** kube's request verb (get, list, watch, create, ...); for non-resource requests the lower-case method. */
  verb: string;
  /** The authenticated user; absent when authentication failed (kube then logs `"user":{}`). */
  user?: UserInfo;
  impersonatedUser?: UserInfo;
  sourceIPs: string[];
  userAgent?: string;
  /** Resource requests only (lists and watches too: resource and namespace). */
  objectRef?: AuditObjectRef;
  /** The HTTP status code sent. */
  code: number;
  /** Set when the answer was a metav1.Status (every failure, and deletes that answer with one). */
  status?: AuditResponseStatus;
  received: Date;
  /** When this stage was reached: headers sent (ResponseStarted) or the last byte sent (ResponseComplete). */
  completed: Date;
  decision?: "allow" | "forbid";
  /** The authorizer's reason; kube logs it (possibly "") whenever a decision was made. */
  reason?: string;
  /** Further annotations from other request-chain steps (admission plugins, ...). */
  annotations?: Record<string, string>;
  stage?: AuditStage;
}

export interface AuditUser {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export interface AuditEvent {
  kind: "Event";
  apiVersion: "audit.k8s.io/v1";
  level: "Metadata";
  auditID: string;
  stage: AuditStage;
  requestURI: string;
  verb: string;
  user: AuditUser;
  impersonatedUser?: AuditUser;
  sourceIPs?: string[];
  userAgent?: string;
  objectRef?: AuditObjectRef;
  responseStatus: { metadata: Record<string, never> } & AuditResponseStatus & { code: number };
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

export const DECISION_ANNOTATION = "authorization.k8s.io/decision";
export const REASON_ANNOTATION = "authorization.k8s.io/reason";

/** metav1.MicroTime's wire form: RFC 3339 in UTC with exactly six fractional digits. */
export function microTime(d: Date): string {
  const iso = d.toISOString(); // 2026-11-24T10:11:12.123Z; a Date holds milliseconds only
  return `${iso.slice(0, -1)}000Z`;
}

// Tokens must never reach a log; kube itself accepts none in the query, but a client may still send one.
function redactQueryTokens(uri: string): string {
  const q = uri.indexOf("?");
  if (q < 0 || !/access_token=/i.test(uri.slice(q))) return uri;
  return uri.slice(0, q) + uri.slice(q).replace(/([?&]access_token=)[^&#]*/gi, "$1REDACTED");
}

// Go's encoder writes map keys sorted; building sorted objects makes our lines compare equal to kube's.
function sorted<V>(map: Record<string, V>, copy: (v: V) => V): Record<string, V> {
  const out: Record<string, V> = {};
  for (const key of Object.keys(map).sort()) out[key] = copy(map[key]);
  return out;
}

function auditUser(u: UserInfo | undefined): AuditUser {
  if (!u) return {};
  const out: AuditUser = { username: String(u.username) };
  if (u.uid) out.uid = String(u.uid);
  if (u.groups?.length) out.groups = u.groups.map(String);
  if (u.extra && Object.keys(u.extra).length) out.extra = sorted(u.extra, (v) => (v ?? []).map(String));
  return out;
}

const OBJECT_REF_FIELDS = [
  "resource", "namespace", "name", "uid", "apiGroup", "apiVersion", "resourceVersion", "subresource",
] as const;

function objectRef(ref: AuditObjectRef): AuditObjectRef {
  const out: AuditObjectRef = {};
  for (const f of OBJECT_REF_FIELDS) if (ref[f]) out[f] = String(ref[f]);
  return out;
}

function responseStatus(code: number, s: AuditResponseStatus | undefined): AuditEvent["responseStatus"] {
  // Built in metav1.Status field order (metadata, status, message, reason, details, code).
  const out: Partial<AuditEvent["responseStatus"]> = { metadata: {} };
  if (s?.status) out.status = s.status;
  if (s?.message) out.message = String(s.message);
  if (s?.reason) out.reason = String(s.reason);
  if (s?.details) {
    // Causes are left out: they can quote rejected field values, which for a Secret would be its data.
    const d: NonNullable<AuditResponseStatus["details"]> = {};
    if (s.details.name) d.name = String(s.details.name);
    if (s.details.group) d.group = String(s.details.group);
    if (s.details.kind) d.kind = String(s.details.kind);
    if (s.details.uid) d.uid = String(s.details.uid);
    if (s.details.retryAfterSeconds) d.retryAfterSeconds = Number(s.details.retryAfterSeconds);
    if (Object.keys(d).length) out.details = d;
  }
  out.code = code;
  return out as AuditEvent["responseStatus"];
}

export function buildAuditEvent(r: AuditRecord): AuditEvent {
  const ev: AuditEvent = {
    kind: "Event",
    apiVersion: "audit.k8s.io/v1",
    level: "Metadata",
    auditID: r.auditID || randomUUID(),
    stage: r.stage === "ResponseStarted" ? "ResponseStarted" : "ResponseComplete",
    requestURI: redactQueryTokens(String(r.requestURI)),
    verb: String(r.verb),
    user: auditUser(r.user),
  } as AuditEvent;
  if (r.impersonatedUser) ev.impersonatedUser = auditUser(r.impersonatedUser);
  if (r.sourceIPs?.length) ev.sourceIPs = r.sourceIPs.map(String);
  if (r.userAgent) ev.userAgent = String(r.userAgent);
  if (r.objectRef) ev.objectRef = objectRef(r.objectRef);
  ev.responseStatus = responseStatus(Math.trunc(Number(r.code)), r.status);
  ev.requestReceivedTimestamp = microTime(r.received);
  ev.stageTimestamp = microTime(r.completed);

  const annotations: Record<string, string> = {};
  for (const [k, v] of Object.entries(r.annotations ?? {})) annotations[k] = String(v);
  if (r.decision) {
    annotations[DECISION_ANNOTATION] = r.decision;
    annotations[REASON_ANNOTATION] = r.reason ?? "";
  }
  if (Object.keys(annotations).length) ev.annotations = sorted(annotations, (v) => v);
  return ev;
}

const GO_ESCAPES: Record<string, string> = {
  "<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029",
};

/**
 * One log line (with its newline), escaped as Go's encoding/json does (`&` as `\u0026`, ...), so tools
 * written against kube's audit files read ours unchanged. These characters only occur inside strings.
 */
export function encodeAuditEvent(ev: AuditEvent): string {
  return JSON.stringify(ev).replace(/[<>&\u2028\u2029]/g, (c) => GO_ESCAPES[c]) + "\n";
}
