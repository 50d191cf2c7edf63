// A refused write's causes shown once each: kube's 422 message repeats every cause (`Kind "x" is invalid:
// <field>: <message>`, several in `[..., ...]`) and a Status may list the same cause twice. The console lists
// the causes beside their editor markers, so the summary keeps only what the causes do not already say.
import type { StatusCause } from "@/lib/client/api-error";
import { explainStatusMessage, type ExplainedMessage } from "@/lib/client/status-message";

const rendered = (c: StatusCause) => (c.field ? `${c.field}: ${c.message ?? c.reason ?? ""}` : (c.message ?? c.reason ?? ""));

/** The causes without repeats (same field, reason and message), in kube's order. */
export function distinctCauses(causes: readonly StatusCause[]): StatusCause[] {
  const seen = new Set<string>();
  return causes.filter((c) => {
    const key = JSON.stringify([c.field ?? "", c.reason ?? "", c.message ?? ""]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The message split into summary and reasons, minus the reasons that are causes listed separately. */
export function explainBesideCauses(message: string, causes: readonly StatusCause[]): ExplainedMessage {
  const explained = explainStatusMessage(message);
  if (causes.length === 0) return explained;
  const said = new Set(causes.map(rendered));
  const reasons = explained.reasons.filter((r) => !said.has(r.trim()));
  let summary = explained.summary;
  for (const r of said) {
    if (r && summary.endsWith(`: ${r}`) && summary.length > r.length + 2) {
      summary = summary.slice(0, summary.length - r.length - 2);
      break;
    }
  }
  return { summary, reasons };
}
