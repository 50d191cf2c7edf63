"use client";
// Copies text to the clipboard and says so: the button reads "Copied" for a moment and a polite live region
// announces it to screen readers. `text` may be a function, so large texts (YAML) are built only on click, or
// an async one, so a Secret's value is read only when copied.
import { useEffect, useState, type ReactNode } from "react";

export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  // Older browsers and insecure origins have no async clipboard; a selected textarea still copies.
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand("copy");
  area.remove();
  if (!ok) throw new Error("The browser refused to copy");
}

export function CopyButton({
  text,
  label,
  children = "Copy",
  className = "",
  testId,
}: {
  text: string | (() => string | Promise<string>);
  /** Accessible name, e.g. "Copy name". */
  label: string;
  children?: ReactNode;
  className?: string;
  testId?: string;
}) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const t = setTimeout(() => setState("idle"), 2_000);
    return () => clearTimeout(t);
  }, [state]);
  return (
    <>
      <button
        type="button"
        aria-label={label}
        title={label}
        data-testid={testId}
        onClick={() => {
          Promise.resolve(typeof text === "function" ? text() : text)
            .then(copyText)
            .then(
            () => setState("copied"),
            () => setState("failed"),
          );
        }}
        className={`inline-flex items-center gap-1 rounded-md border border-slate-300 px-2 py-0.5 text-xs font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-slate-600 dark:text-slate-200 dark:hover:bg-slate-800 ${className}`}
      >
        <svg aria-hidden="true" width="12" height="12" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.6">
          <rect x="5" y="5" width="9" height="9" rx="1.5" />
          <path d="M11 5V3.5A1.5 1.5 0 0 0 9.5 2h-6A1.5 1.5 0 0 0 2 3.5v6A1.5 1.5 0 0 0 3.5 11H5" />
        </svg>
        <span aria-hidden="true">{state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : children}</span>
      </button>
      <span role="status" className="sr-only">
        {state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : ""}
      </span>
    </>
  );
}
