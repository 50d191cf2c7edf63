"use client";
// Create from YAML: the kind's template in the chosen namespace, completion and validation from its schema,
// any number of documents (each is created in order, with its own outcome, and each checked in the editor
// against the schema of the kind it names), and a dry run first if wanted. One object created opens its page
// (which says it was created); several are listed, each linked. The editor is uncontrolled: its
// model owns the text, read when Create is pressed.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useMemo, useRef, useState } from "react";
import { ApiError, type StatusCause } from "@/lib/client/api-error";
import { createdHref, objectHref } from "@/lib/client/console-routes";
import { createObject } from "@/lib/client/object-writes";
import { DEFAULT_NAMESPACE, templateYaml } from "@/lib/client/templates";
import { useCustomKindSchema, useMultiKindSchema } from "@/lib/client/use-kind-schema";
import { explainStatusMessage } from "@/lib/client/status-message";
import { parseYamlDocuments, toYaml, YamlSyntaxError } from "@/lib/client/yaml-text";
import { exampleObject } from "@/lib/client/custom-kind-schema";
import { isCustomKind, kindSegment } from "@/lib/client/custom-kinds";
import { StateMessage } from "../ui/state-message";
import { apiVersionOf, type AnyKind, type KubeObject } from "@/lib/kinds";
import { Button } from "../ui/button";
import { causeMarkers, CauseList } from "./cause-list";
import { LazyYamlEditor } from "./lazy-editor";
import type { FieldMarker, YamlEditorHandle } from "./yaml-editor";
import { KindGate } from "@/components/layout/kind-gate";
import { consoleKindOfObject } from "@/lib/client/console-kinds";

interface Outcome {
  label: string;
  href?: string;
  error?: string;
  code?: number;
  causes?: StatusCause[];
  /** The document (non-empty ones, from 0) this outcome is about. */
  document: number;
}

/** One document's refusal in the outcomes list: kube's summary, then each packed reason on its own line. */
function OutcomeError({ message }: { message: string }) {
  const { summary, reasons } = explainStatusMessage(message);
  return (
    <>
      : <span className="break-words">{summary}</span>
      {reasons.length > 0 && (
        <ul className="list-disc pl-8 font-mono text-xs">
          {reasons.map((r, i) => (
            <li key={i}>{r}</li>
          ))}
        </ul>
      )}
    </>
  );
}

export function CreateView(props: { plural: string; namespace?: string }) {
  return <KindGate plural={props.plural}>{(kind) => (isCustomKind(kind) ? <CustomCreateView kind={kind} {...props} /> : <CreateViewOf kind={kind} {...props} />)}</KindGate>;
}

/** A custom kind starts from an example generated from its schema (read from the server first). */
function CustomCreateView({ kind, plural, namespace }: { kind: AnyKind; plural: string; namespace?: string }) {
  const { schema, loading } = useCustomKindSchema(kind);
  if (loading) return <StateMessage title={`Loading the schema of ${kind.kind}…`} />;
  const ns = kind.namespaced ? namespace || DEFAULT_NAMESPACE : undefined;
  return <CreateViewOf kind={kind} plural={plural} namespace={namespace} initialYaml={toYaml(exampleObject(schema, apiVersionOf(kind), kind.kind, ns))} />;
}

function CreateViewOf({ kind, namespace, initialYaml }: { kind: AnyKind; plural: string; namespace?: string; initialYaml?: string }) {
  const router = useRouter();
  const schema = useMultiKindSchema(kind);
  const [initialText] = useState(() => initialYaml ?? templateYaml(kind, namespace));
  const editorHandle = useRef<YamlEditorHandle | null>(null);
  const [outcomes, setOutcomes] = useState<Outcome[]>([]);
  const [problem, setProblem] = useState<{ message: string; causes: StatusCause[]; code?: number } | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const targetNamespace = kind.namespaced ? namespace || DEFAULT_NAMESPACE : undefined;

  async function submit(dryRun: boolean) {
    setProblem(undefined);
    setNotice(undefined);
    setOutcomes([]);
    let docs: KubeObject[];
    try {
      docs = parseYamlDocuments(editorHandle.current?.getValue() ?? initialText);
    } catch (e) {
      const where = e instanceof YamlSyntaxError && e.line ? ` (line ${e.line})` : "";
      setProblem({ message: `The YAML does not parse${where}: ${(e as Error).message}`, causes: [] });
      return;
    }
    if (docs.length === 0) {
      setProblem({ message: "There is nothing to create: the editor holds no document.", causes: [] });
      return;
    }
    setBusy(true);
    const results: Outcome[] = [];
    for (const [document, doc] of docs.entries()) {
      const docKind = doc.kind ? consoleKindOfObject(doc.apiVersion, doc.kind) : undefined;
      const name = doc.metadata?.name ?? doc.metadata?.generateName ?? "(unnamed)";
      const label = `${doc.kind ?? "?"} ${name}`;
      if (!docKind || (doc.apiVersion && doc.apiVersion !== apiVersionOf(docKind))) {
        results.push({ label, document, error: `${doc.apiVersion ?? "?"}/${doc.kind ?? "?"} is not a kind this server serves` });
        continue;
      }
      const ns = docKind.namespaced ? doc.metadata?.namespace || targetNamespace || DEFAULT_NAMESPACE : undefined;
      try {
        const created = await createObject(docKind, ns, doc, { dryRun });
        results.push({ document, label: `${docKind.kind} ${created.metadata.name}`, href: dryRun ? undefined : objectHref(docKind, ns, created.metadata.name ?? "") });
      } catch (e) {
        results.push({ label, document, error: (e as Error).message, code: e instanceof ApiError ? e.code : undefined, causes: e instanceof ApiError ? e.causes : [] });
      }
    }
    setBusy(false);
    setOutcomes(results);
    const failed = results.filter((r) => r.error);
    if (failed.length === 1 && docs.length === 1) setProblem({ message: failed[0].error!, causes: failed[0].causes ?? [], code: failed[0].code });
    if (failed.length === 0) {
      if (dryRun) setNotice(`Dry run passed: the server would create ${results.length === 1 ? "this object" : `all ${results.length} objects`}. Nothing was saved.`);
      // One object: its own page, which says it was just created.
      else if (docs.length === 1) router.push(createdHref(results[0].href!));
      else setNotice(`Created ${results.length} objects.`);
    }
  }

  // Each refused document's causes, marked in that document.
  const markers = useMemo<FieldMarker[]>(
    () => outcomes.flatMap((o) => causeMarkers(o.causes ?? []).map((m) => ({ ...m, document: o.document }))),
    [outcomes],
  );

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="flex flex-wrap items-center gap-3 border-b border-slate-200 px-4 py-2 dark:border-slate-800">
        <h1 className="text-lg font-semibold">
          Create {kind.kind}
          {targetNamespace && <span className="text-sm font-normal text-slate-600 dark:text-slate-400"> in {targetNamespace}</span>}
        </h1>
        <span className="text-xs text-slate-600 dark:text-slate-400">Separate several objects with a line of three dashes (---).</span>
        <div className="ml-auto flex gap-2">
          <Button disabled={busy} onClick={() => void submit(true)} data-testid="create-dry-run">
            Dry run
          </Button>
          <Button variant="primary" disabled={busy} onClick={() => void submit(false)} data-testid="create-submit">
            {busy ? "Creating…" : "Create"}
          </Button>
        </div>
      </div>
      {problem && <CauseList message={problem.message} causes={problem.causes} code={problem.code} />}
      {notice && (
        <p role="status" className="border-b border-green-200 bg-green-50 px-4 py-2 text-sm text-green-900 dark:border-green-900 dark:bg-green-950 dark:text-green-100" data-testid="create-notice">
          {notice}
        </p>
      )}
      {outcomes.length > 1 && (
        <ul className="border-b border-slate-200 px-4 py-2 text-sm dark:border-slate-800" data-testid="create-outcomes">
          {outcomes.map((o, i) => (
            <li key={i} className={o.error ? "text-red-800 dark:text-red-300" : "text-green-800 dark:text-green-300"}>
              {o.error ? "✗" : "✓"} {o.href ? <Link href={o.href} className="underline">{o.label}</Link> : o.label}
              {o.error && <OutcomeError message={o.error} />}
            </li>
          ))}
        </ul>
      )}
      <div className="min-h-[24rem] flex-1">
        <LazyYamlEditor
          path={`file:///create/${kindSegment(kind)}.yaml`}
          initialValue={initialText}
          onReady={(handle) => (editorHandle.current = handle)}
          schema={schema}
          markers={markers}
          label={`YAML for the new ${kind.kind}`}
        />
      </div>
    </div>
  );
}
