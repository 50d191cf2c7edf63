import type { StatusCause } from "@/lib/client/api-error";
import { distinctCauses, explainBesideCauses } from "./status-causes";
import { causeValue } from "@/lib/client/yaml-text";
import type { FieldMarker } from "./yaml-editor";

/** The editor markers of a refusal's causes: one per distinct cause, on the entry kube quoted when it names one. */
export function causeMarkers(causes: readonly StatusCause[]): FieldMarker[] {
  return distinctCauses(causes).map((c) => ({ field: c.field ?? "", message: c.message ?? c.reason ?? "", value: causeValue(c.message) }));
}

/**
 * Why the server refused a write, in place: kube's message with the reasons it packs into one line (SCC
 * providers, LimitRanger violations, quota requested/used/limited) on their own lines, the message exactly
 * as sent, and the per-field causes (422) beside the markers in the editor, each once (not repeated in the
 * summary, nor twice when the Status lists it twice). A 403 here is the server's
 * word (RBAC, or an admission plug-in such as ResourceQuota, LimitRanger or SCC): it is said so plainly.
 */
export function CauseList({ message, causes: all, code }: { message: string; causes: StatusCause[]; code?: number }) {
  const causes = distinctCauses(all);
  const { summary, reasons } = explainBesideCauses(message, causes);
  const shortened = summary !== message && reasons.length === 0;
  return (
    <div role="alert" className="border-b border-red-200 bg-red-50 px-4 py-2 text-sm text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-100" data-testid="save-error" data-code={code}>
      {code === 403 && <p className="text-xs font-semibold uppercase tracking-wide" data-testid="refused-heading">Refused by the server (403 Forbidden)</p>}
      <p className="break-words font-medium" data-testid="error-summary">
        {summary}
        {reasons.length > 0 && ":"}
      </p>
      {(reasons.length > 0 || shortened) && (
        <>
          {reasons.length > 0 && (
            <ul className="mt-1 list-disc space-y-0.5 pl-5 font-mono text-xs" data-testid="reason-list">
              {reasons.map((r, i) => (
                <li key={i} className="break-words">
                  {r}
                </li>
              ))}
            </ul>
          )}
          <details className="mt-1 text-xs">
            <summary className="cursor-pointer">The message as the server sent it</summary>
            <p className="break-words font-mono" data-testid="full-message">
              {message}
            </p>
          </details>
        </>
      )}
      {causes.length > 0 && (
        <ul className="mt-1 list-disc pl-5" data-testid="cause-list">
          {causes.map((c, i) => (
            <li key={i}>
              {c.field && <code className="font-mono font-semibold">{c.field}</code>}
              {c.field ? ": " : ""}
              {c.message ?? c.reason}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
