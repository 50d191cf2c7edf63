"use client";
// Create an object that needs nothing but a name (a Namespace): one field, the server validates it, and the
// console opens the new object's page, which says it was created.
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { createdHref, objectHref } from "@/lib/client/console-routes";
import { createObject } from "@/lib/client/object-writes";
import { objectNamed } from "@/lib/client/templates";
import type { AnyKind } from "@/lib/kinds";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";

export function CreateByNameDialog({ kind, namespace, open, onClose }: { kind: AnyKind; namespace?: string; open: boolean; onClose: () => void }) {
  const [name, setName] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const router = useRouter();

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!name.trim()) {
      setError("Enter a name.");
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const created = await createObject(kind, namespace, objectNamed(kind, name.trim()));
      setName("");
      onClose();
      router.push(createdHref(objectHref(kind, created.metadata.namespace ?? namespace, created.metadata.name ?? name.trim())));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onClose={onClose} title={`New ${kind.kind}`}>
      <form onSubmit={submit} className="space-y-3">
        <div>
          <label htmlFor="create-name" className="block text-sm font-medium">
            Name
          </label>
          <input
            id="create-name"
            autoFocus
            value={name}
            onChange={(e) => setName(e.target.value)}
            aria-invalid={!!error}
            aria-describedby={error ? "create-name-error" : undefined}
            className="mt-1 w-full rounded-md border border-slate-300 bg-white px-2 py-1 font-mono text-sm dark:border-slate-700 dark:bg-slate-900"
            data-testid="create-name"
          />
        </div>
        {error && (
          <p id="create-name-error" role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-200" data-testid="create-name-error">
            {error}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={busy} data-testid="create-name-submit">
            {busy ? "Creating…" : `Create ${kind.kind}`}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
