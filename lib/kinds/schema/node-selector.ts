// core/v1 NodeSelector: Pod node affinity and PersistentVolume nodeAffinity.
import { coreType } from "./names";
import { arr, obj, str } from "./schema";

export const nodeSelectorRequirement = obj(
  {
    key: str({ description: "Label key the requirement applies to." }),
    operator: str({ description: "In, NotIn, Exists, DoesNotExist, Gt or Lt.", enum: ["DoesNotExist", "Exists", "Gt", "In", "Lt", "NotIn"] }),
    values: arr(str(), { description: "Values for In and NotIn (non-empty), one integer for Gt and Lt, none otherwise." }),
  },
  { name: coreType("NodeSelectorRequirement"), description: "One requirement on a node label.", required: ["key", "operator"] },
);

export const nodeSelectorTerm = obj(
  {
    matchExpressions: arr(nodeSelectorRequirement, { description: "Requirements on node labels, ANDed." }),
    // Newer than the spec (Kubernetes 1.32):
    matchFields: arr(nodeSelectorRequirement, { description: "Requirements on node fields (metadata.name), ANDed." }),
  },
  { name: coreType("NodeSelectorTerm"), description: "A node selector term; an empty term matches no node." },
);

export const nodeSelector = obj(
  { nodeSelectorTerms: arr(nodeSelectorTerm, { description: "Terms, ORed." }) },
  { name: coreType("NodeSelector"), description: "Nodes matching one of the terms.", required: ["nodeSelectorTerms"] },
);
