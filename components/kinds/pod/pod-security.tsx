"use client";
// Who the pod runs as and what admitted it: the SCC named by OpenShift's `openshift.io/scc` annotation, the
// ServiceAccount, and each container's effective security context (its own values over the pod's).
import { admittingScc, effectiveSecurity, SCC_ANNOTATION } from "./security-context";
import type { KubeObject } from "@/lib/kinds";
import { FieldList, Muted, ObjectLink } from "../field-list";

type Loose = Record<string, any>;

export function PodSecurity({ obj }: { obj: KubeObject }) {
  const spec = (obj.spec ?? {}) as Loose;
  const scc = admittingScc(obj);
  const serviceAccount: string = spec.serviceAccountName || spec.serviceAccount || "default";
  const { pod, containers } = effectiveSecurity(obj);
  return (
    <div data-testid="pod-security">
      <FieldList
        fields={[
          [
            "Admitted by SCC",
            scc ? <ObjectLink kind="SecurityContextConstraints" name={scc} testId="pod-scc-link" /> : <Muted>no {SCC_ANNOTATION} annotation</Muted>,
            "pod-scc",
          ],
          ["Service account", <ObjectLink key="sa" kind="ServiceAccount" namespace={obj.metadata.namespace} name={serviceAccount} testId="pod-service-account" />],
          ["Automount token", spec.automountServiceAccountToken === false ? "no" : undefined],
          ["Host namespaces", ["hostNetwork", "hostPID", "hostIPC"].filter((f) => spec[f] === true).join(", ")],
          ...pod.map((s): [string, string, string] => [s.field, s.value, `pod-${s.field}`]),
        ]}
      />
      {containers.length > 0 && (
        <table className="mt-3 w-full text-left text-sm" data-testid="container-security">
          <caption className="sr-only">Effective security context per container</caption>
          <thead className="text-xs uppercase text-slate-600 dark:text-slate-400">
            <tr>
              <th scope="col" className="w-48 py-1 pr-3">Container</th>
              <th scope="col" className="py-1">Effective security context</th>
            </tr>
          </thead>
          <tbody>
            {containers.map((c) => (
              <tr key={`${c.role}/${c.name}`} className="border-t border-slate-100 align-top dark:border-slate-800" data-testid="container-security-row" data-container={c.name}>
                <td className="py-1 pr-3 font-mono">
                  {c.name}
                  {c.role !== "container" && <span className="ml-1 text-xs text-slate-600 dark:text-slate-400">({c.role})</span>}
                </td>
                <td className="py-1">
                  {c.settings.length === 0 ? (
                    <Muted>nothing set: the runtime&apos;s defaults (the image&apos;s user)</Muted>
                  ) : (
                    <ul className="flex flex-wrap gap-1">
                      {c.settings.map((s) => (
                        <li
                          key={s.field}
                          className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs dark:bg-slate-800"
                          title={s.source === "pod" ? "from the pod's securityContext" : "set on the container"}
                          data-testid={`sc-${s.field}`}
                        >
                          {s.field}={s.value}
                          {s.source === "pod" && <span className="text-slate-700 dark:text-slate-300"> (pod)</span>}
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
