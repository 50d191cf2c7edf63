// A pod's status as `kubectl get pods` prints it (Running, CrashLoopBackOff, Init:0/1, Terminating...), with a
// tone the console colours it by. The text is kubectl's, computed once in lib/kinds (the server's Table uses
// the same fold); the tone is the console's reading of it: a Running pod whose containers are not all ready is
// a warning, CrashLoopBackOff or an image pull failure is an error. Lists and object pages share it.
import type { KubeObject } from "../kinds";
import { summarizePod, type Pod } from "../kinds/pod";
import { statusTone, type Tone } from "./status-tone";

export type StatusTone = Tone;

export interface PodStatusText {
  text: string;
  tone: StatusTone;
  /** kubectl's READY column: ready containers of all (sidecars counted). */
  ready: string;
}

export function podStatus(pod: KubeObject, now = Date.now()): PodStatusText {
  const summary = summarizePod(pod as Pod, now);
  const [ready, total] = summary.ready.split("/").map(Number);
  const text = summary.status || "Unknown";
  // A Running pod whose containers are not all ready is on its way, not fine.
  return { text, tone: text === "Running" && ready !== total ? "warning" : statusTone(text), ready: summary.ready };
}
