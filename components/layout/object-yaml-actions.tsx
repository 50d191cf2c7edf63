"use client";
// Copy and download an object's YAML from its page header, as `kubectl get -o yaml` prints it
// (managedFields stripped). The file is `<name>.yaml`. The page holds a Secret masked: its YAML is read by
// GET on the click, so the clipboard or the file gets its values while the page never does.
import { objectYaml, yamlFileName } from "./object-download";
import { getObject } from "@/lib/client/object-writes";
import { isSecretKind } from "@/lib/client/secret-mask";
import type { AnyKind, KubeObject } from "@/lib/kinds";
import { CopyButton } from "../ui/copy-button";

export function downloadText(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "application/yaml" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

export function ObjectYamlActions({ kind, obj }: { kind: AnyKind; obj: KubeObject }) {
  const yaml = async () => objectYaml(kind, isSecretKind(kind) ? await getObject(kind, obj.metadata.namespace, obj.metadata.name ?? "") : obj);
  return (
    <div className="flex items-center gap-2">
      <CopyButton text={yaml} label="Copy YAML" testId="copy-yaml">
        YAML
      </CopyButton>
      <button
        type="button"
        onClick={() => void yaml().then((text) => downloadText(yamlFileName(obj), text))}
        data-testid="download-yaml"
        className="inline-flex items-center gap-1 rounded-md border border-slate-300 px-2 py-0.5 text-xs font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-slate-600 dark:text-slate-200 dark:hover:bg-slate-800"
      >
        <svg aria-hidden="true" width="12" height="12" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round">
          <path d="M8 2v8M4.5 6.5 8 10l3.5-3.5M3 13h10" />
        </svg>
        Download YAML
      </button>
    </div>
  );
}
