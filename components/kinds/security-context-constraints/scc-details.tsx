"use client";
// A SecurityContextConstraints read as a table: its strategies (what a pod's UID, SELinux context and groups
// may be), the host access it grants (allowed or not, in words), capabilities, volumes, priority and who may
// use it (a service account user is a link to the account).
import { sccFlags, sccStrategies } from "./scc-strategies";
import type { KubeObject } from "@/lib/kinds";
import { DetailTable } from "../../ui/detail-table";
import { FieldList, Muted, ObjectLink } from "../field-list";
import { StatusBadge } from "../../ui/status-badge";

type Loose = Record<string, any>;

const list = (values: unknown, none = "none") => {
  const items = (Array.isArray(values) ? values : []) as string[];
  return items.length ? <span className="font-mono text-xs">{items.join(", ")}</span> : <Muted>{none}</Muted>;
};

function Users({ users }: { users: string[] }) {
  if (users.length === 0) return <Muted>none (granted through RBAC &quot;use&quot; only)</Muted>;
  return (
    <ul className="flex flex-wrap gap-x-3" data-testid="scc-users">
      {users.map((u) => {
        const sa = /^system:serviceaccount:([^:]+):([^:]+)$/.exec(u);
        return (
          <li key={u} className="font-mono text-xs">
            {sa ? (
              <ObjectLink kind="ServiceAccount" namespace={sa[1]} name={sa[2]}>
                {u}
              </ObjectLink>
            ) : (
              u
            )}
          </li>
        );
      })}
    </ul>
  );
}

export function SccDetails({ obj }: { obj: KubeObject }) {
  const scc = obj as Loose;
  const rows = sccStrategies(obj);
  const flags = sccFlags(obj);
  return (
    <div data-testid="scc-details">
      <DetailTable caption="Strategies" columns={["Strategy", "Type", "A pod may", "Ranges or values"]} testId="scc-strategies">
        <tbody>
          {rows.map((r) => (
            <tr key={r.strategy} className="border-t border-slate-100 align-top dark:border-slate-800" data-testid="scc-strategy" data-strategy={r.strategy}>
              <td className="py-1 pr-3 font-mono text-xs">{r.strategy}</td>
              <td className="py-1 pr-3 font-mono text-xs">{r.type}</td>
              <td className="py-1 pr-3">{r.meaning}</td>
              <td className="py-1 font-mono text-xs">{r.values || <Muted>—</Muted>}</td>
            </tr>
          ))}
        </tbody>
      </DetailTable>
      <h3 className="mb-1 mt-4 text-sm font-semibold">Host access and privilege</h3>
      <ul className="mb-3 flex flex-wrap gap-2" data-testid="scc-flags">
        {flags.map((f) => (
          <li key={f.label} data-testid="scc-flag" data-allowed={String(f.allowed)}>
            <StatusBadge tone={f.allowed ? "warning" : "neutral"}>
              {f.label}: {f.allowed ? "yes" : "no"}
            </StatusBadge>
          </li>
        ))}
      </ul>
      <FieldList
        fields={[
          ["Priority", scc.priority ?? <Muted>none (sorted after those with one)</Muted>, "scc-priority"],
          ["Allowed capabilities", list(scc.allowedCapabilities), "scc-allowed-capabilities"],
          ["Added by default", list(scc.defaultAddCapabilities)],
          ["Required to drop", list(scc.requiredDropCapabilities), "scc-drop-capabilities"],
          ["Volumes", list(scc.volumes, "none allowed"), "scc-volumes"],
          ["Seccomp profiles", list(scc.seccompProfiles, "none listed")],
          ["Users", <Users key="u" users={(scc.users ?? []) as string[]} />],
          ["Groups", list(scc.groups), "scc-groups"],
        ]}
      />
    </div>
  );
}
