import type { ReactNode } from "react";
import { isForbidden } from "./forbidden";
import { StateMessage } from "./state-message";

/**
 * A failed read, in place of the view: a 403 says plainly that the user's roles do not allow it and shows
 * kube's own message (which names the user, verb, resource and namespace); anything else shows the error.
 * A 401 never gets here: the API client signs the user out first.
 */
export function ErrorState({ error, title, children }: { error: Error; title: string; children?: ReactNode }) {
  if (isForbidden(error)) {
    return (
      <StateMessage tone="error" title="Your roles do not allow this" testId="forbidden-message">
        <p className="break-words font-mono text-xs" data-testid="error-message">
          {error.message}
        </p>
        <p className="mt-2">Ask an administrator for a RoleBinding, or pick another namespace.</p>
        {children}
      </StateMessage>
    );
  }
  return (
    <StateMessage tone="error" title={title} testId="error-state">
      <p data-testid="error-message">{error.message}</p>
      {children}
    </StateMessage>
  );
}
