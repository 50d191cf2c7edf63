"use client";
// Secret values stay hidden until the user reveals one (or all); revealed values are shown decoded from
// base64 as UTF-8 text, or as a byte count when they are binary.
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";

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

export function SecretData({ data }: { data: Record<string, string> | undefined }) {
  const [revealed, setRevealed] = useState<Set<string>>(new Set());
  const keys = Object.keys(data ?? {}).sort();
  if (keys.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-400">No data.</p>;
  const toggle = (key: string) =>
    setRevealed((prev) => {
      const next = new Set(prev);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  const allShown = keys.every((k) => revealed.has(k));
  return (
    <div>
      <Button className="mb-2" onClick={() => setRevealed(allShown ? new Set() : new Set(keys))}>
        {allShown ? "Hide all values" : "Reveal all values"}
      </Button>
      <dl className="divide-y divide-slate-100 rounded-md border border-slate-200 dark:divide-slate-800 dark:border-slate-700" data-testid="secret-data">
        {keys.map((key) => {
          const decoded = decodeSecretValue(data![key]);
          const shown = revealed.has(key);
          return (
            <div key={key} className="grid grid-cols-[12rem_1fr] items-start gap-3 px-3 py-2 text-sm">
              <dt className="truncate font-mono font-medium">{key}</dt>
              <dd className="flex min-w-0 items-start justify-between gap-3">
                <span className="min-w-0 break-all font-mono" data-testid={`secret-value-${key}`}>
                  {shown ? (
                    decoded.text ?? `(${decoded.bytes} bytes of binary data)`
                  ) : (
                    <>
                      <span aria-hidden="true">••••••••</span>
                      <span className="sr-only">hidden value</span>
                    </>
                  )}
                </span>
                <span className="flex shrink-0 items-center gap-1">
                  {decoded.text !== undefined && <CopyButton text={decoded.text} label={`Copy ${key}`} testId={`copy-secret-${key}`} />}
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
