// How controllers and admission record core/v1 Events (client-go's EventRecorder): about an object, Normal or
// Warning, with the real controllers' reasons and messages. The server's implementation writes them through the
// registry, aggregated as kube's recorder does; tests and code without one use `noEvents`.
import type { KubeObject } from "../kinds/types";

export type EventType = "Normal" | "Warning";

export interface EventRecorder {
  /** Records (or aggregates into) an Event about `object` from `component` (e.g. "endpoint-controller"). */
  event(object: KubeObject, type: EventType, reason: string, message: string, component: string): void;
}

export const noEvents: EventRecorder = { event: () => {} };
