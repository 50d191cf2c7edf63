// How a list colours a status cell: from the text the column already printed (kubectl's words), never from
// the object, so the colour always agrees with what the cell says. CrashLoopBackOff reads as an error even
// though the pod's phase is Running.
export type Tone = "ok" | "warning" | "error" | "neutral";

const ok = new Set(["Running", "Bound", "Available", "Active", "Normal", "True"]);
/** Done or going away as asked: nothing to look at. */
const neutral = new Set(["Succeeded", "Completed", "Terminating"]);
const warning = new Set([
  "Pending",
  "ContainerCreating",
  "PodInitializing",
  "NotReady",
  "SchedulingGated",
  "Unknown",
  "Released",
  "Warning",
  "Unschedulable",
]);
const error = new Set([
  "Failed",
  "Lost",
  "Error",
  "Evicted",
  "NodeLost",
  "OOMKilled",
  "DeadlineExceeded",
  "InvalidImageName",
  "ContainerCannotRun",
  "False",
  // Waiting or terminated reasons that mean a container is stuck or failed, not on its way.
  "ErrImageNeverPull",
  "ImageInspectError",
  "RegistryUnavailable",
  "CreateContainerConfigError",
  "CreateContainerError",
  "RunContainerError",
  "PreStartHookError",
  "PostStartHookError",
  "ContainerStatusUnknown",
  "StartError",
  "UnexpectedAdmissionError",
  "NodeAffinity",
  "OutOfcpu",
  "OutOfmemory",
]);

/** The tone of a status word as kubectl prints it (pod, claim, volume, namespace status; event type; a container's waiting or terminated reason). Lists and object pages share it. */
export function statusTone(text: string): Tone {
  const word = text.trim();
  if (!word) return "neutral";
  if (ok.has(word)) return "ok";
  if (neutral.has(word)) return "neutral";
  if (error.has(word)) return "error";
  if (warning.has(word)) return "warning";
  // Init containers: `Init:0/2` is progress; `Init:CrashLoopBackOff`, `Init:Error`, `Init:ExitCode:1` are failures.
  if (word.startsWith("Init:")) return /^Init:\d+\/\d+$/.test(word) ? "warning" : "error";
  // Container failures kubectl prints as the waiting/terminated reason: CrashLoopBackOff, ImagePullBackOff,
  // ErrImagePull, CreateContainerConfigError, RunContainerError, ExitCode:1, Signal:9…
  if (/BackOff$|^Err|Error$|^ExitCode:|^Signal:/.test(word)) return "error";
  return "neutral";
}

/** Which columns carry a status word, per kind (column names exactly as the kind declares them). */
const statusColumns: Record<string, readonly string[]> = {
  Pod: ["Status"],
  PersistentVolumeClaim: ["Status"],
  PersistentVolume: ["Status"],
  Namespace: ["Status"],
  Event: ["Type"],
};

export function isStatusColumn(kindName: string, column: string): boolean {
  return statusColumns[kindName]?.includes(column) ?? false;
}

