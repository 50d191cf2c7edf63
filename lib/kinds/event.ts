import { field, type FieldError } from "../status";
import { dns1123SubdomainErrors, byteLength } from "../validation/dns-names";
import { qualifiedNameErrors } from "../validation/labels";
import { column, metadataDescriptions, timestampSince } from "./columns";
import { defineKind } from "./define-kind";
import { eventSchema } from "./schema/event";
import type { ObjectReference } from "./shared/object-reference";
import type { KubeObject } from "./types";

export interface EventSource {
  component?: string;
  host?: string;
}

export interface EventSeries {
  count?: number;
  lastObservedTime?: string;
  state?: string;
}

export interface Event extends KubeObject {
  action?: string;
  count?: number;
  /** Microsecond RFC 3339; `null` when unset. */
  eventTime?: string | null;
  firstTimestamp?: string | null;
  involvedObject: ObjectReference;
  lastTimestamp?: string | null;
  message?: string;
  reason?: string;
  related?: ObjectReference;
  reportingComponent?: string;
  reportingInstance?: string;
  series?: EventSeries;
  source?: EventSource;
  type?: string;
}

// --- columns --------------------------------------------------------------------------------------------------

function firstSeen(event: Event, now: number): string {
  return event.firstTimestamp ? timestampSince(event.firstTimestamp, now) : timestampSince(event.eventTime, now);
}

function lastSeen(event: Event, now: number): string {
  if (event.series) return timestampSince(event.series.lastObservedTime, now);
  return event.lastTimestamp ? timestampSince(event.lastTimestamp, now) : firstSeen(event, now);
}

/** Events written through events.k8s.io carry no count when they happened once. */
function count(event: Event): number {
  if (event.series) return event.series.count ?? 0;
  return event.count || 1;
}

function target(event: Event): string {
  const kind = (event.involvedObject?.kind ?? "").toLowerCase();
  const name = event.involvedObject?.name;
  return name ? `${kind}/${name}` : kind;
}

/** `component, host`; the reporting controller and instance stand in for an empty source. */
function source(event: Event): string {
  const component = event.source?.component || event.reportingComponent || "";
  const instance = event.source?.host || event.reportingInstance || "";
  return instance ? `${component}, ${instance}` : component;
}

// --- strategy -----------------------------------------------------------------------------------------------

const str = (value: unknown) => (typeof value === "string" ? value : "");

/**
 * legacyValidateEvent, the only check core/v1 applies (creates and updates alike): the involved object's namespace
 * agrees with the event's; an event with eventTime (the newer shape) names its reporter, action and reason within
 * their limits; the namespace is a DNS subdomain. `type` is not checked on this API (events.k8s.io does that).
 */
function validate(ev: Event): FieldError[] {
  const errors: FieldError[] = [];
  const namespace = str(ev.metadata?.namespace);
  const involvedNamespace = str(ev.involvedObject?.namespace);
  const mismatch = () => field.invalid("involvedObject.namespace", involvedNamespace, "does not match event.namespace");
  if (!ev.eventTime) {
    if (!involvedNamespace) {
      // An event about a cluster-scoped object lives in no namespace, or in "default" for old clients.
      if (namespace !== "" && namespace !== "default") errors.push(mismatch());
    } else if (namespace !== involvedNamespace) {
      errors.push(mismatch());
    }
  } else {
    if (!involvedNamespace && namespace !== "default" && namespace !== "kube-system") errors.push(mismatch());
    const controller = str(ev.reportingComponent);
    if (!controller) errors.push(field.required("reportingController"));
    for (const m of qualifiedNameErrors(controller)) errors.push(field.invalid("reportingController", controller, m));
    const instance = str(ev.reportingInstance);
    if (!instance) errors.push(field.required("reportingInstance"));
    if (byteLength(instance) > 128) errors.push(field.invalid("reportingInstance", "", "can have at most 128 characters"));
    const action = str(ev.action);
    if (!action) errors.push(field.required("action"));
    if (byteLength(action) > 128) errors.push(field.invalid("action", "", "can have at most 128 characters"));
    const reason = str(ev.reason);
    if (!reason) errors.push(field.required("reason"));
    if (byteLength(reason) > 128) errors.push(field.invalid("reason", "", "can have at most 128 characters"));
    if (byteLength(str(ev.message)) > 1024) errors.push(field.invalid("message", "", "can have at most 1024 characters"));
  }
  // The registry always sets the namespace before validating; an empty one is metadata validation's to report.
  if (namespace) for (const m of dns1123SubdomainErrors(namespace)) errors.push(field.invalid("namespace", namespace, m));
  return errors;
}

// --- declaration ----------------------------------------------------------------------------------------------

export const event = defineKind<Event>({
  kind: "Event",
  schema: eventSchema,
  plural: "events",
  singular: "event",
  shortNames: ["ev"],
  categories: [],
  namespaced: true,
  nameRule: "path-segment",
  hasStatus: false,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  deleteReturns: "status",
  selectableFields: {
    "involvedObject.kind": (e) => e.involvedObject?.kind,
    "involvedObject.namespace": (e) => e.involvedObject?.namespace,
    "involvedObject.name": (e) => e.involvedObject?.name,
    "involvedObject.uid": (e) => e.involvedObject?.uid,
    "involvedObject.apiVersion": (e) => e.involvedObject?.apiVersion,
    "involvedObject.resourceVersion": (e) => e.involvedObject?.resourceVersion,
    "involvedObject.fieldPath": (e) => e.involvedObject?.fieldPath,
    reason: (e) => e.reason,
    reportingComponent: (e) => e.reportingComponent,
    source: (e) => e.source?.component,
    type: (e) => e.type,
  },
  fieldSelectorError: "label-not-supported",

  // kube-apiserver's event printer: no Age column, and Name comes last (wide only).
  columns: [
    column<Event>({ name: "Last Seen", description: "The time at which the most recent occurrence of this event was recorded.", cell: lastSeen }),
    column<Event>({ name: "Type", description: "Type of this event (Normal, Warning), new types could be added in the future", cell: (e) => e.type ?? "" }),
    column<Event>({ name: "Reason", description: "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.", cell: (e) => e.reason ?? "" }),
    column<Event>({ name: "Object", description: "The object that this event is about.", cell: target }),
    column<Event>({
      name: "Subobject",
      priority: 1,
      description:
        "If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: \"spec.containers{name}\" (where \"name\" refers to the name of the container that triggered the event) or if no container name is specified \"spec.containers[2]\" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.",
      cell: (e) => e.involvedObject?.fieldPath ?? "",
    }),
    column<Event>({ name: "Source", priority: 1, description: "The component reporting this event. Should be a short machine understandable string.", cell: source }),
    column<Event>({ name: "Message", description: "A human-readable description of the status of this operation.", cell: (e) => (e.message ?? "").trim() }),
    column<Event>({ name: "First Seen", priority: 1, description: "The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)", cell: firstSeen }),
    column<Event>({ name: "Count", priority: 1, description: "The number of times this event has occurred.", cell: count }),
    column<Event>({ name: "Name", priority: 1, format: "name", description: metadataDescriptions.name, cell: (e) => e.metadata?.name ?? "" }),
  ],

  // A legacy event whose involved object names no namespace is valid only in `default`; when creating the
  // template elsewhere, set involvedObject.namespace to the event's namespace.
  // A recurring Event (a controller's retry, a resync) is the same Event seen again: only these move.
  heartbeatFields: ["count", "lastTimestamp", "series"],

  template: {
    apiVersion: "v1",
    kind: "Event",
    metadata: { name: "web.17a3c2f1b6d84e20" },
    involvedObject: { apiVersion: "v1", kind: "Pod", name: "web" },
    reason: "Scheduled",
    message: "Successfully assigned web to node-1",
    type: "Normal",
    source: { component: "default-scheduler" },
    count: 1,
  },

  validate,
});
