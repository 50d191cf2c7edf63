"use client";
// Edit one object as YAML without ever losing work:
// - the text is compared with what was loaded; an untouched editor follows the live object;
// - "Review & save" shows the diff against the loaded version, then saves by server-side apply as the field
//   manager `cluster-core-console` (status and server-owned metadata stripped, as a manifest would have none);
// - an apply conflict (409, fields another manager owns with other values) is explained in place: each field
//   and its manager, then "Take ownership and save" (force=true) or "Leave these fields" (re-apply without
//   them). An apply sends no resourceVersion, so a save is never refused as stale: the 409 three-way merge of
//   the PUT days is gone; the merge stays for an object that changed on the server while being edited
//   ("Merge the new version": loaded, stored, edited → stored vs merged side by side, the right side editable);
// - a 422 marks each cause at its field; "Dry run" asks the server to validate without saving;
// - when the user's rules do not allow update, saving is disabled and the reason shown (a 403 on save still
//   shows kube's message, for rules the console could not see).
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { ApiError, type StatusCause } from "@/lib/client/api-error";
import { applyObject, getObject } from "@/lib/client/object-writes";
import { applyConfiguration, applyConflicts, CONSOLE_FIELD_MANAGER, locateField, withoutFields, type ApplyConflict } from "@/lib/client/server-side-apply";
import { threeWayMerge, type MergeConflict } from "./three-way-merge";
import { useKindSchema } from "@/lib/client/use-kind-schema";
import { parseYamlObject, toYaml, YamlSyntaxError } from "@/lib/client/yaml-text";
import type { AnyKind, KubeObject } from "@/lib/kinds";
import { Button } from "../ui/button";
import { ApplyConflictPanel } from "./apply-conflict";
import { causeMarkers, CauseList } from "./cause-list";
import { LazyYamlDiff, LazyYamlEditor } from "./lazy-editor";
import type { YamlEditorHandle } from "./yaml-editor";
import { ManagedFieldsPanel } from "./managed-fields-panel";

type Mode = "edit" | "review" | "conflict";

interface Problem {
  message: string;
  causes: StatusCause[];
  code?: number;
}

/** An apply refused for field-manager conflicts, with the object that was applied. */
interface Refusal {
  conflicts: ApplyConflict[];
  message: string;
  applied: KubeObject;
  dryRun: boolean;
}

/**
 * Whether `live` is a later version than `base`. This server's resourceVersions are increasing integers; one
 * that is not (another server's opaque string) counts as newer whenever it differs.
 */
function newerRevision(live: string | undefined, base: string | undefined): boolean {
  if (live === base) return false;
  const [l, b] = [Number(live), Number(base)];
  return Number.isSafeInteger(l) && Number.isSafeInteger(b) && live !== "" && base !== "" ? l > b : true;
}

/** A conflict's field as a marker path of the editor (`spec.containers[1].image`, dotted keys bracketed). */
function markerPath(obj: KubeObject, field: string): string {
  const at = locateField(obj, field);
  if (!at) return field.replace(/^\./, "");
  return at.map((seg, i) => (typeof seg === "number" || seg.includes(".") ? `[${seg}]` : i === 0 ? seg : `.${seg}`)).join("");
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
  const [notice, setNotice] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [stored, setStored] = useState<KubeObject | undefined>();
  const [conflicts, setConflicts] = useState<MergeConflict[]>([]);
  const [refusal, setRefusal] = useState<Refusal | undefined>();
  const dirty = text !== baseText;
  const modelPath = `file:///${kind.plural}/${live.metadata.namespace ?? "_"}/${live.metadata.name}.yaml`;
  // The list's copy may still be older than what a save just answered (its watch event has not arrived):
  // that is not a change on the server.
  const changedOnServer = newerRevision(live.metadata.resourceVersion, base.metadata.resourceVersion);

  /** Replaces the text by the console's decision (discard, the saved object): the editor's model too. */
  function replaceText(next: string) {
    setText(next);
    editorHandle.current?.replace(next);
  }

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

  // Back in the editor after the merge view (whose right side may have been edited): show that text. Only
  // from the merge view: the review diff is read-only, and after a save the model already holds the answer.
  const previousMode = useRef<Mode>(mode);
  useEffect(() => {
    const from = previousMode.current;
    previousMode.current = mode;
    if (from === "conflict" && mode === "edit" && editorHandle.current && editorHandle.current.getValue() !== text) editorHandle.current.replace(text);
    // Only on a change of mode: while editing, the model is the source of `text`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [mode]);

  /** The text to save: the model's own in the editor (it is never behind), the merge view's otherwise. */
  const currentText = () => (mode === "edit" && editorHandle.current ? editorHandle.current.getValue() : text);

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

  async function openConflict(mine: KubeObject) {
    const latest = await getObject(kind, base.metadata.namespace, base.metadata.name ?? "");
    const result = threeWayMerge(base, latest, mine);
    setStored(latest);
    setConflicts(result.conflicts);
    setText(toYaml(result.merged));
    setBase(latest);
    setMode("conflict");
  }

  /** Applies the editor's object (or `applied`, the configuration "Leave these fields" left). */
  async function save(options: { dryRun?: boolean; force?: boolean; applied?: KubeObject } = {}) {
    setProblem(undefined);
    setNotice(undefined);
    setRefusal(undefined);
    const obj = options.applied ?? parse();
    if (!obj) return;
    setBusy(true);
    // The editor stays editable while a save is in flight: what is typed meanwhile must survive its answer.
    const modelAtSend = editorHandle.current?.getValue();
    try {
      const saved = await applyObject(kind, obj, { dryRun: options.dryRun, force: options.force });
      if (options.dryRun) {
        setNotice("Dry run passed: the server would accept this change. Nothing was saved.");
      } else {
        setBase(saved);
        const next = toYaml(saved);
        // Typed meanwhile: the text stays the user's, now an edit of the saved object.
        if (!editorHandle.current || editorHandle.current.replace(next, modelAtSend)) setText(next);
        setMode("edit");
        setStored(undefined);
        setConflicts([]);
        setNotice(`Saved as field manager ${CONSOLE_FIELD_MANAGER}. resourceVersion ${saved.metadata.resourceVersion}.`);
      }
    } catch (e) {
      const managerConflicts = e instanceof ApiError && e.code === 409 ? applyConflicts(e.causes) : [];
      if (e instanceof ApiError && managerConflicts.length > 0) {
        setRefusal({ conflicts: managerConflicts, message: e.message, applied: obj, dryRun: !!options.dryRun });
        if (mode === "review") setMode("edit");
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

  /** A conflict explained is about the text that was applied: editing it again starts over. */
  function edit(next: string) {
    setText(next);
    if (next !== text) setRefusal(undefined);
  }

  /** "Leave these fields": the same configuration without the conflicting fields, applied again. */
  function leaveFields(r: Refusal) {
    const { config, missing } = withoutFields(applyConfiguration(r.applied), r.conflicts.map((c) => c.field));
    if (missing.length) {
      setProblem({ message: `Could not find ${missing.join(", ")} in the YAML to leave out; edit them by hand.`, causes: [] });
      return;
    }
    void save({ applied: config, dryRun: r.dryRun });
  }

  function discard() {
    setRefusal(undefined);
    setBase(live);
    replaceText(toYaml(live));
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

  const markers = useMemo(
    () =>
      refusal
        ? refusal.conflicts.map((c) => ({ field: markerPath(refusal.applied, c.field), message: `managed by ${c.manager}` }))
        : problem && causeMarkers(problem.causes),
    [refusal, problem],
  );

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
        <span className="ml-auto text-xs text-slate-600 dark:text-slate-400" data-testid="field-manager-note">
          Saves apply as field manager <code className="font-mono">{CONSOLE_FIELD_MANAGER}</code> · {dirty ? "Unsaved edits" : "No edits"}
        </span>
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
          <p className="font-medium">Someone else changed this {kind.kind} while you were editing.</p>
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
      {refusal && (
        <ApplyConflictPanel
          conflicts={refusal.conflicts}
          message={refusal.message}
          dryRun={refusal.dryRun}
          busy={busy}
          onForce={() => void save({ applied: refusal.applied, force: true, dryRun: refusal.dryRun })}
          onLeave={() => leaveFields(refusal)}
        />
      )}
      {problem && <CauseList message={problem.message} causes={problem.causes} code={problem.code} />}
      {notice && (
        <p role="status" className="border-b border-green-200 bg-green-50 px-4 py-2 text-sm text-green-900 dark:border-green-900 dark:bg-green-950 dark:text-green-100" data-testid="save-notice">
          {notice}
        </p>
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
        {mode === "review" && <LazyYamlDiff original={baseText} modified={text} label="Your edits compared with the loaded version" />}
        {mode === "conflict" && stored && <LazyYamlDiff original={toYaml(stored)} modified={text} editable onModifiedChange={setText} label="Stored version compared with your merged edits" />}
      </div>
    </div>
  );
}
