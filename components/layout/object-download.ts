// The YAML of one object as `kubectl get -o yaml` shows it: apiVersion and kind first (list items may lack
// them), managedFields stripped (kubectl hides them unless --show-managed-fields), everything else as stored.
import { apiVersionOf, type AnyKind, type KubeObject } from "@/lib/kinds";
import { toYaml } from "@/lib/client/yaml-text";

export function objectForDownload(kind: AnyKind, obj: KubeObject): KubeObject {
  const { apiVersion: _a, kind: _k, metadata, ...rest } = obj;
  const { managedFields: _m, ...meta } = metadata ?? {};
  return { apiVersion: obj.apiVersion ?? apiVersionOf(kind), kind: obj.kind ?? kind.kind, metadata: meta, ...rest } as KubeObject;
}

export function objectYaml(kind: AnyKind, obj: KubeObject): string {
  return toYaml(objectForDownload(kind, obj));
}

/** `<name>.yaml`, with anything a file name should not hold replaced. */
export function yamlFileName(obj: KubeObject): string {
  return `${(obj.metadata?.name ?? "object").replace(/[^A-Za-z0-9._-]/g, "_")}.yaml`;
}
