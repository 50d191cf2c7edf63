// Ready-to-create YAML for a kind: the kind's own template (lib/kinds) placed in the chosen namespace.
import type { AnyKind, KubeObject } from "../kinds";
import { toYaml } from "./yaml-text";

export const DEFAULT_NAMESPACE = "default";

export function templateObject(kind: AnyKind, namespace: string | undefined): KubeObject {
  const obj = structuredClone(kind.template) as KubeObject;
  if (!kind.namespaced) return obj;
  const ns = namespace || DEFAULT_NAMESPACE;
  obj.metadata = { ...obj.metadata, namespace: ns };
  // An involved-object reference without a namespace is only valid in `default` (legacy event rule), so a
  // template aimed elsewhere points it at its own namespace.
  const involved = (obj as { involvedObject?: { namespace?: string } }).involvedObject;
  if (involved && typeof involved === "object" && !involved.namespace && ns !== DEFAULT_NAMESPACE) involved.namespace = ns;
  return obj;
}

export function templateYaml(kind: AnyKind, namespace: string | undefined): string {
  return toYaml(templateObject(kind, namespace));
}
