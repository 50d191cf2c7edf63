"use client";
// Side-by-side diff (Monaco's DiffEditor): stored or loaded version on the left, the user's text on the
// right. The right side can stay editable so a conflict is resolved in place.
import { DiffEditor, type DiffOnMount } from "@monaco-editor/react";
import "./monaco-setup";
import { useEditorTheme } from "./use-editor-theme";

export default function YamlDiff({
  original,
  modified,
  onModifiedChange,
  editable,
  label,
}: {
  original: string;
  modified: string;
  onModifiedChange?: (value: string) => void;
  editable?: boolean;
  label: string;
}) {
  const theme = useEditorTheme();
  const onMount: DiffOnMount = (editor) => {
    const modifiedEditor = editor.getModifiedEditor();
    modifiedEditor.onDidChangeModelContent(() => onModifiedChange?.(modifiedEditor.getValue()));
  };
  return (
    <div className="h-full min-h-0" data-testid="yaml-diff">
      <DiffEditor
        language="yaml"
        original={original}
        modified={modified}
        theme={theme}
        onMount={onMount}
        options={{
          readOnly: !editable,
          originalEditable: false,
          renderSideBySide: true,
          minimap: { enabled: false },
          fontSize: 13,
          automaticLayout: true,
          scrollBeyondLastLine: false,
          renderFinalNewline: "on",
          ariaLabel: label,
        }}
        loading={<div className="p-4 text-sm text-slate-600 dark:text-slate-400">Loading diff…</div>}
      />
    </div>
  );
}
