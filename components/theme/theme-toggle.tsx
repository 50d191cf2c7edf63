"use client";
import { useEffect, useState } from "react";

export function toggleTheme(): void {
  const dark = !document.documentElement.classList.contains("dark");
  document.documentElement.classList.toggle("dark", dark);
  try {
    localStorage.setItem("cc-theme", dark ? "dark" : "light");
  } catch {
    // private mode: the choice lasts for this page only
  }
  window.dispatchEvent(new Event("cc-theme"));
}

export function ThemeToggle() {
  const [dark, setDark] = useState<boolean | undefined>(undefined);
  useEffect(() => {
    const read = () => setDark(document.documentElement.classList.contains("dark"));
    read();
    window.addEventListener("cc-theme", read);
    return () => window.removeEventListener("cc-theme", read);
  }, []);
  return (
    <button
      type="button"
      onClick={toggleTheme}
      className="rounded-md px-2 py-1 text-sm text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-slate-300 dark:hover:bg-slate-800"
      aria-label={dark ? "Switch to light theme" : "Switch to dark theme"}
      title="Toggle theme"
    >
      <span aria-hidden="true">{dark ? "☀" : "☾"}</span>
    </button>
  );
}
