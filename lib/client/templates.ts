// Ready-to-create YAML for a kind: the kind's own template (lib/kinds) placed in the chosen namespace.
import { apiVersionOf, type AnyKind, type KubeObject } from "../kinds";
import { isCustomKind } from "./custom-kinds";
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

const isEmpty = (v: unknown) => v === undefined || v === null || (typeof v === "object" && Object.keys(v as object).length === 0);

/**
 * A kind whose template is only a name (Namespace): the console offers a "name only" create dialog
 * besides the YAML create view. Decided from the template, so no kind is named here.
 */
export function createsByNameOnly(kind: AnyKind): boolean {
  // A custom kind's console template is only a name; its create page starts from its schema's example instead.
  if (isCustomKind(kind)) return false;
  const { apiVersion: _v, kind: _k, metadata, ...rest } = kind.template as KubeObject;
  // Example labels and annotations in a template are decoration, not content the object needs.
  const meta = Object.keys(metadata ?? {}).filter((k) => k !== "name" && k !== "labels" && k !== "annotations");
  return meta.length === 0 && Object.values(rest).every(isEmpty);
}

/** The object the name-only dialog creates. */
export function objectNamed(kind: AnyKind, name: string): KubeObject {
  const obj = structuredClone(kind.template) as KubeObject;
  obj.apiVersion ??= apiVersionOf(kind);
  obj.kind ??= kind.kind;
  obj.metadata = { name };
  return obj;
}
