import type { ReactElement, ReactNode } from "react";
import type { Access } from "@/lib/client/use-access";

/**
 * An action the rules may not allow: shown disabled with the reason as its tooltip (a wrapper carries the
 * title, since disabled buttons get no pointer events in some browsers) and as text for screen readers.
 */
export function PermissionGate({ access, children }: { access: Access; children: (disabled: boolean) => ReactElement }): ReactNode {
  if (access.allowed) return children(false);
  return (
    <span title={access.reason} className="inline-flex" data-testid="not-allowed">
      {children(true)}
      <span className="sr-only">{access.reason}</span>
    </span>
  );
}
