// metav1.LabelSelector (PersistentVolumeClaim spec.selector, pod affinity terms).
import { metaType } from "./names";
import { arr, map, obj, str } from "./schema";

export const labelSelectorRequirement = obj(
  {
    key: str({ description: "Label key the requirement applies to." }),
    operator: str({ description: "How the key relates to the values: In, NotIn, Exists or DoesNotExist.", enum: ["In", "NotIn", "Exists", "DoesNotExist"] }),
    values: arr(str(), { description: "Values for In and NotIn (non-empty); must be empty for Exists and DoesNotExist." }),
  },
  { name: metaType("LabelSelectorRequirement"), description: "One requirement on a label.", required: ["key", "operator"] },
);

export const labelSelector = obj(
  {
    matchExpressions: arr(labelSelectorRequirement, { description: "Requirements that must all hold." }),
    matchLabels: map(str(), { description: "Labels that must all be present with exactly these values." }),
  },
  {
    name: metaType("LabelSelector"),
    description: "Selects objects by label; all terms are ANDed. An empty selector matches everything, a missing one nothing.",
  },
);
