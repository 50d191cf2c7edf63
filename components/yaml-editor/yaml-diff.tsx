"use client";
// Side-by-side diff (Monaco's diff editor, made directly: @monaco-editor/react's DiffEditor disposes its models
// before the widget, which throws "TextModel got disposed"): stored or loaded version on the left, the user's text on the
// right. The right side can stay editable so a conflict is resolved in place; like the editor, it is
// uncontrolled (`modified` is read when it mounts, edits reach the parent through `onModifiedChange`).
// Unmounting disposes the diff editor before its two models (the other order throws "TextModel got
// disposed before DiffEditorWidget model got reset").
import { useEffect, useLayoutEffect, useRef } from "react";
import { monaco } from "./monaco-setup";
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
  const hostRef = useRef<HTMLDivElement>(null);
  const originalModel = useRef<monaco.editor.ITextModel | null>(null);
  const latest = useRef({ original, modified, onModifiedChange, editable, label, theme });
  useLayoutEffect(() => {
    latest.current = { original, modified, onModifiedChange, editable, label, theme };
  });

  useEffect(() => {
    const { original: left, modified: right, editable: canEdit, label: aria, theme: t } = latest.current;
    const originalText = monaco.editor.createModel(left, "yaml");
    const modifiedText = monaco.editor.createModel(right, "yaml");
    originalModel.current = originalText;
    monaco.editor.setTheme(t);
    const editor = monaco.editor.createDiffEditor(hostRef.current!, {
      readOnly: !canEdit,
      originalEditable: false,
      renderSideBySide: true,
      minimap: { enabled: false },
      fontSize: 13,
      automaticLayout: true,
      scrollBeyondLastLine: false,
      renderFinalNewline: "on",
      ariaLabel: aria,
    });
    // Each side is its own text input and takes no name from the diff editor's options: name them directly.
    editor.getOriginalEditor().updateOptions({ ariaLabel: `${aria}: left side, read only` });
    editor.getModifiedEditor().updateOptions({ ariaLabel: `${aria}: right side${canEdit ? "" : ", read only"}` });
    editor.setModel({ original: originalText, modified: modifiedText });
    const changes = modifiedText.onDidChangeContent(() => latest.current.onModifiedChange?.(modifiedText.getValue()));
    return () => {
      changes.dispose();
      originalModel.current = null;
      editor.setModel(null);
      editor.dispose();
      originalText.dispose();
      modifiedText.dispose();
    };
  }, []);

  // The left side follows its prop (it is never edited); the right side is the user's.
  useEffect(() => {
    const model = originalModel.current;
    if (model && model.getValue() !== original) model.setValue(original);
  }, [original]);

  useEffect(() => {
    monaco.editor.setTheme(theme);
  }, [theme]);

  return <div ref={hostRef} className="h-full min-h-0" data-testid="yaml-diff" />;
}
