"use client";
import { useEffect, useState } from "react";
import { DARK_EDITOR_THEME } from "./monaco-setup";

const isDark = () => typeof document !== "undefined" && document.documentElement.classList.contains("dark");

/** Monaco's theme follows the console's light/dark class (read at once: the editor renders only in the browser). */
export function useEditorTheme(): "vs" | typeof DARK_EDITOR_THEME {
  const [dark, setDark] = useState(isDark);
  useEffect(() => {
    const read = () => setDark(isDark());
    read();
    window.addEventListener("cc-theme", read);
    return () => window.removeEventListener("cc-theme", read);
  }, []);
  return dark ? DARK_EDITOR_THEME : "vs";
}
