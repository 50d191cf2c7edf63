// Single-object reads and writes through the REST API (the editor's save, dry-run and create paths).
import type { AnyKind, KubeObject } from "../kinds";
import { apiRequest } from "./api-client";
import { collectionPath, objectPath, withDryRun } from "./resource-path";

export function getObject(kind: AnyKind, namespace: string | undefined, name: string): Promise<KubeObject> {
  return apiRequest<KubeObject>(objectPath(kind, namespace, name));
}

/** PUT the whole object; its metadata.resourceVersion makes the write conditional (409 when stale). */
export function replaceObject(kind: AnyKind, obj: KubeObject, options: { dryRun?: boolean } = {}): Promise<KubeObject> {
  return apiRequest<KubeObject>(withDryRun(objectPath(kind, obj.metadata?.namespace, obj.metadata?.name ?? ""), options.dryRun), { method: "PUT", body: obj });
}

export function createObject(kind: AnyKind, namespace: string | undefined, obj: KubeObject, options: { dryRun?: boolean } = {}): Promise<KubeObject> {
  return apiRequest<KubeObject>(withDryRun(collectionPath(kind, kind.namespaced ? namespace : undefined), options.dryRun), { method: "POST", body: obj });
}
