"use client";
// An apply refused because other field managers own some of the edited fields (409, FieldManagerConflict),
// explained in place: each field under the manager that owns it, and the two ways on, as kubectl offers them
// (`--force-conflicts`, or dropping the fields from the configuration).
import { conflictsByManager, type ApplyConflict } from "@/lib/client/server-side-apply";
import { Button } from "../ui/button";
import { FieldPathList } from "./field-path-list";

export function ApplyConflictPanel({
  conflicts,
  message,
  dryRun,
  busy,
  onForce,
  onLeave,
}: {
  conflicts: ApplyConflict[];
  message: string;
  dryRun: boolean;
  busy: boolean;
  onForce: () => void;
  onLeave: () => void;
}) {
  const groups = conflictsByManager(conflicts);
  const n = conflicts.length;
  return (
    <div role="alert" className="border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-950 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100" data-testid="apply-conflict">
      <p className="font-medium">
        {dryRun ? "The dry run found " : "Not saved: "}
        {n} field{n === 1 ? " is" : "s are"} managed by {groups.length === 1 ? "another field manager" : "other field managers"} with a different value (409 Conflict).
      </p>
      <ul className="mt-1 space-y-1" data-testid="apply-conflict-managers">
        {groups.map((g) => (
          <li key={`${g.manager}/${g.operation}/${g.apiVersion ?? ""}/${g.subresource ?? ""}`} data-testid="apply-conflict-manager" data-manager={g.manager}>
            <span className="font-mono font-semibold">{g.manager}</span>
            <span className="text-xs">
              {" "}
              ({g.operation === "Update" ? `updated it${g.apiVersion ? ` using ${g.apiVersion}` : ""}` : "applied it"}
              {g.subresource ? `, subresource ${g.subresource}` : ""}) owns:
            </span>
            <FieldPathList paths={g.fields} className="ml-5 list-disc" testId="apply-conflict-fields" />
          </li>
        ))}
      </ul>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <Button variant="primary" disabled={busy} onClick={onForce} data-testid="take-ownership">
          Take ownership and save
        </Button>
        <Button disabled={busy} onClick={onLeave} data-testid="leave-fields">
          Leave these fields
        </Button>
        <span className="text-xs">
          Taking ownership sets your values and makes the console their only manager; leaving them saves everything else and keeps the other manager&apos;s values.
        </span>
      </div>
      <details className="mt-1 text-xs">
        <summary className="cursor-pointer">The message as the server sent it</summary>
        <p className="whitespace-pre-wrap break-words font-mono" data-testid="apply-conflict-message">
          {message}
        </p>
      </details>
    </div>
  );
}
