"use client";
// Monaco touches `window` on import and weighs megabytes: load it only in the browser, only when shown.
import dynamic from "next/dynamic";

const placeholder = () => <div className="p-4 text-sm text-slate-600 dark:text-slate-400">Loading editor…</div>;

export const LazyYamlEditor = dynamic(() => import("./yaml-editor"), { ssr: false, loading: placeholder });
export const LazyYamlDiff = dynamic(() => import("./yaml-diff"), { ssr: false, loading: placeholder });
