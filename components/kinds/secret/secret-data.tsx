"use client";
// Secret values stay hidden until the user reveals one (or all). The page holds the Secret masked
// (lib/client/secret-mask.ts), so revealing reads the Secret then, by GET, kept only in this component while
// something is shown (never in React Query's cache) and read again when the Secret changes; hiding every
// value lets the copy go. Revealed values are shown decoded from base64 as UTF-8 text, or as a byte count
// when they are binary.
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { getObject } from "@/lib/client/object-writes";
import type { AnyKind, KubeObject } from "@/lib/kinds";

export function decodeSecretValue(value: string): { text?: string; bytes: number } {
  let binary: string;
  try {
    binary = atob(value.replace(/[\r\n]/g, ""));
  } catch {
    return { bytes: 0 };
  }
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes), bytes: bytes.length };
  } catch {
    return { bytes: bytes.length };
  }
}

/** The Secret's real data while `wanted`, read again when its resourceVersion moves; nothing otherwise. */
function useRevealedData(kind: AnyKind, obj: KubeObject, wanted: boolean) {
  const [data, setData] = useState<{ rv?: string; values: Record<string, string> } | undefined>();
  const [error, setError] = useState<string | undefined>();
  const rv = obj.metadata.resourceVersion;
  const { namespace, name } = obj.metadata;
  useEffect(() => {
    if (!wanted) {
      setData(undefined);
      return;
    }
    let current = true;
    getObject(kind, namespace, name ?? "").then(
      (real) => current && (setData({ rv, values: ((real as { data?: Record<string, string> }).data ?? {}) }), setError(undefined)),
      (e: Error) => current && setError(e.message),
    );
    return () => {
      current = false;
    };
  }, [wanted, kind, namespace, name, rv]);
  return { values: data?.values, error };
}

export function SecretData({ kind, obj }: { kind: AnyKind; obj: KubeObject }) {
  const [revealed, setRevealed] = useState<Set<string>>(new Set());
  const keys = Object.keys((obj as { data?: Record<string, string> }).data ?? {}).sort();
  const { values, error } = useRevealedData(kind, obj, revealed.size > 0);
  if (keys.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-400">No data.</p>;
  const toggle = (key: string) =>
    setRevealed((prev) => {
      const next = new Set(prev);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  const allShown = keys.every((k) => revealed.has(k));
  // Copying reads the value then: it goes to the clipboard, not the page.
  const readValue = async (key: string) => {
    const real = (await getObject(kind, obj.metadata.namespace, obj.metadata.name ?? "")) as { data?: Record<string, string> };
    const text = decodeSecretValue(real.data?.[key] ?? "").text;
    if (text === undefined) throw new Error(`${key} is binary`);
    return text;
  };
  return (
    <div>
      <Button className="mb-2" onClick={() => setRevealed(allShown ? new Set() : new Set(keys))}>
        {allShown ? "Hide all values" : "Reveal all values"}
      </Button>
      {error && (
        <p role="alert" className="mb-2 text-sm text-red-800 dark:text-red-300">
          Could not read the values: {error}
        </p>
      )}
      <dl className="divide-y divide-slate-100 rounded-md border border-slate-200 dark:divide-slate-800 dark:border-slate-700" data-testid="secret-data">
        {keys.map((key) => {
          const value = revealed.has(key) ? values?.[key] : undefined;
          const decoded = value === undefined ? undefined : decodeSecretValue(value);
          const shown = revealed.has(key);
          return (
            <div key={key} className="grid grid-cols-[12rem_1fr] items-start gap-3 px-3 py-2 text-sm">
              <dt className="truncate font-mono font-medium">{key}</dt>
              <dd className="flex min-w-0 items-start justify-between gap-3">
                <span className="min-w-0 break-all font-mono" data-testid={`secret-value-${key}`}>
                  {decoded ? (
                    decoded.text ?? `(${decoded.bytes} bytes of binary data)`
                  ) : shown ? (
                    "Reading…"
                  ) : (
                    <>
                      <span aria-hidden="true">••••••••</span>
                      <span className="sr-only">hidden value</span>
                    </>
                  )}
                </span>
                <span className="flex shrink-0 items-center gap-1">
                  <CopyButton text={() => readValue(key)} label={`Copy ${key}`} testId={`copy-secret-${key}`} />
                  <Button variant="ghost" className="py-0.5" onClick={() => toggle(key)} aria-label={`${shown ? "Hide" : "Reveal"} ${key}`}>
                    {shown ? "Hide" : "Reveal"}
                  </Button>
                </span>
              </dd>
            </div>
          );
        })}
      </dl>
    </div>
  );
}
