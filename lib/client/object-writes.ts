// Single-object reads and writes through the REST API (the editor's save, dry-run and create paths). Every
// write names the console's field manager, so managedFields show `cluster-core-console`, not the browser,
// and asks for `fieldValidation=Strict`: a misspelled field (`labelz:`) is refused with the server's message
// instead of being dropped silently.
import type { AnyKind, KubeObject } from "../kinds";
import { apiRequest } from "./api-client";
import { collectionPath, objectPath, withDryRun } from "./resource-path";
import { applyConfiguration, CONSOLE_FIELD_MANAGER } from "./server-side-apply";

/** `?fieldManager=cluster-core-console&fieldValidation=Strict` (and `force=true`) added to a path. */
export function withManager(path: string, force?: boolean): string {
  const q = `fieldManager=${encodeURIComponent(CONSOLE_FIELD_MANAGER)}&fieldValidation=Strict${force ? "&force=true" : ""}`;
  return path + (path.includes("?") ? "&" : "?") + q;
}

export function getObject(kind: AnyKind, namespace: string | undefined, name: string): Promise<KubeObject> {
  return apiRequest<KubeObject>(objectPath(kind, namespace, name));
}

/**
 * Server-side apply of the object as the console's field manager: the configuration without server-owned
 * fields, sent as JSON (valid YAML, as kubectl sends it) with `application/apply-patch+yaml`. A field another
 * manager owns with a different value is a 409 with `FieldManagerConflict` causes unless `force`.
 */
export function applyObject(kind: AnyKind, obj: KubeObject, options: { dryRun?: boolean; force?: boolean } = {}): Promise<KubeObject> {
  const path = objectPath(kind, obj.metadata?.namespace, obj.metadata?.name ?? "");
  return apiRequest<KubeObject>(withManager(withDryRun(path, options.dryRun), options.force), {
    method: "PATCH",
    contentType: "application/apply-patch+yaml",
    body: JSON.stringify(applyConfiguration(obj)),
  });
}

export function createObject(kind: AnyKind, namespace: string | undefined, obj: KubeObject, options: { dryRun?: boolean } = {}): Promise<KubeObject> {
  return apiRequest<KubeObject>(withManager(withDryRun(collectionPath(kind, kind.namespaced ? namespace : undefined), options.dryRun)), { method: "POST", body: obj });
}
