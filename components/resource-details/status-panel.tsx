// Status as the server reports it: conditions as a table when present, the rest as YAML.
import { humanDuration } from "@/lib/kinds/columns";
import { toYaml } from "@/lib/client/yaml-text";
import { Section } from "./section";
import { DetailTable } from "../ui/detail-table";
import { ScrollBox } from "../ui/scroll-box";

interface Condition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

const statusLooks: Record<string, string> = {
  True: "text-green-800 dark:text-green-300",
  False: "text-slate-700 dark:text-slate-300",
  Unknown: "text-amber-800 dark:text-amber-300",
};

/** One row per condition: type, status (in words, coloured), reason, message and how long ago it last changed. */
export function ConditionsTable({ conditions, now, className }: { conditions: Condition[]; now: number; className?: string }) {
  return (
    <DetailTable caption="Conditions" columns={["Condition", "Status", "Reason", "Message", "Last transition"]} className={className} testId="conditions">
      <tbody>
        {conditions.map((c, i) => {
          const at = c.lastTransitionTime ? Date.parse(c.lastTransitionTime) : NaN;
          return (
            <tr key={`${c.type}-${i}`} className="border-t border-slate-100 align-top dark:border-slate-800" data-testid="condition" data-type={c.type} data-status={c.status}>
              <td className="py-1 pr-3">{c.type}</td>
              <td className={`py-1 pr-3 font-medium ${statusLooks[c.status ?? ""] ?? ""}`}>{c.status}</td>
              <td className="py-1 pr-3">{c.reason}</td>
              <td className="py-1 pr-3">{c.message}</td>
              <td className="whitespace-nowrap py-1" title={c.lastTransitionTime}>
                {Number.isNaN(at) ? "" : `${humanDuration(now - at)} ago`}
              </td>
            </tr>
          );
        })}
      </tbody>
    </DetailTable>
  );
}

export function StatusPanel({ status, now = Date.now() }: { status: unknown; now?: number }) {
  if (!status || typeof status !== "object" || Object.keys(status).length === 0) return null;
  const { conditions, ...rest } = status as { conditions?: Condition[] };
  return (
    <Section title="Status" testId="status">
      {Array.isArray(conditions) && conditions.length > 0 && <ConditionsTable conditions={conditions} now={now} className="mb-3" />}
      {Object.keys(rest).length > 0 && <ScrollBox as="pre" label="Status as YAML" className="overflow-x-auto rounded-md bg-slate-50 p-3 font-mono text-xs dark:bg-slate-900">{toYaml(rest)}</ScrollBox>}
    </Section>
  );
}
