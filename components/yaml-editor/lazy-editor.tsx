"use client";
// Monaco touches `window` on import and weighs megabytes: load it only in the browser, only when wanted.
// `preloadYamlEditor()` starts that load early (an object page calls it when it mounts, see
// `usePreloadYamlEditor`), so the YAML tab opens with Monaco already parsed and its YAML worker started.
import dynamic from "next/dynamic";
import { useEffect } from "react";

const placeholder = () => <div className="p-4 text-sm text-slate-600 dark:text-slate-400">Loading editor…</div>;

const loadEditor = () => import("./yaml-editor");
const loadDiff = () => import("./yaml-diff");

let preloaded: Promise<unknown> | undefined;

/** Loads Monaco, the editor and the diff view, then warms the YAML worker; once per page. */
export function preloadYamlEditor(): Promise<unknown> {
  preloaded ??= Promise.all([loadEditor(), loadDiff(), import("./monaco-setup")])
    .then(([, , setup]) => setup.warmYamlWorker())
    .catch(() => undefined);
  return preloaded;
}

/** Starts loading the editor once the page is idle (the user reads the overview meanwhile). */
export function usePreloadYamlEditor(): void {
  useEffect(() => {
    const w = window as Window & { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number; cancelIdleCallback?: (id: number) => void };
    if (w.requestIdleCallback) {
      const id = w.requestIdleCallback(() => void preloadYamlEditor(), { timeout: 1_000 });
      return () => w.cancelIdleCallback?.(id);
    }
    const id = window.setTimeout(() => void preloadYamlEditor(), 200);
    return () => window.clearTimeout(id);
  }, []);
}

export const LazyYamlEditor = dynamic(loadEditor, { ssr: false, loading: placeholder });
export const LazyYamlDiff = dynamic(loadDiff, { ssr: false, loading: placeholder });
