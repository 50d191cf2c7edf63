// Event (spec 2.5), both the legacy fields and the newer ones. No lists: nested objects merge as maps.
import { coreType } from "./names";
import { objectReference } from "./object-reference";
import { describe, int, microTime, obj, str, time } from "./schema";
import { resource } from "./resource";

export const eventSchema = resource(
  "Event",
  {
    action: str({ description: "What was done (or failed) to the regarding object, e.g. Binding." }),
    count: int({ description: "How many times this event has occurred." }),
    eventTime: microTime({ description: "When the event was first observed (newer events)." }),
    firstTimestamp: time({ description: "When the event was first recorded." }),
    involvedObject: describe(objectReference, "The object this event is about."),
    lastTimestamp: time({ description: "When the most recent occurrence was recorded." }),
    message: str({ description: "Human-readable description of the event." }),
    reason: str({ description: "Short, machine-readable reason in UpperCamelCase, e.g. FailedScheduling." }),
    related: describe(objectReference, "A second object involved, e.g. the node a pod was scheduled to."),
    reportingComponent: str({ description: "Controller that emitted the event, e.g. kubernetes.io/kubelet." }),
    reportingInstance: str({ description: "Instance of the controller, e.g. kubelet-node-1." }),
    series: obj(
      {
        count: int({ description: "Occurrences in the series up to lastObservedTime." }),
        lastObservedTime: microTime({ description: "When the last occurrence was observed." }),
        state: str({ description: "Ongoing, Finished or Unknown (legacy)." }),
      },
      { name: coreType("EventSeries"), description: "Data about a series of repeated occurrences." },
    ),
    source: obj(
      {
        component: str({ description: "Component that generated the event." }),
        host: str({ description: "Node the event was generated on." }),
      },
      { name: coreType("EventSource"), description: "Where an event came from." },
    ),
    type: str({ description: "Normal or Warning (others may be added)." }),
  },
  { description: "A report of something that happened to an object in the cluster.", required: ["metadata", "involvedObject"] },
);
