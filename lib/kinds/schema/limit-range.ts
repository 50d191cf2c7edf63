// LimitRange (spec 2.6): `spec.limits` is atomic, its resource maps merge key by key.
import { resourceList } from "./container";
import { coreType } from "./names";
import { arr, obj, str } from "./schema";
import { resource } from "./resource";

const limitRangeItem = obj(
  {
    default: resourceList("Default limits set on containers (or claims) that give none."),
    defaultRequest: resourceList("Default requests set on containers (or claims) that give none."),
    max: resourceList("Largest value allowed per resource."),
    maxLimitRequestRatio: resourceList("Largest allowed ratio of limit to request per resource."),
    min: resourceList("Smallest value allowed per resource."),
    type: str({ description: "What the item applies to: Pod, Container or PersistentVolumeClaim." }),
  },
  { name: coreType("LimitRangeItem"), description: "Limits for one kind of object.", required: ["type"] },
);

export const limitRangeSchema = resource(
  "LimitRange",
  {
    spec: obj(
      { limits: arr(limitRangeItem, { description: "The limits, one item per kind of object." }) },
      { name: coreType("LimitRangeSpec"), description: "Limits enforced in the namespace.", required: ["limits"] },
    ),
  },
  { description: "Default and allowed resource amounts per pod, container or claim in a namespace." },
);
