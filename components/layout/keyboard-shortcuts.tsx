"use client";
// k9s-style keys for the web: `/` focuses the view's filter, `g` then a letter jumps to a kind (or `h`
// overview, `n` namespace view), `?` lists the keys. Ignored while typing in a field or in the editor.
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { listHref, namespaceHref } from "@/lib/client/console-routes";
import { jumpKeys, kindTitle } from "@/lib/client/navigation";
import { kindByPlural } from "@/lib/kinds";
import { toggleTheme } from "../theme/theme-toggle";
import { Dialog } from "../ui/dialog";
import { useCurrentNamespace } from "./use-current-namespace";

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  if (el.isContentEditable) return true;
  const tag = el.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return true;
  return !!el.closest?.(".monaco-editor");
}

export function KeyboardShortcuts() {
  const router = useRouter();
  const { namespace } = useCurrentNamespace();
  const [help, setHelp] = useState(false);
  const pendingG = useRef<number>(0);

  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
      const now = Date.now();
      if (now - pendingG.current < 1500) {
        pendingG.current = 0;
        const plural = jumpKeys[e.key];
        const kind = plural ? kindByPlural(plural) : undefined;
        if (kind) router.push(listHref(kind, namespace));
        else if (e.key === "h") router.push("/");
        else if (e.key === "n") router.push(namespaceHref(namespace));
        else return;
        e.preventDefault();
        return;
      }
      if (e.key === "g") {
        pendingG.current = now;
        e.preventDefault();
      } else if (e.key === "/") {
        const filter = document.querySelector<HTMLInputElement>("[data-shortcut-filter]");
        if (filter) {
          e.preventDefault();
          filter.focus();
          filter.select();
        }
      } else if (e.key === "?") {
        e.preventDefault();
        setHelp((h) => !h);
      } else if (e.key === "T") {
        toggleTheme();
      }
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [router, namespace]);

  const rows: [string, string][] = [
    ["/", "Filter the current list"],
    ["?", "Show or hide this help"],
    ["Ctrl K", "Search names and labels, go to a kind or namespace"],
    ["Shift+T", "Switch between light and dark theme"],
    ["g h", "Overview (all namespaces)"],
    ["g n", "Live view of the current namespace"],
    ...Object.entries(jumpKeys).flatMap(([key, plural]): [string, string][] => {
      const kind = kindByPlural(plural);
      return kind ? [[`g ${key}`, kindTitle(kind)]] : [];
    }),
  ];

  return (
    <Dialog open={help} onClose={() => setHelp(false)} title="Keyboard shortcuts">
      <table className="w-full text-sm">
        <caption className="sr-only">Keyboard shortcuts</caption>
        <thead>
          <tr>
            <th scope="col" className="pb-2 text-left">
              Keys
            </th>
            <th scope="col" className="pb-2 text-left">
              Action
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([keys, what]) => (
            <tr key={keys}>
              <td className="py-0.5 pr-4">
                <kbd className="rounded border border-slate-300 px-1 font-mono text-xs dark:border-slate-600">{keys}</kbd>
              </td>
              <td className="py-0.5">{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Dialog>
  );
}
