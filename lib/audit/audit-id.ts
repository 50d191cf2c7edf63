// The audit ID ties a request's audit events together and is echoed to the client, as kube-apiserver does,
// so a caller (or a proxy in front of us that set the header first) can find its request in the log.
import { randomUUID } from "node:crypto";

/** The response header kube sets on every audited request (Go's canonical form of `Audit-ID`). */
export const AUDIT_ID_HEADER = "Audit-Id";

/** The request's `Audit-ID` header value when it has one (kube trusts it as given), else a new uuid. */
export function auditIdFor(headerValue: string | null | undefined): string {
  const given = headerValue?.trim();
  return given ? given : randomUUID();
}
