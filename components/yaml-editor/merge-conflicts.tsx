"use client";
// Fields both the user and someone else changed since the editor loaded the object, each with both values and
// the user's choice between them. Nothing is chosen for the user: the save waits until every field is settled.
import type { Choice, MergeConflict } from "./three-way-merge";

/** A value as one line of YAML-ish text; a removed field says so. */
function shown(value: unknown): string {
  if (value === undefined) return "(removed)";
  return typeof value === "string" ? value : JSON.stringify(value);
}

export function MergeConflicts({
  conflicts,
  choices,
  onChoose,
  display = shown,
}: {
  conflicts: MergeConflict[];
  choices: Readonly<Record<string, Choice>>;
  onChoose: (path: string, choice: Choice) => void;
  /** How a value is shown; a Secret's values go through its mask. */
  display?: (value: unknown, conflict: MergeConflict) => string;
}) {
  const unsettled = conflicts.filter((c) => !choices[c.path]).length;
  return (
    <div role="alert" className="border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-950 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100" data-testid="merge-conflicts">
      <p className="font-medium">
        {conflicts.length} field{conflicts.length === 1 ? " was" : "s were"} changed both by you and on the server since you loaded it. Choose which value to keep
        {unsettled ? ` (${unsettled} left to choose)` : ""}:
      </p>
      <ul className="mt-1 space-y-2">
        {conflicts.map((c) => (
          <li key={c.path} data-testid="merge-conflict" data-path={c.path}>
            <fieldset>
              <legend className="font-mono text-xs font-semibold">{c.path}</legend>
              <label className="mr-4 inline-flex items-center gap-1">
                <input type="radio" name={`choice-${c.path}`} checked={choices[c.path] === "theirs"} onChange={() => onChoose(c.path, "theirs")} data-testid="keep-theirs" />
                Keep the stored value: <code className="break-all font-mono" data-testid="theirs-value">{display(c.theirs, c)}</code>
              </label>
              <label className="inline-flex items-center gap-1">
                <input type="radio" name={`choice-${c.path}`} checked={choices[c.path] === "mine"} onChange={() => onChoose(c.path, "mine")} data-testid="keep-mine" />
                Overwrite with yours: <code className="break-all font-mono" data-testid="mine-value">{display(c.mine, c)}</code>
              </label>
            </fieldset>
          </li>
        ))}
      </ul>
    </div>
  );
}
