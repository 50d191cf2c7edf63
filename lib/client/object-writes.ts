// Single-object reads and writes through the REST API (the editor's save, dry-run and create paths). Every
// write names the console's field manager, so managedFields show `cluster-core-console`, not the browser,
// and asks for `fieldValidation=Strict`: a misspelled field (`labelz:`) is refused with the server's message
// instead of being dropped silently.
import type { AnyKind, KubeObject } from "../kinds";
import { apiRequest } from "./api-client";
import { collectionPath, objectPath, withDryRun } from "./resource-path";

/** The field manager every console write is recorded under (`?fieldManager=`). */
export const CONSOLE_FIELD_MANAGER = "cluster-core-console";

/** `?fieldManager=cluster-core-console&fieldValidation=Strict` added to a path. */
export function withManager(path: string): string {
  const q = `fieldManager=${encodeURIComponent(CONSOLE_FIELD_MANAGER)}&fieldValidation=Strict`;
  return path + (path.includes("?") ? "&" : "?") + q;
}

export function getObject(kind: AnyKind, namespace: string | undefined, name: string): Promise<KubeObject> {
  return apiRequest<KubeObject>(objectPath(kind, namespace, name));
}

/**
 * An update (PUT) of the whole object. Its metadata.resourceVersion is a precondition: the server answers
 * 409 Conflict if the object changed since that version was read, so what is written is exactly the object
 * sent, never a blend with a change made meanwhile.
 */
export function updateObject(kind: AnyKind, obj: KubeObject, options: { dryRun?: boolean } = {}): Promise<KubeObject> {
  const path = objectPath(kind, obj.metadata?.namespace, obj.metadata?.name ?? "");
  return apiRequest<KubeObject>(withManager(withDryRun(path, options.dryRun)), { method: "PUT", body: obj });
}

export function createObject(kind: AnyKind, namespace: string | undefined, obj: KubeObject, options: { dryRun?: boolean } = {}): Promise<KubeObject> {
  return apiRequest<KubeObject>(withManager(withDryRun(collectionPath(kind, kind.namespaced ? namespace : undefined), options.dryRun)), { method: "POST", body: obj });
}
