// Deletes objects through the API with the chosen DeleteOptions; used by the list's bulk delete and the
// object page. Each object is its own request so one refusal does not hide the others' outcome. kube answers
// with the object while something still holds it (finalizers, a grace period), else with a Status (or, for
// kinds that return the deleted object, the object with nothing holding it).
import { apiRequest } from "@/lib/client/api-client";
import { ApiError } from "@/lib/client/api-error";
import { objectPath } from "@/lib/client/resource-path";
import type { PropagationPolicy } from "@/lib/client/dependents";
import { stillHeld } from "@/lib/client/termination";
import type { AnyKind, KubeObject } from "@/lib/kinds";

export type { PropagationPolicy };

export interface DeleteChoice {
  gracePeriodSeconds?: number;
  propagationPolicy?: PropagationPolicy;
}

export interface DeleteOutcome {
  obj: KubeObject;
  error?: string;
  /** Deletion started but the object stays for now (Terminating): finalizers or a grace period hold it. */
  remains?: boolean;
}

export async function deleteObjects(kind: AnyKind, objects: KubeObject[], choice: DeleteChoice): Promise<DeleteOutcome[]> {
  const body: Record<string, unknown> = { kind: "DeleteOptions", apiVersion: "v1" };
  if (choice.gracePeriodSeconds !== undefined) body.gracePeriodSeconds = choice.gracePeriodSeconds;
  if (choice.propagationPolicy) body.propagationPolicy = choice.propagationPolicy;
  return Promise.all(
    objects.map(async (obj) => {
      try {
        const answer = await apiRequest(objectPath(kind, obj.metadata.namespace, obj.metadata.name ?? ""), { method: "DELETE", body });
        return { obj, remains: stillHeld(answer) };
      } catch (e) {
        if (e instanceof ApiError && e.code === 404) return { obj };
        return { obj, error: (e as Error).message };
      }
    }),
  );
}
