import type { StatusCause } from "@/lib/client/api-error";

/** The server's per-field causes (422) as a list beside the markers in the editor. */
export function CauseList({ message, causes }: { message: string; causes: StatusCause[] }) {
  return (
    <div role="alert" className="border-b border-red-200 bg-red-50 px-4 py-2 text-sm text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-100" data-testid="save-error">
      <p className="font-medium">{message}</p>
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
