"use client";
// The YAML editor: Monaco with our kind schema, server-side causes (422) shown as markers at their
// fields, and the console's theme. Loaded through lazy-editor.tsx (next/dynamic, no SSR).
import { Editor, type OnMount } from "@monaco-editor/react";
import { useEffect, useRef, useState } from "react";
import { fieldPathToRange } from "@/lib/client/yaml-text";
import { monaco, setModelSchema } from "./monaco-setup";
import { useEditorTheme } from "./use-editor-theme";

export interface FieldMarker {
  field: string;
  message: string;
}

export interface YamlEditorProps {
  /** Model URI, e.g. `file:///namespaces/ns/pods/web.yaml`; one per object keeps undo history apart. */
  path: string;
  value: string;
  onChange?: (value: string) => void;
  schema?: Record<string, unknown>;
  markers?: FieldMarker[];
  readOnly?: boolean;
  label: string;
}

export default function YamlEditor({ path, value, onChange, schema, markers, readOnly, label }: YamlEditorProps) {
  const theme = useEditorTheme();
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const [mounted, setMounted] = useState(false);

  useEffect(() => {
    setModelSchema(path, schema);
  }, [path, schema]);
  useEffect(() => () => setModelSchema(path, undefined), [path]);

  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (!model) return;
    const text = model.getValue();
    monaco.editor.setModelMarkers(
      model,
      "server",
      (markers ?? []).map((m) => {
        const range = m.field ? fieldPathToRange(text, m.field) : undefined;
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
  }, [markers, mounted, value]);

  const onMount: OnMount = (editor) => {
    editorRef.current = editor;
    setMounted(true);
  };

  return (
    <div className="h-full min-h-0" data-testid="yaml-editor" data-model-uri={path}>
      <Editor
        path={path}
        language="yaml"
        value={value}
        theme={theme}
        onChange={(v) => onChange?.(v ?? "")}
        onMount={onMount}
        options={{
          readOnly,
          minimap: { enabled: false },
          fontSize: 13,
          scrollBeyondLastLine: false,
          tabSize: 2,
          automaticLayout: true,
          ariaLabel: label,
          renderWhitespace: "boundary",
          // Monaco dims the number of the final empty line below WCAG contrast; show it normally.
          renderFinalNewline: "on",
          quickSuggestions: { other: true, comments: false, strings: true },
        }}
        loading={<div className="p-4 text-sm text-slate-600 dark:text-slate-400">Loading editor…</div>}
      />
    </div>
  );
}
