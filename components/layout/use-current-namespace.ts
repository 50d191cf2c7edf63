"use client";
// The namespace the console is looking at. The URL decides wherever it can (deep links); on pages of
// cluster-scoped kinds, which have no namespace, the last one chosen is kept so the sidebar leads back to it.
import { useParams, usePathname, useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import { rememberKnownNamespace } from "@/lib/client/known-namespaces";
import { consoleKind } from "@/lib/client/console-kinds";

const STORAGE_KEY = "cc-namespace";

export interface CurrentNamespace {
  /** "" means all namespaces. */
  namespace: string;
  /** False on pages of cluster-scoped kinds: the switcher then only sets the remembered namespace. */
  fromUrl: boolean;
}

export function useCurrentNamespace(): CurrentNamespace {
  const params = useParams<{ namespace?: string; plural?: string }>();
  const pathname = usePathname();
  const search = useSearchParams();
  const [remembered, setRemembered] = useState("");

  let fromUrl = true;
  let namespace = "";
  // Static routes (the Namespaces list at /namespaces) have no [plural] param: the first segment names the kind.
  const plural = params.plural ?? pathname.split("/")[1];
  const kind = plural ? consoleKind(plural) : undefined;
  if (params.namespace) namespace = decodeURIComponent(params.namespace);
  else if (pathname.startsWith("/create/")) namespace = search.get("namespace") ?? "";
  else if (kind && !kind.namespaced) fromUrl = false;

  useEffect(() => {
    // A namespace the user opened is one the switcher can offer even when namespaces cannot be listed.
    if (fromUrl && namespace) rememberKnownNamespace(namespace);
    if (fromUrl) {
      try {
        sessionStorage.setItem(STORAGE_KEY, namespace);
      } catch {
        // storage unavailable: nothing to remember
      }
      return;
    }
    const read = () => {
      try {
        setRemembered(sessionStorage.getItem(STORAGE_KEY) ?? "");
      } catch {
        setRemembered("");
      }
    };
    read();
    window.addEventListener("cc-namespace", read);
    return () => window.removeEventListener("cc-namespace", read);
  }, [fromUrl, namespace]);

  return { namespace: fromUrl ? namespace : remembered, fromUrl };
}

export function rememberNamespace(namespace: string): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, namespace);
  } catch {
    // storage unavailable
  }
  window.dispatchEvent(new Event("cc-namespace"));
}
