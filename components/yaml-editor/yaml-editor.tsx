"use client";
// The YAML editor: Monaco with our kind schema, server-side causes (422) shown as markers at their
// fields, and the console's theme. Loaded through lazy-editor.tsx (next/dynamic, no SSR).
// Monaco is mounted by @monaco-editor/react's Editor (the installed monaco-editor through `loader.config`).
// Uncontrolled: the Monaco model owns the text. `initialValue` is read once, when the model is made; the
// parent hears every change through `onChange` and never feeds the text back while the user types (that
// round trip through React state lost keystrokes and threw the cursor). A replacement the parent decides
// (discard, the saved object, an untouched editor following the live object) goes through `onReady`'s
// handle as one edit of the changed lines only, so the cursor and scroll stay where they were.
import Editor, { type OnMount } from "@monaco-editor/react";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { fieldPathToRange, minimalEdit } from "@/lib/client/yaml-text";
import { monaco, setModelSchema } from "./monaco-setup";
import { useEditorTheme } from "./use-editor-theme";

export interface FieldMarker {
  field: string;
  message: string;
  /** The value kube quoted (a bad label key or value): lands a map's cause on that entry. */
  value?: string;
  /** Which document of a multi-document text (non-empty ones, from 0). */
  document?: number;
}

export interface YamlEditorHandle {
  getValue(): string;
  /**
   * Replaces the text with `text` as one undoable edit of the part that differs. With `ifCurrent`, only
   * when the text is still exactly that (the user has not typed since): returns false and changes nothing
   * otherwise.
   */
  replace(text: string, ifCurrent?: string): boolean;
}

export interface YamlEditorProps {
  /** Model URI, e.g. `file:///namespaces/ns/pods/web.yaml`; one per object keeps undo history apart. */
  path: string;
  /** The text the model starts with (read when the editor mounts; later changes are ignored). */
  initialValue: string;
  onChange?: (value: string) => void;
  onReady?: (handle: YamlEditorHandle | null) => void;
  schema?: Record<string, unknown>;
  markers?: FieldMarker[];
  readOnly?: boolean;
  label: string;
}

export const editorOptions: monaco.editor.IStandaloneEditorConstructionOptions = {
  minimap: { enabled: false },
  fontSize: 13,
  scrollBeyondLastLine: false,
  tabSize: 2,
  automaticLayout: true,
  renderWhitespace: "boundary",
  // Monaco dims the number of the final empty line below WCAG contrast; show it normally.
  renderFinalNewline: "on",
  quickSuggestions: { other: true, comments: false, strings: true },
};

/** One editor per model path: another path is another editor (and its own undo history). */
export default function YamlEditor(props: YamlEditorProps) {
  return <PathEditor key={props.path} {...props} />;
}

function PathEditor({ path, initialValue, onChange, onReady, schema, markers, readOnly, label }: YamlEditorProps) {
  const theme = useEditorTheme();
  const [mounted, setMounted] = useState(false);
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const latest = useRef({ initialValue, onChange, onReady });
  useLayoutEffect(() => {
    latest.current = { initialValue, onChange, onReady };
  });
  const cleanup = useRef<(() => void) | null>(null);

  // @monaco-editor/react's Editor, uncontrolled: no `value` prop, so React never writes the text back.
  const onMount: OnMount = (editor) => {
    editorRef.current = editor;
    const model = editor.getModel()!;
    // The model of this path may outlive an earlier editor: start from the text we were given.
    if (model.getValue() !== latest.current.initialValue) model.setValue(latest.current.initialValue);
    const changes = model.onDidChangeContent(() => latest.current.onChange?.(model.getValue()));
    const handle: YamlEditorHandle = {
      getValue: () => model.getValue(),
      replace(next, ifCurrent) {
        const current = model.getValue();
        if (ifCurrent !== undefined && current !== ifCurrent) return false;
        const edit = minimalEdit(current, next);
        if (!edit) return true;
        const a = model.getPositionAt(edit.start);
        const b = model.getPositionAt(edit.end);
        const view = editor.saveViewState();
        model.pushEditOperations([], [{ range: new monaco.Range(a.lineNumber, a.column, b.lineNumber, b.column), text: edit.text }], () => null);
        if (view) editor.restoreViewState(view);
        return true;
      },
    };
    latest.current.onReady?.(handle);
    setMounted(true);
    cleanup.current = () => {
      latest.current.onReady?.(null);
      changes.dispose();
      editorRef.current = null;
      // The editor lets go of its model before the model goes (the Editor component disposes the editor after us).
      editor.setModel(null);
      model.dispose();
    };
  };
  useEffect(() => () => cleanup.current?.(), []);

  useEffect(() => {
    setModelSchema(path, schema);
  }, [path, schema]);
  useEffect(() => () => setModelSchema(path, undefined), [path]);

  // Markers are placed against the text as it is when they arrive, not recomputed on every keystroke.
  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (!model) return;
    const text = model.getValue();
    monaco.editor.setModelMarkers(
      model,
      "server",
      (markers ?? []).map((m) => {
        const range = m.field ? fieldPathToRange(text, m.field, m.value, m.document) : undefined;
        return {
          severity: monaco.MarkerSeverity.Error,
          message: m.field ? `${m.field}: ${m.message}` : m.message,
          startLineNumber: range?.startLine ?? 1,
          startColumn: range?.startColumn ?? 1,
          endLineNumber: range?.endLine ?? 1,
          endColumn: range?.endColumn ?? 2,
        };
      }),
    );
  }, [markers, path, mounted]);

  return (
    <div className="h-full min-h-0" data-testid="yaml-editor" data-model-uri={path}>
      <Editor
        path={path}
        defaultLanguage="yaml"
        defaultValue={initialValue}
        keepCurrentModel
        theme={theme}
        onMount={onMount}
        options={{ ...editorOptions, readOnly, ariaLabel: label }}
        loading={<div className="p-4 text-sm text-slate-600 dark:text-slate-400">Loading editor…</div>}
      />
    </div>
  );
}
