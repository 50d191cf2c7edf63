import { describe, expect, it } from "vitest";
import { admittingScc, effectiveSecurity } from "./security-context";

const pod = {
  metadata: { name: "p", annotations: { "openshift.io/scc": "restricted-v2" } },
  spec: {
    securityContext: { runAsUser: 1000680000, runAsNonRoot: true, fsGroup: 1000680000, seLinuxOptions: { level: "s0:c26,c5" }, supplementalGroups: [] },
    initContainers: [{ name: "init", securityContext: { runAsUser: 0 } }],
    containers: [
      { name: "app", securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] }, seccompProfile: { type: "RuntimeDefault" } } },
      { name: "sidecar" },
    ],
  },
};

const settings = (s: { field: string; value: string; source: string }[]) => Object.fromEntries(s.map((x) => [x.field, `${x.value} (${x.source})`]));

describe("effective security context", () => {
  it("gives each container the pod's values unless it sets its own", () => {
    const { containers } = effectiveSecurity(pod);
    expect(containers.map((c) => [c.name, c.role])).toEqual([
      ["init", "init"],
      ["app", "container"],
      ["sidecar", "container"],
    ]);
    expect(settings(containers[0].settings)).toEqual({ runAsUser: "0 (container)", runAsNonRoot: "true (pod)", seLinuxOptions: "level=s0:c26,c5 (pod)" });
    expect(settings(containers[1].settings)).toEqual({
      runAsUser: "1000680000 (pod)",
      runAsNonRoot: "true (pod)",
      seLinuxOptions: "level=s0:c26,c5 (pod)",
      seccompProfile: "type=RuntimeDefault (container)",
      allowPrivilegeEscalation: "false (container)",
      capabilities: "drop: ALL (container)",
    });
    expect(settings(containers[2].settings).runAsUser).toBe("1000680000 (pod)");
  });

  it("keeps pod-only fields (fsGroup) on the pod and skips empty lists", () => {
    expect(settings(effectiveSecurity(pod).pod)).toEqual({ fsGroup: "1000680000 (pod)" });
  });

  it("reads the SCC annotation", () => {
    expect(admittingScc(pod)).toBe("restricted-v2");
    expect(admittingScc({ metadata: { name: "x" } })).toBeUndefined();
  });
});
