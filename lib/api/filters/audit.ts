// Audit (kube's WithAudit, with WithFailedAuthenticationAudit): one line per request once it is answered, two
// for a watch (when it starts and when it ends). The inner filters fill the record (user, verb, object,
// decision); open paths are not audited, having nobody to attribute them to.
import type { AuditRecord } from "../../audit/audit-event";
import { AUDIT_ID_HEADER, auditIdFor } from "../../audit/audit-id";
import { sourceIPs } from "../../audit/source-ips";
import type { Filter, RequestContext } from "../context";
import type { ApiResponse } from "../types";

export const withAudit: Filter = (next, rt) => {
  const audit = rt.audit;
  if (!audit) return next;
  return (ctx) => {
    const req = ctx.request;
    ctx.audit = {
      auditID: auditIdFor(req.header("audit-id")),
      requestURI: req.query.size ? `${req.path}?${req.query}` : req.path,
      verb: req.method.toLowerCase(),
      sourceIPs: sourceIPs((n) => req.header(n), req.remoteAddress),
      userAgent: req.header("user-agent"),
      code: 0, received: new Date(), completed: new Date(),
    };
    const res = next(ctx);
    return res instanceof Promise ? res.then((r) => answered(audit, ctx, r)) : answered(audit, ctx, res);
  };
};

/** The answer with its audit ID, once its line (or a watch's first) is written. */
function answered(audit: (r: AuditRecord) => void, ctx: RequestContext, res: ApiResponse): ApiResponse {
  const record = ctx.audit!;
  record.code = res.status;
  if (ctx.open) return res;
  res.headers[AUDIT_ID_HEADER] = record.auditID!;
  // A request that failed authentication is logged as kube does: one ResponseStarted line, no user.
  if (!record.user) {
    audit({ ...record, completed: new Date(), stage: "ResponseStarted" });
    return res;
  }
  return audited(audit, record, res);
}

/** One audit line per request; a watch gets one when it starts and one when it ends, as kube's. */
function audited(audit: (r: AuditRecord) => void, record: AuditRecord, res: ApiResponse): ApiResponse {
  if (!res.stream) {
    record.completed = new Date();
    audit(record);
    return res;
  }
  const inner = res.stream;
  audit({ ...record, completed: new Date(), stage: "ResponseStarted" });
  return {
    ...res,
    stream: {
      timeoutMs: inner.timeoutMs,
      start(sink) {
        const stop = inner.start(sink);
        let done = false;
        return (reason) => {
          stop(reason);
          if (done) return;
          done = true;
          audit({ ...record, completed: new Date(), stage: "ResponseComplete" });
        };
      },
    },
  };
}
