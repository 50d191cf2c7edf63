// Status as the server reports it: conditions as a table when present, the rest as YAML.
import { toYaml } from "@/lib/client/yaml-text";
import { Section } from "./section";
import { DetailTable } from "../ui/detail-table";

interface Condition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

export function StatusPanel({ status }: { status: unknown }) {
  if (!status || typeof status !== "object" || Object.keys(status).length === 0) return null;
  const { conditions, ...rest } = status as { conditions?: Condition[] };
  return (
    <Section title="Status" testId="status">
      {Array.isArray(conditions) && conditions.length > 0 && (
        <DetailTable caption="Conditions" columns={["Condition", "Status", "Reason", "Message"]} className="mb-3">
          <tbody>
            {conditions.map((c, i) => (
              <tr key={`${c.type}-${i}`} className="border-t border-slate-100 dark:border-slate-800">
                <td className="py-1 pr-3">{c.type}</td>
                <td className="py-1 pr-3">{c.status}</td>
                <td className="py-1 pr-3">{c.reason}</td>
                <td className="py-1">{c.message}</td>
              </tr>
            ))}
          </tbody>
        </DetailTable>
      )}
      {Object.keys(rest).length > 0 && <pre className="overflow-x-auto rounded-md bg-slate-50 p-3 font-mono text-xs dark:bg-slate-900">{toYaml(rest)}</pre>}
    </Section>
  );
}
