// PersistentVolumeClaim (spec 2.11): accessModes and selector.matchExpressions atomic, resource maps merge,
// status.conditions merge by type.
import { resourceList } from "./container";
import { coreType } from "./names";
import { accessModes, persistentVolumeClaimSpec } from "./persistent-volume-claim-spec";
import { arr, map, obj, str, time } from "./schema";
import { resource } from "./resource";

export const persistentVolumeClaimSchema = resource(
  "PersistentVolumeClaim",
  {
    spec: persistentVolumeClaimSpec,
    status: obj(
      {
        accessModes: accessModes("Access modes of the bound volume."),
        capacity: resourceList("Capacity of the bound volume."),
        phase: str({ description: "Pending, Bound or Lost.", enum: ["Bound", "Lost", "Pending"] }),
        // Newer than the spec (Kubernetes 1.32):
        allocatedResourceStatuses: map(str(), { mapType: "granular", description: "State of resize operations per resource." }),
        allocatedResources: resourceList("Resources allocated to the claim (after a resize)."),
        conditions: arr(
          obj(
            {
              lastProbeTime: time({ description: "When the condition was last probed." }),
              lastTransitionTime: time({ description: "When the status last changed." }),
              message: str({ description: "Human-readable details." }),
              reason: str({ description: "Short reason, e.g. Resizing." }),
              status: str({ description: "True, False or Unknown." }),
              type: str({ description: "Condition type, e.g. Resizing, FileSystemResizePending." }),
            },
            { name: coreType("PersistentVolumeClaimCondition"), description: "One condition of a claim.", required: ["type", "status"] },
          ),
          { mergeKey: "type", strategy: "merge", description: "Current conditions of the claim." },
        ),
        currentVolumeAttributesClassName: str({ description: "VolumeAttributesClass currently applied." }),
        modifyVolumeStatus: obj(
          {
            status: str({ description: "Pending, InProgress or Infeasible." }),
            targetVolumeAttributesClassName: str({ description: "Class being applied." }),
          },
          { name: coreType("ModifyVolumeStatus"), description: "State of a volume attributes change.", required: ["status"] },
        ),
      },
      { name: coreType("PersistentVolumeClaimStatus"), description: "Current state of the claim." },
    ),
  },
  { description: "A user's request for, and claim to, a persistent volume." },
);
