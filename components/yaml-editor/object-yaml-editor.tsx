"use client";
// Edit one object as YAML without ever losing work:
// - the text is compared with what was loaded; an untouched editor follows the live object;
// - "Review & save" shows the diff against the loaded version, then PUTs with its resourceVersion;
// - a 409 fetches the stored version, merges three ways (loaded, stored, edited) and shows stored vs merged
//   side by side (the right side stays editable) with the conflicting fields listed;
// - a 422 marks each cause at its field; "Dry run" asks the server to validate without saving;
// - when the user's rules do not allow update, saving is disabled and the reason shown (a 403 on save still
//   shows kube's message, for rules the console could not see).
import { useEffect, useMemo, useState } from "react";
import { ApiError, type StatusCause } from "@/lib/client/api-error";
import { getObject, replaceObject } from "@/lib/client/object-writes";
import { threeWayMerge, type MergeConflict } from "@/lib/client/three-way-merge";
import { useKindSchema } from "@/lib/client/use-kind-schema";
import { parseYamlObject, toYaml, YamlSyntaxError } from "@/lib/client/yaml-text";
import type { AnyKind, KubeObject } from "@/lib/kinds";
import { Button } from "../ui/button";
import { CauseList } from "./cause-list";
import { LazyYamlDiff, LazyYamlEditor } from "./lazy-editor";

type Mode = "edit" | "review" | "conflict";

interface Problem {
  message: string;
  causes: StatusCause[];
  code?: number;
}

export function ObjectYamlEditor({ kind, live, readOnlyReason }: { kind: AnyKind; live: KubeObject; readOnlyReason?: string }) {
  const schema = useKindSchema(kind);
  const [base, setBase] = useState<KubeObject>(live);
  const baseText = useMemo(() => toYaml(base), [base]);
  const [text, setText] = useState(baseText);
  const [mode, setMode] = useState<Mode>("edit");
  const [problem, setProblem] = useState<Problem | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [stored, setStored] = useState<KubeObject | undefined>();
  const [conflicts, setConflicts] = useState<MergeConflict[]>([]);
  const dirty = text !== baseText;
  const modelPath = `file:///${kind.plural}/${live.metadata.namespace ?? "_"}/${live.metadata.name}.yaml`;
  const changedOnServer = live.metadata.resourceVersion !== base.metadata.resourceVersion;

  // An editor the user has not touched follows the live object, so it never shows a stale version.
  useEffect(() => {
    if (!dirty && mode === "edit" && changedOnServer) {
      setBase(live);
      setText(toYaml(live));
    }
  }, [live, dirty, mode, changedOnServer]);

  function parse(): KubeObject | undefined {
    try {
      const obj = parseYamlObject(text);
      obj.metadata ??= {};
      // The write is conditional on the version the user started from, even if they deleted the line.
      obj.metadata.resourceVersion ??= base.metadata.resourceVersion;
      return obj;
    } catch (e) {
      const where = e instanceof YamlSyntaxError && e.line ? ` (line ${e.line})` : "";
      setProblem({ message: `The YAML does not parse${where}: ${(e as Error).message}`, causes: [] });
      return undefined;
    }
  }

  async function openConflict(mine: KubeObject) {
    const latest = await getObject(kind, base.metadata.namespace, base.metadata.name ?? "");
    const result = threeWayMerge(base, latest, mine);
    setStored(latest);
    setConflicts(result.conflicts);
    setText(toYaml(result.merged));
    setBase(latest);
    setMode("conflict");
  }

  async function save(options: { dryRun?: boolean } = {}) {
    setProblem(undefined);
    setNotice(undefined);
    const obj = parse();
    if (!obj) return;
    setBusy(true);
    try {
      const saved = await replaceObject(kind, obj, options);
      if (options.dryRun) {
        setNotice("Dry run passed: the server would accept this change. Nothing was saved.");
      } else {
        setBase(saved);
        setText(toYaml(saved));
        setMode("edit");
        setStored(undefined);
        setConflicts([]);
        setNotice(`Saved. resourceVersion ${saved.metadata.resourceVersion}.`);
      }
    } catch (e) {
      if (e instanceof ApiError && e.isConflict && !options.dryRun) {
        await openConflict(obj).catch((err) => setProblem({ message: (err as Error).message, causes: [] }));
      } else if (e instanceof ApiError) {
        setProblem({ message: e.message, causes: e.causes, code: e.code });
        if (mode === "review") setMode("edit");
      } else {
        setProblem({ message: (e as Error).message, causes: [] });
      }
    } finally {
      setBusy(false);
    }
  }

  function discard() {
    setBase(live);
    setText(toYaml(live));
    setMode("edit");
    setProblem(undefined);
    setNotice(undefined);
    setStored(undefined);
    setConflicts([]);
  }

  async function mergeNow() {
    const mine = parse();
    if (mine) await openConflict(mine);
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col" data-testid="object-yaml-editor" data-mode={mode}>
      <div className="flex flex-wrap items-center gap-2 border-b border-slate-200 px-4 py-2 dark:border-slate-800">
        {mode === "edit" && (
          <>
            <span title={readOnlyReason} className="inline-flex">
              <Button variant="primary" disabled={busy || !dirty || !!readOnlyReason} onClick={() => parse() && setMode("review")} data-testid="review-save">
                Review &amp; save
              </Button>
            </span>
            <span title={readOnlyReason} className="inline-flex">
              <Button disabled={busy || !!readOnlyReason} onClick={() => void save({ dryRun: true })} data-testid="dry-run">
                Dry run
              </Button>
            </span>
            <Button disabled={busy || !dirty} onClick={discard}>
              Discard edits
            </Button>
          </>
        )}
        {mode === "review" && (
          <>
            <Button variant="primary" disabled={busy} onClick={() => void save()} data-testid="confirm-save">
              {busy ? "Saving…" : "Save"}
            </Button>
            <Button disabled={busy} onClick={() => void save({ dryRun: true })}>
              Dry run
            </Button>
            <Button disabled={busy} onClick={() => setMode("edit")}>
              Back to editing
            </Button>
            <span className="text-sm text-slate-600 dark:text-slate-400">Left: as loaded (resourceVersion {base.metadata.resourceVersion}). Right: your edits.</span>
          </>
        )}
        {mode === "conflict" && (
          <>
            <Button variant="primary" disabled={busy} onClick={() => void save()} data-testid="reapply-edits">
              Re-apply my edits
            </Button>
            <Button disabled={busy} onClick={() => setMode("edit")}>
              Edit merged YAML
            </Button>
            <Button disabled={busy} onClick={discard}>
              Discard my edits
            </Button>
          </>
        )}
        <span className="ml-auto text-xs text-slate-600 dark:text-slate-400">{dirty ? "Unsaved edits" : "No edits"}</span>
      </div>
      {readOnlyReason && (
        <p role="status" className="border-b border-slate-200 bg-slate-50 px-4 py-2 text-sm text-slate-700 dark:border-slate-800 dark:bg-slate-900 dark:text-slate-300" data-testid="read-only-notice">
          Read only: {readOnlyReason}
        </p>
      )}
      {mode === "edit" && dirty && changedOnServer && (
        <div role="status" className="flex items-center gap-3 border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100" data-testid="changed-on-server">
          This object changed on the server since you started editing (now resourceVersion {live.metadata.resourceVersion}).
          <Button onClick={() => void mergeNow()}>Merge the new version</Button>
        </div>
      )}
      {mode === "conflict" && stored && (
        <div role="alert" className="border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-950 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100" data-testid="conflict-view">
          <p className="font-medium">Someone else changed this {kind.kind} while you were editing (409 Conflict).</p>
          <p>
            Left: the version stored now (resourceVersion {stored.metadata.resourceVersion}). Right: your edits merged onto it — edit it if needed, then re-apply.
            {conflicts.length === 0 ? " No field was changed on both sides." : ` ${conflicts.length} field${conflicts.length === 1 ? " was" : "s were"} changed on both sides; your value is kept:`}
          </p>
          {conflicts.length > 0 && (
            <ul className="mt-1 list-disc pl-5 font-mono text-xs" data-testid="conflict-fields">
              {conflicts.map((c) => (
                <li key={c.path}>
                  {c.path}: stored {JSON.stringify(c.theirs)} · yours {JSON.stringify(c.mine)}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {problem && <CauseList message={problem.message} causes={problem.causes} code={problem.code} />}
      {notice && (
        <p role="status" className="border-b border-green-200 bg-green-50 px-4 py-2 text-sm text-green-900 dark:border-green-900 dark:bg-green-950 dark:text-green-100" data-testid="save-notice">
          {notice}
        </p>
      )}
      <div className="min-h-[24rem] flex-1">
        {mode === "edit" && (
          <LazyYamlEditor path={modelPath} value={text} onChange={setText} schema={schema} markers={problem?.causes.map((c) => ({ field: c.field ?? "", message: c.message ?? c.reason ?? "" }))} label={`YAML of ${kind.kind} ${live.metadata.name}`} />
        )}
        {mode === "review" && <LazyYamlDiff original={baseText} modified={text} label="Your edits compared with the loaded version" />}
        {mode === "conflict" && stored && <LazyYamlDiff original={toYaml(stored)} modified={text} editable onModifiedChange={setText} label="Stored version compared with your merged edits" />}
      </div>
    </div>
  );
}
