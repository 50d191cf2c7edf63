"use client";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useState, type FormEvent } from "react";
import { switchNamespaceHref } from "@/lib/client/console-routes";
import { useNamespaces } from "@/lib/client/use-namespaces";
import { rememberNamespace, useCurrentNamespace } from "./use-current-namespace";

const OTHER = "\u0000other";

export function NamespaceSwitcher() {
  const { namespace, fromUrl } = useCurrentNamespace();
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  const [wanted, setWanted] = useState(false);
  const [typing, setTyping] = useState(false);
  const [typed, setTyped] = useState("");
  const { namespaces, isLoading } = useNamespaces(wanted || namespace === "");
  const options = namespace && !namespaces.includes(namespace) ? [namespace, ...namespaces] : namespaces;

  function go(next: string) {
    rememberNamespace(next);
    if (fromUrl) router.push(switchNamespaceHref(pathname, search.size ? `?${search}` : "", next));
  }

  function submitTyped(e: FormEvent) {
    e.preventDefault();
    const value = typed.trim();
    setTyping(false);
    if (value) go(value);
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
          onChange={(e) => setTyped(e.target.value)}
          onKeyDown={(e) => e.key === "Escape" && setTyping(false)}
          placeholder="namespace"
          className="w-40 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-900"
        />
        <button type="submit" className="rounded-md bg-blue-700 px-2 py-1 text-sm text-white">
          Go
        </button>
      </form>
    );
  }

  return (
    <div className="flex items-center gap-2">
      <label htmlFor="namespace-switcher" className="text-sm text-slate-600 dark:text-slate-400">
        Namespace
      </label>
      <select
        id="namespace-switcher"
        data-testid="namespace-switcher"
        value={namespace}
        onFocus={() => setWanted(true)}
        onPointerEnter={() => setWanted(true)}
        onChange={(e) => {
          if (e.target.value === OTHER) {
            setTyped("");
            setTyping(true);
          } else go(e.target.value);
        }}
        className="max-w-56 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-900"
      >
        <option value="">All namespaces</option>
        {options.map((ns) => (
          <option key={ns} value={ns}>
            {ns}
          </option>
        ))}
        {isLoading && <option disabled>Loading…</option>}
        <option value={OTHER}>Type a namespace…</option>
      </select>
    </div>
  );
}
