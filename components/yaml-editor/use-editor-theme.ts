"use client";
import { useEffect, useState } from "react";

/** Monaco's theme follows the console's light/dark class. */
export function useEditorTheme(): "vs" | "vs-dark" {
  const [dark, setDark] = useState(false);
  useEffect(() => {
    const read = () => setDark(document.documentElement.classList.contains("dark"));
    read();
    window.addEventListener("cc-theme", read);
    return () => window.removeEventListener("cc-theme", read);
  }, []);
  return dark ? "vs-dark" : "vs";
}
