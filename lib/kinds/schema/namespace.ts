// Namespace (core/v1, Kubernetes 1.32): spec.finalizers atomic; status.conditions merge by type.
import { coreType } from "./names";
import { arr, obj, str, time } from "./schema";
import { resource } from "./resource";

export const namespaceSchema = resource(
  "Namespace",
  {
    spec: obj(
      {
        finalizers: arr(str(), {
          description: "Finalizers that must be empty before the namespace is removed from storage; `kubernetes` stands for the removal of its content.",
        }),
      },
      { name: coreType("NamespaceSpec"), description: "The namespace's finalizers." },
    ),
    status: obj(
      {
        conditions: arr(
          obj(
            {
              lastTransitionTime: time({ description: "When the condition last changed status." }),
              message: str({ description: "Human-readable details." }),
              reason: str({ description: "Short machine-readable reason." }),
              status: str({ description: "True, False or Unknown." }),
              type: str({ description: "Condition type, e.g. NamespaceContentRemaining." }),
            },
            { name: coreType("NamespaceCondition"), description: "One condition of a namespace.", required: ["type", "status"] },
          ),
          { mergeKey: "type", strategy: "merge", description: "Latest observations of the namespace's deletion." },
        ),
        phase: str({ description: "Active, or Terminating once its deletion began.", enum: ["Active", "Terminating"] }),
      },
      { name: coreType("NamespaceStatus"), description: "Current state of the namespace." },
    ),
  },
  { description: "A scope for names; deleting it deletes everything in it." },
);
