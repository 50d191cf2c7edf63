// Deletes objects through the API with the chosen DeleteOptions; used by the list's bulk delete and the
// object page. Each object is its own request so one refusal does not hide the others' outcome.
import { apiRequest } from "@/lib/client/api-client";
import { ApiError } from "@/lib/client/api-error";
import { objectPath } from "@/lib/client/resource-path";
import type { AnyKind, KubeObject } from "@/lib/kinds";

export type PropagationPolicy = "Background" | "Foreground" | "Orphan";

export interface DeleteChoice {
  gracePeriodSeconds?: number;
  propagationPolicy?: PropagationPolicy;
}

export interface DeleteOutcome {
  obj: KubeObject;
  error?: string;
}

export async function deleteObjects(kind: AnyKind, objects: KubeObject[], choice: DeleteChoice): Promise<DeleteOutcome[]> {
  const body: Record<string, unknown> = { kind: "DeleteOptions", apiVersion: "v1" };
  if (choice.gracePeriodSeconds !== undefined) body.gracePeriodSeconds = choice.gracePeriodSeconds;
  if (choice.propagationPolicy) body.propagationPolicy = choice.propagationPolicy;
  return Promise.all(
    objects.map(async (obj) => {
      try {
        await apiRequest(objectPath(kind, obj.metadata.namespace, obj.metadata.name ?? ""), { method: "DELETE", body });
        return { obj };
      } catch (e) {
        if (e instanceof ApiError && e.code === 404) return { obj };
        return { obj, error: (e as Error).message };
      }
    }),
  );
}
