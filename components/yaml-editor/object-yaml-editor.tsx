"use client";
// Edit one object as YAML without ever losing work, nor anyone else's:
// - the text is compared with what was loaded; an untouched editor follows the live object;
// - "Review & save" reads the object as stored now and merges three ways (loaded = base, the edits = mine,
//   stored = theirs): the result is the stored object with exactly the fields the user changed. The diff
//   shows what saving writes over the stored version; a field both sides changed is listed with both values
//   and the user picks one per field before Save is possible;
// - the save is an update (PUT) of that result holding the stored resourceVersion, so the server writes it
//   only over the very version it was merged onto; if the object changed again meanwhile (409) it is read
//   and merged again. A server-side apply of the edits could not promise "exactly these fields": it cannot
//   remove a field another manager owns, it drops fields the console applied earlier and left out now, and a
//   change to one item of an atomic list claims the whole list;
// - the answer (the object as stored) is checked against every change the user kept: "Saved" only when all
//   are there, otherwise the ones missing are named with what the server holds instead;
// - a 422 marks each cause at its field; "Dry run" asks the server to validate the merged object;
// - when the user's rules do not allow update, saving is disabled and the reason shown (a 403 on save still
//   shows kube's message, for rules the console could not see).
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { ApiError, type StatusCause } from "@/lib/client/api-error";
import { CONSOLE_FIELD_MANAGER, getObject, updateObject } from "@/lib/client/object-writes";
import { threeWayMerge, unstoredChanges, type Choice, type FieldChange } from "./three-way-merge";
import { useKindSchema } from "@/lib/client/use-kind-schema";
import { kindSegment } from "@/lib/client/custom-kinds";
import { parseYamlObject, toYaml, YamlSyntaxError } from "@/lib/client/yaml-text";
import type { AnyKind, KubeObject } from "@/lib/kinds";
import { Button } from "../ui/button";
import { causeMarkers, CauseList } from "./cause-list";
import { LazyYamlDiff, LazyYamlEditor } from "./lazy-editor";
import type { YamlEditorHandle } from "./yaml-editor";
import { ManagedFieldsPanel } from "./managed-fields-panel";
import { MergeConflicts } from "./merge-conflicts";

type Mode = "edit" | "review";

interface Problem {
  message: string;
  causes: StatusCause[];
  code?: number;
}

/** What a save would write: the user's edits (`mine`) merged onto `latest`, as stored when last read. */
interface Review {
  latest: KubeObject;
  mine: KubeObject;
  choices: Record<string, Choice>;
  /** Why the review is shown again (the object changed while saving). */
  note?: string;
}

interface Notice {
  tone: "ok" | "warning";
  text: string;
  unstored?: (FieldChange & { stored: unknown })[];
}

/** Saves that meet a newer version (409) are merged again and retried this many times before asking. */
const MERGE_ATTEMPTS = 3;

const valueText = (v: unknown) => (v === undefined ? "(absent)" : typeof v === "string" ? v : JSON.stringify(v));

/**
 * Whether `live` is a later version than `base`. This server's resourceVersions are increasing integers; one
 * that is not (another server's opaque string) counts as newer whenever it differs.
 */
function newerRevision(live: string | undefined, base: string | undefined): boolean {
  if (live === base) return false;
  const [l, b] = [Number(live), Number(base)];
  return Number.isSafeInteger(l) && Number.isSafeInteger(b) && live !== "" && base !== "" ? l > b : true;
}

export function ObjectYamlEditor({ kind, live, readOnlyReason }: { kind: AnyKind; live: KubeObject; readOnlyReason?: string }) {
  const schema = useKindSchema(kind);
  const [base, setBase] = useState<KubeObject>(live);
  const baseText = useMemo(() => toYaml(base), [base]);
  // Mirrors the editor's model (which owns the text); never fed back into the editor while the user types.
  const [text, setText] = useState(baseText);
  const editorHandle = useRef<YamlEditorHandle | null>(null);
  const onReady = useCallback((handle: YamlEditorHandle | null) => {
    editorHandle.current = handle;
  }, []);
  const [mode, setMode] = useState<Mode>("edit");
  const [problem, setProblem] = useState<Problem | undefined>();
  const [notice, setNotice] = useState<Notice | undefined>();
  const [busy, setBusy] = useState(false);
  const [review, setReview] = useState<Review | undefined>();
  const dirty = text !== baseText;
  const modelPath = `file:///${kindSegment(kind)}/${live.metadata.namespace ?? "_"}/${live.metadata.name}.yaml`;
  // The list's copy may still be older than what a save just answered (its watch event has not arrived):
  // that is not a change on the server.
  const changedOnServer = newerRevision(live.metadata.resourceVersion, base.metadata.resourceVersion);
  const merge = useMemo(() => review && threeWayMerge(base, review.latest, review.mine, review.choices), [base, review]);
  const unsettled = merge ? merge.conflicts.filter((c) => !review!.choices[c.path]).length : 0;
  const keptChanges = merge ? merge.changes.filter((c) => c.kept).length : 0;

  // An editor the user has not touched follows the live object, so it never shows a stale version. "Not
  // touched" is decided by the model itself at this instant (a keystroke may not have reached React yet):
  // the replacement happens only if the model still holds the loaded text.
  useEffect(() => {
    if (mode !== "edit" || !changedOnServer || dirty) return;
    const next = toYaml(live);
    if (editorHandle.current && !editorHandle.current.replace(next, baseText)) return;
    setBase(live);
    setText(next);
  }, [live, dirty, mode, changedOnServer, baseText]);

  /** The editor's text: the model's own (it is never behind React's copy). */
  const currentText = () => editorHandle.current?.getValue() ?? text;

  function parse(): KubeObject | undefined {
    try {
      const obj = parseYamlObject(currentText());
      obj.metadata ??= {};
      return obj;
    } catch (e) {
      const where = e instanceof YamlSyntaxError && e.line ? ` (line ${e.line})` : "";
      setProblem({ message: `The YAML does not parse${where}: ${(e as Error).message}`, causes: [] });
      return undefined;
    }
  }

  function refused(e: unknown) {
    if (e instanceof ApiError) setProblem({ message: e.message, causes: e.causes, code: e.code });
    else setProblem({ message: (e as Error).message, causes: [] });
    setMode("edit");
  }

  const latestOf = () => getObject(kind, base.metadata.namespace, base.metadata.name ?? "");

  /** Reads the stored object and shows what saving would write over it. */
  async function openReview() {
    setProblem(undefined);
    setNotice(undefined);
    const mine = parse();
    if (!mine) return;
    setBusy(true);
    try {
      setReview({ latest: await latestOf(), mine, choices: {} });
      setMode("review");
    } catch (e) {
      refused(e);
    } finally {
      setBusy(false);
    }
  }

  /**
   * Writes the user's changes onto the stored object (the review's, or read now for a dry run from the
   * editor). A write refused as stale (409: changed since read) is merged again onto the new version and
   * retried; a new conflict stops and asks.
   */
  async function save(options: { dryRun?: boolean } = {}) {
    setProblem(undefined);
    setNotice(undefined);
    const mine = review && mode === "review" ? review.mine : parse();
    if (!mine) return;
    const choices = (mode === "review" && review?.choices) || {};
    setBusy(true);
    // What is typed while a save is in flight must survive its answer.
    const modelAtSend = editorHandle.current?.getValue();
    try {
      let latest = mode === "review" && review ? review.latest : await latestOf();
      for (let attempt = 1; ; attempt++) {
        const result = threeWayMerge(base, latest, mine, choices);
        const kept = result.changes.filter((c) => c.kept);
        const again = `This ${kind.kind} changed again while saving (now resourceVersion ${latest.metadata.resourceVersion}): nothing was saved. Review the new version.`;
        if (!options.dryRun && result.conflicts.some((c) => !choices[c.path])) {
          setReview({ latest, mine, choices, note: attempt > 1 ? again : undefined });
          setMode("review");
          return;
        }
        if (!options.dryRun && kept.length === 0) {
          setNotice({ tone: "warning", text: result.changes.length ? "Nothing saved: you kept the stored value of every field you changed." : "Nothing saved: your edits change no field." });
          setMode("edit");
          return;
        }
        let saved: KubeObject;
        try {
          saved = await updateObject(kind, result.merged as KubeObject, { dryRun: options.dryRun });
        } catch (e) {
          if (!(e instanceof ApiError && e.code === 409 && e.reason === "Conflict")) throw e;
          latest = await latestOf();
          if (attempt < MERGE_ATTEMPTS) continue;
          setReview({ latest, mine, choices, note: again });
          setMode("review");
          return;
        }
        if (options.dryRun) {
          setNotice({ tone: "ok", text: "Dry run passed: the server would accept this change. Nothing was saved." });
          return;
        }
        finishSave(saved, result.changes, modelAtSend);
        return;
      }
    } catch (e) {
      refused(e);
    } finally {
      setBusy(false);
    }
  }

  /** The answer is the object as stored: it is the new base, and it must hold every change the user kept. */
  function finishSave(saved: KubeObject, changes: FieldChange[], modelAtSend: string | undefined) {
    setBase(saved);
    const next = toYaml(saved);
    // Typed meanwhile: the text stays the user's, now an edit of the saved object.
    if (!editorHandle.current || editorHandle.current.replace(next, modelAtSend)) setText(next);
    setMode("edit");
    setReview(undefined);
    const unstored = unstoredChanges(changes, saved);
    const kept = changes.filter((c) => c.kept);
    const left = changes.filter((c) => !c.kept).map((c) => c.path);
    const rv = `resourceVersion ${saved.metadata.resourceVersion}`;
    if (unstored.length) {
      setNotice({
        tone: "warning",
        text: `Not all of your changes were saved: the server stored ${kept.length - unstored.length} of ${kept.length} (${rv}). These fields hold something else:`,
        unstored,
      });
      return;
    }
    const fields = `${kept.length} field${kept.length === 1 ? "" : "s"}`;
    setNotice({ tone: "ok", text: `Saved as field manager ${CONSOLE_FIELD_MANAGER}: ${fields} changed, nothing else (${rv}).${left.length ? ` Kept the stored value of ${left.join(", ")}.` : ""}` });
  }

  function choose(path: string, choice: Choice) {
    setReview((r) => r && { ...r, choices: { ...r.choices, [path]: choice } });
  }

  function edit(next: string) {
    setText(next);
  }

  function discard() {
    setBase(live);
    replaceText(toYaml(live));
    setMode("edit");
    setProblem(undefined);
    setNotice(undefined);
    setReview(undefined);
  }

  /** Replaces the text by the console's decision (discard): the editor's model too. */
  function replaceText(next: string) {
    setText(next);
    editorHandle.current?.replace(next);
  }

  const markers = useMemo(() => problem && causeMarkers(problem.causes), [problem]);
  const latestRv = review?.latest.metadata.resourceVersion;
  const latestChanged = !!review && newerRevision(latestRv, base.metadata.resourceVersion);

  return (
    <div className="flex min-h-0 flex-1 flex-col" data-testid="object-yaml-editor" data-mode={mode}>
      <div className="flex flex-wrap items-center gap-2 border-b border-slate-200 px-4 py-2 dark:border-slate-800">
        {mode === "edit" && (
          <>
            <span title={readOnlyReason} className="inline-flex">
              <Button variant="primary" disabled={busy || !dirty || !!readOnlyReason} onClick={() => void openReview()} data-testid="review-save">
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
            <Button variant="primary" disabled={busy || unsettled > 0 || keptChanges === 0} onClick={() => void save()} data-testid="confirm-save">
              {busy ? "Saving…" : "Save"}
            </Button>
            <Button disabled={busy} onClick={() => void save({ dryRun: true })}>
              Dry run
            </Button>
            <Button disabled={busy} onClick={() => setMode("edit")}>
              Back to editing
            </Button>
            <span className="text-sm text-slate-700 dark:text-slate-300" data-testid="review-summary">
              Left: stored now (resourceVersion {latestRv}{latestChanged ? `, changed since you loaded ${base.metadata.resourceVersion}` : ""}). Right: what saving writes, your{" "}
              {keptChanges} changed field{keptChanges === 1 ? "" : "s"} on it{unsettled ? `; choose a value for ${unsettled} field${unsettled === 1 ? "" : "s"} first` : ""}.
            </span>
          </>
        )}
        <span className="ml-auto text-xs text-slate-600 dark:text-slate-400" data-testid="field-manager-note">
          Saves only the fields you change, as field manager <code className="font-mono">{CONSOLE_FIELD_MANAGER}</code> · {dirty ? "Unsaved edits" : "No edits"}
        </span>
      </div>
      {readOnlyReason && (
        <p role="status" className="border-b border-slate-200 bg-slate-50 px-4 py-2 text-sm text-slate-700 dark:border-slate-800 dark:bg-slate-900 dark:text-slate-300" data-testid="read-only-notice">
          Read only: {readOnlyReason}
        </p>
      )}
      {mode === "edit" && dirty && changedOnServer && (
        <p role="status" className="border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100" data-testid="changed-on-server">
          This object changed on the server since you started editing (now resourceVersion {live.metadata.resourceVersion}). Saving writes only the fields you changed onto
          that version; the review shows the difference.
        </p>
      )}
      {mode === "review" && review?.note && (
        <p role="alert" className="border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-950 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100" data-testid="review-note">
          {review.note}
        </p>
      )}
      {mode === "review" && merge && merge.conflicts.length > 0 && <MergeConflicts conflicts={merge.conflicts} choices={review!.choices} onChoose={choose} />}
      {problem && <CauseList message={problem.message} causes={problem.causes} code={problem.code} />}
      {notice && (
        <div
          role={notice.tone === "ok" ? "status" : "alert"}
          className={
            notice.tone === "ok"
              ? "border-b border-green-200 bg-green-50 px-4 py-2 text-sm text-green-900 dark:border-green-900 dark:bg-green-950 dark:text-green-100"
              : "border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-950 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100"
          }
          data-testid="save-notice"
          data-tone={notice.tone}
        >
          <p>{notice.text}</p>
          {notice.unstored && (
            <ul className="mt-1 list-disc pl-5 font-mono text-xs" data-testid="unstored-changes">
              {notice.unstored.map((c) => (
                <li key={c.path}>
                  {c.path}: yours {c.removed ? "(removed)" : valueText(c.mine)} · stored {valueText(c.stored)}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <ManagedFieldsPanel kind={kind} live={live} />
      <div className="min-h-[24rem] flex-1">
        {/* Kept mounted while the diff is shown, so the cursor, scroll and undo history survive a review. */}
        <div className={mode === "edit" ? "h-full" : "hidden"}>
          <LazyYamlEditor
            path={modelPath}
            initialValue={text}
            onChange={edit}
            onReady={onReady}
            schema={schema}
            markers={markers}
            label={`YAML of ${kind.kind} ${live.metadata.name}`}
          />
        </div>
        {mode === "review" && merge && (
          <LazyYamlDiff
            key={`${latestRv}/${JSON.stringify(review!.choices)}`}
            original={toYaml(review!.latest)}
            modified={toYaml(merge.merged)}
            label="The stored version compared with what saving writes"
          />
        )}
      </div>
    </div>
  );
}
