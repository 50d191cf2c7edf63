"use client";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useState, type FormEvent } from "react";
import { useAccess } from "@/lib/client/use-access";
import { kindByPlural } from "@/lib/kinds";
import { CreateByNameDialog } from "../resource-actions/create-by-name-dialog";
import { switchNamespaceHref } from "@/lib/client/console-routes";
import { isNamespaceName, rememberKnownNamespace } from "@/lib/client/known-namespaces";
import { useNamespaces } from "@/lib/client/use-namespaces";
import { rememberNamespace, useCurrentNamespace } from "./use-current-namespace";

// Not a valid namespace name, and plain ASCII: a NUL here became U+FFFD in the server-rendered HTML, so the
// option's value no longer matched and the switcher navigated to "/namespaces/%EF%BF%BDother".
const OTHER = "__type-a-namespace__";
const CREATE = "__new-namespace__";
const DELETE = "__delete-namespace__";
const namespaceKind = kindByPlural("namespaces")!;

export function NamespaceSwitcher() {
  const { namespace, fromUrl } = useCurrentNamespace();
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  const [creating, setCreating] = useState(false);
  const [typing, setTyping] = useState(false);
  const [typed, setTyped] = useState("");
  const [typedError, setTypedError] = useState<string | undefined>();
  // Live: the list follows creations and deletions as they happen (a background watch).
  const { namespaces, isLoading, source, terminating } = useNamespaces(true, namespace);
  const createAccess = useAccess(namespaceKind, "create", {});
  const deleteAccess = useAccess(namespaceKind, "delete", { name: namespace || undefined });
  const options = namespace && !namespaces.includes(namespace) ? [namespace, ...namespaces] : namespaces;

  function go(next: string) {
    rememberNamespace(next);
    if (fromUrl) router.push(switchNamespaceHref(pathname, search.size ? `?${search}` : "", next));
  }

  function submitTyped(e: FormEvent) {
    e.preventDefault();
    const value = typed.trim();
    if (!value) {
      setTyping(false);
      return;
    }
    if (!isNamespaceName(value)) {
      setTypedError("Lower-case letters, digits and '-', at most 63 characters.");
      return;
    }
    setTyping(false);
    setTypedError(undefined);
    rememberKnownNamespace(value);
    go(value);
  }

  if (typing) {
    return (
      <form onSubmit={submitTyped} className="flex items-center gap-1">
        <label htmlFor="ns-typed" className="sr-only">
          Namespace name
        </label>
        <input
          id="ns-typed"
          autoFocus
          value={typed}
          onChange={(e) => {
            setTyped(e.target.value);
            setTypedError(undefined);
          }}
          onKeyDown={(e) => e.key === "Escape" && setTyping(false)}
          placeholder="namespace"
          aria-invalid={!!typedError}
          aria-describedby={typedError ? "ns-typed-error" : undefined}
          className="w-40 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-900"
        />
        <button type="submit" className="rounded-md bg-blue-700 px-2 py-1 text-sm text-white">
          Go
        </button>
        {typedError && (
          <span id="ns-typed-error" role="alert" className="text-xs text-red-800 dark:text-red-300">
            {typedError}
          </span>
        )}
      </form>
    );
  }

  return (
    <div className="flex min-w-0 flex-1 items-center gap-2 sm:flex-none">
      <label htmlFor="namespace-switcher" className="text-sm text-slate-600 max-sm:sr-only dark:text-slate-400">
        Namespace
      </label>
      <select
        id="namespace-switcher"
        data-testid="namespace-switcher"
        value={namespace}
        onChange={(e) => {
          const value = e.target.value;
          if (value === OTHER) {
            setTyped("");
            setTyping(true);
          } else if (value === CREATE) setCreating(true);
          // Deletion lives on the namespace's page (its dialog asks for the name): the switcher leads there.
          else if (value === DELETE) router.push(`/namespaces/${encodeURIComponent(namespace)}?tab=overview&delete=1`);
          else go(value);
        }}
        className="w-full min-w-0 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm sm:w-auto sm:max-w-56 dark:border-slate-700 dark:bg-slate-900"
      >
        <option value="">All namespaces</option>
        {source === "checked" && (
          <option disabled value="__checked__">
            (namespaces your roles reach)
          </option>
        )}
        {options.map((ns) => (
          <option key={ns} value={ns}>
            {terminating.has(ns) ? `${ns} (terminating)` : ns}
          </option>
        ))}
        {isLoading && <option disabled>Loading…</option>}
        <option disabled value="__separator__">
          ──────────
        </option>
        <option value={OTHER}>Type a namespace…</option>
        <option value={CREATE} disabled={!createAccess.allowed} title={createAccess.reason}>
          {createAccess.allowed ? "New namespace…" : "New namespace… (not allowed)"}
        </option>
        {namespace && (
          <option value={DELETE} disabled={!deleteAccess.allowed} title={deleteAccess.reason}>
            {deleteAccess.allowed ? `Delete namespace ${namespace}…` : `Delete namespace ${namespace}… (not allowed)`}
          </option>
        )}
      </select>
      {creating && <CreateByNameDialog kind={namespaceKind} open onClose={() => setCreating(false)} />}
    </div>
  );
}
