"use client";
// A Secret's YAML tab: the page holds the Secret masked, so its YAML shows keys with hidden values and cannot
// be edited as it stands (saving "(hidden)" would be saving nothing real). "Reveal values and edit" reads the
// Secret by GET, kept only here (never in React Query's cache) and read again as the live copy moves, and
// opens the editor on it.
import { useEffect, useState } from "react";
import { getObject } from "@/lib/client/object-writes";
import { toYaml } from "@/lib/client/yaml-text";
import type { AnyKind, KubeObject } from "@/lib/kinds";
import { Button } from "../../ui/button";
import { ScrollBox } from "../../ui/scroll-box";
import { ErrorState } from "../../ui/error-state";
import { ObjectYamlEditor } from "../../yaml-editor/object-yaml-editor";

export function SecretYaml({ kind, live, readOnlyReason }: { kind: AnyKind; live: KubeObject; readOnlyReason?: string }) {
  const [revealed, setRevealed] = useState(false);
  const [real, setReal] = useState<KubeObject | undefined>();
  const [error, setError] = useState<Error | undefined>();
  const rv = live.metadata.resourceVersion;
  const { namespace, name } = live.metadata;
  useEffect(() => {
    if (!revealed) return;
    let current = true;
    getObject(kind, namespace, name ?? "").then(
      (obj) => current && setReal(obj),
      (e: Error) => current && setError(e),
    );
    return () => {
      current = false;
    };
  }, [revealed, kind, namespace, name, rv]);

  if (error) return <ErrorState error={error} title={`Could not read ${kind.kind} ${name}`} />;
  if (revealed && real) return <ObjectYamlEditor kind={kind} live={real} readOnlyReason={readOnlyReason} />;
  return (
    <div className="flex min-h-0 flex-1 flex-col" data-testid="secret-yaml">
      <div className="flex flex-wrap items-center gap-3 border-b border-slate-200 px-4 py-2 text-sm dark:border-slate-800">
        <span className="text-slate-700 dark:text-slate-300">Values are hidden. Editing the YAML shows them.</span>
        <Button variant="primary" disabled={revealed} onClick={() => setRevealed(true)} data-testid="reveal-secret-yaml">
          {revealed ? "Reading…" : "Reveal values and edit"}
        </Button>
      </div>
      <ScrollBox as="pre" label={`YAML of ${kind.kind} ${name}, values hidden`} className="min-h-0 flex-1 overflow-auto bg-slate-50 p-4 font-mono text-xs dark:bg-slate-900">
        {toYaml(live)}
      </ScrollBox>
    </div>
  );
}
