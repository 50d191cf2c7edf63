import { describe, expect, it } from "vitest";
import { isStatusColumn, statusTone } from "./status-tone";

describe("statusTone", () => {
  it("CrashLoopBackOff is not Running", () => {
    expect(statusTone("Running")).toBe("ok");
    expect(statusTone("CrashLoopBackOff")).toBe("error");
    expect(statusTone("Init:CrashLoopBackOff")).toBe("error");
    expect(statusTone("ImagePullBackOff")).toBe("error");
    expect(statusTone("ErrImagePull")).toBe("error");
    expect(statusTone("CreateContainerConfigError")).toBe("error");
    expect(statusTone("ExitCode:137")).toBe("error");
    expect(statusTone("OOMKilled")).toBe("error");
  });

  it("progress and waiting are warnings, finished work is ok", () => {
    for (const t of ["Pending", "ContainerCreating", "Init:0/2", "SchedulingGated", "NotReady"]) expect(statusTone(t)).toBe("warning");
    for (const t of ["Bound", "Available", "Active", "Normal"]) expect(statusTone(t)).toBe("ok");
    for (const t of ["Completed", "Succeeded", "Terminating"]) expect(statusTone(t)).toBe("neutral");
  });

  it("claims, volumes and events", () => {
    expect(statusTone("Lost")).toBe("error");
    expect(statusTone("Released")).toBe("warning");
    expect(statusTone("Warning")).toBe("warning");
    expect(statusTone("")).toBe("neutral");
    expect(statusTone("Whatever")).toBe("neutral");
    expect(isStatusColumn("Pod", "Status")).toBe(true);
    expect(isStatusColumn("Event", "Type")).toBe(true);
    expect(isStatusColumn("Pod", "Ready")).toBe(false);
  });
});
