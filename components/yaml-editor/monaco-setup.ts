"use client";
// Monaco from the installed package (never a CDN), its workers bundled by Next, and monaco-yaml configured
// once per page. Schemas are registered per editor model URI as views open, so completion, hover and
// validation follow the kind being edited. Importing this module touches `window`: load it client-side only.
import { loader } from "@monaco-editor/react";
import * as monaco from "monaco-editor";
import { configureMonacoYaml, type SchemasSettings } from "monaco-yaml";

declare global {
  interface Window {
    /** Test hook: lets e2e tests read and set editor models without typing. */
    __clusterCoreMonaco?: typeof monaco;
  }
}

window.MonacoEnvironment = {
  getWorker(_id: string, label: string) {
    if (label === "yaml") return new Worker(new URL("monaco-yaml/yaml.worker.js", import.meta.url));
    return new Worker(new URL("monaco-editor/esm/vs/editor/editor.worker.js", import.meta.url));
  },
};
window.__clusterCoreMonaco = monaco;
// @monaco-editor/react uses this instance instead of fetching Monaco from a CDN.
loader.config({ monaco });

/**
 * The dark editor theme: vs-dark with diff colours a person can read (WCAG AA). vs-dark tints changed lines
 * and their changed characters in translucent green and red that, stacked, leave YAML's tokens below 4.5:1;
 * here changed lines get one dark, opaque tint and changed characters an outline instead of a second tint,
 * and line numbers are a shade lighter so they stay readable on the tint.
 */
export const DARK_EDITOR_THEME = "cluster-core-dark";
monaco.editor.defineTheme(DARK_EDITOR_THEME, {
  base: "vs-dark",
  inherit: true,
  rules: [{ token: "comment", foreground: "7fa867" }],
  colors: {
    "diffEditor.insertedLineBackground": "#1a2f1a",
    "diffEditor.insertedTextBackground": "#00000000",
    "diffEditor.insertedTextBorder": "#5fbf5fb0",
    "diffEditor.removedLineBackground": "#35191b",
    "diffEditor.removedTextBackground": "#00000000",
    "diffEditor.removedTextBorder": "#ef6f6fb0",
    "diffEditorGutter.insertedLineBackground": "#1a2f1a",
    "diffEditorGutter.removedLineBackground": "#35191b",
    "editorLineNumber.foreground": "#9a9a9a",
  },
});

const schemas = new Map<string, SchemasSettings>();
const monacoYaml = configureMonacoYaml(monaco, {
  enableSchemaRequest: false,
  validate: true,
  completion: true,
  hover: true,
  format: {},
  isKubernetes: true,
  schemas: [],
});

/** Attaches `schema` to the model at `modelUri` (or detaches it when undefined); the same schema twice is a no-op. */
export function setModelSchema(modelUri: string, schema: Record<string, unknown> | undefined): void {
  const current = schemas.get(modelUri);
  if (schema) {
    if (current?.schema === schema) return;
    schemas.set(modelUri, { uri: `${modelUri}.schema.json`, fileMatch: [modelUri], schema: schema as never });
  } else if (!schemas.delete(modelUri)) return;
  void monacoYaml.update({ schemas: [...schemas.values()] });
}

export { monaco };

let warming: Promise<void> | undefined;

/**
 * Starts monaco-yaml's worker before any editor needs it: a scratch YAML model (one syntax error, so markers come back) is validated (which starts
 * the worker), then dropped once its markers came back (or after 5 s).
 */
export function warmYamlWorker(): Promise<void> {
  warming ??= new Promise<void>((resolve) => {
    const model = monaco.editor.createModel("warm: [\n", "yaml", monaco.Uri.parse("inmemory://cluster-core/warm-up.yaml"));
    const done = () => {
      listener.dispose();
      clearTimeout(timer);
      model.dispose();
      resolve();
    };
    const listener = monaco.editor.onDidChangeMarkers((uris) => {
      if (uris.some((u) => u.toString() === model.uri.toString())) done();
    });
    const timer = setTimeout(done, 5_000);
  });
  return warming;
}
