import { describe, expect, it } from "vitest";
import type { UserInfo } from "../auth/user-info";
import type { Attributes } from "../authz/attributes";
import { DEFAULT_SCCS } from "../bootstrap/security-context-constraints";
import { pod as podKind } from "../kinds/pod";
import { securityContextConstraints } from "../kinds/security-context-constraints";
import type { KubeObject } from "../kinds/types";
import type { AdmissionRequest } from "./admission-chain";
import { SecurityContextConstraintsAdmission } from "./security-context-constraints";

const NS: KubeObject = {
  metadata: {
    name: "team",
    annotations: {
      "openshift.io/sa.scc.uid-range": "1000680000/10000",
      "openshift.io/sa.scc.mcs": "s0:c26,c15",
      "openshift.io/sa.scc.supplemental-groups": "1000680000/10000",
    },
  },
};
const sccs = DEFAULT_SCCS.map((s) => {
  const copy = structuredClone(s);
  securityContextConstraints.applyDefaults!(copy as never);
  return copy;
});

const alice: UserInfo = { username: "alice", groups: ["system:authenticated"] };
const admin: UserInfo = { username: "admin", groups: ["system:masters", "system:authenticated"] };

/** RBAC as the defaults grant it: restricted-v2 to every authenticated user, plus `grants` (user → SCC names). */
function plugin(grants: Record<string, string[]> = {}, namespace: KubeObject | undefined = NS) {
  const authorizer = {
    authorize: (a: Attributes) => {
      if (a.type !== "resource" || a.verb !== "use") return { allowed: false, reason: "" };
      const allowed = (a.name === "restricted-v2" && a.user.groups.includes("system:authenticated"))
        || a.user.groups.includes("system:masters") || (grants[a.user.username] ?? []).includes(a.name);
      return { allowed, reason: "" };
    },
  };
  return new SecurityContextConstraintsAdmission({ listSCCs: () => sccs, namespace: () => namespace }, authorizer, 50);
}

const newPod = (spec: Record<string, unknown> = {}, containerSC?: Record<string, unknown>): KubeObject => ({
  apiVersion: "v1", kind: "Pod",
  metadata: { name: "web", namespace: "team" },
  spec: { containers: [{ name: "app", image: "nginx", ...(containerSC ? { securityContext: containerSC } : {}) }], serviceAccountName: "default", securityContext: {}, ...spec },
});

const request = (object: KubeObject, user: UserInfo, operation: "CREATE" | "UPDATE" = "CREATE", oldObject?: KubeObject): AdmissionRequest => ({
  operation, kind: podKind, namespace: "team", name: object.metadata.name ?? "", subresource: "", object, oldObject, user, dryRun: false,
});

async function refusal(p: Promise<void>): Promise<string> {
  try { await p; } catch (err) { return (err as Error).message; }
  throw new Error("expected a refusal");
}

describe("SCC admission", () => {
  it("defaults a plain pod by restricted-v2 from the namespace's ranges and names the SCC", async () => {
    const pod = newPod();
    await plugin().admit(request(pod, alice));
    expect(pod.metadata.annotations).toEqual({ "openshift.io/scc": "restricted-v2", "seccomp.security.alpha.kubernetes.io/pod": "runtime/default" });
    const spec = pod.spec as { securityContext: unknown; containers: { securityContext: unknown }[] };
    expect(spec.securityContext).toEqual({ fsGroup: 1000680000, seLinuxOptions: { level: "s0:c26,c15" }, seccompProfile: { type: "RuntimeDefault" } });
    expect(spec.containers[0].securityContext).toEqual({
      runAsUser: 1000680000, runAsNonRoot: true, capabilities: { drop: ["ALL"] }, allowPrivilegeEscalation: false,
    });
    // The defaulted pod passes the validating phase unchanged.
    await plugin().validate(request(pod, alice));
  });

  it("refuses a host-network pod with every SCC's reason, in OpenShift's order and wording", async () => {
    const message = await refusal(plugin().admit(request(newPod({ hostNetwork: true }), alice)));
    expect(message).toBe(
      'pods "web" is forbidden: unable to validate against any security context constraint: [' + [
        'provider "anyuid": Forbidden: not usable by user or serviceaccount',
        "provider restricted-v2: .spec.securityContext.hostNetwork: Invalid value: true: Host network is not allowed to be used",
        "provider restricted-v2: .containers[0].hostNetwork: Invalid value: true: Host network is not allowed to be used",
        ...["restricted", "nonroot-v2", "nonroot", "hostmount-anyuid", "hostnetwork-v2", "hostnetwork", "hostaccess", "privileged"]
          .map((n) => `provider "${n}": Forbidden: not usable by user or serviceaccount`),
      ].join(", ") + "]",
    );
  });

  it("lets a member of system:masters use privileged for what only privileged allows", async () => {
    const pod = newPod({ hostNetwork: true }, { privileged: true });
    await plugin().admit(request(pod, admin));
    expect(pod.metadata.annotations?.["openshift.io/scc"]).toBe("privileged");
  });

  it("prefers a granted anyuid (priority 10) and accepts runAsUser 0 there", async () => {
    const pod = newPod({}, { runAsUser: 0 });
    await plugin({ alice: ["anyuid"] }).admit(request(pod, alice));
    expect(pod.metadata.annotations?.["openshift.io/scc"]).toBe("anyuid");
    const refused = await refusal(plugin().admit(request(newPod({}, { runAsUser: 0 }), alice)));
    expect(refused).toContain("provider restricted-v2: .containers[0].runAsUser: Invalid value: 0: must be in the ranges: [1000680000, 1000689999]");
  });

  it("counts what the pod's ServiceAccount may use, not only its creator", async () => {
    const pod = newPod({ serviceAccountName: "robot" }, { runAsUser: 0 });
    await plugin({ "system:serviceaccount:team:robot": ["anyuid"] }).admit(request(pod, alice));
    expect(pod.metadata.annotations?.["openshift.io/scc"]).toBe("anyuid");
  });

  it("reports restricted-v2 failures restricted would accept", async () => {
    const message = await refusal(plugin().admit(request(newPod({}, { allowPrivilegeEscalation: true }), alice)));
    expect(message).toContain("provider restricted-v2: .containers[0].allowPrivilegeEscalation: Invalid value: true: Allowing privilege escalation for containers is not allowed");
    expect(message).toContain("no access to scc/restricted: Forbidden: the pod fails to validate against the `restricted-v2` security context constraint, but would validate successfully against the `restricted` security context constraint");
  });

  it("does not default on update: the pod must already satisfy an SCC", async () => {
    const pod = newPod();
    await plugin().admit(request(pod, alice));
    const updated = structuredClone(pod);
    updated.metadata.labels = { tier: "web" };
    await plugin().admit(request(updated, alice, "UPDATE", pod));
    expect(updated.metadata.annotations?.["openshift.io/scc"]).toBe("restricted-v2");
    const stripped = structuredClone(pod);
    delete (stripped.spec as { containers: { securityContext?: unknown }[] }).containers[0].securityContext;
    expect(await refusal(plugin().admit(request(stripped, alice, "UPDATE", pod)))).toContain("unable to validate against any security context constraint");
  });

  it("refuses while the namespace has no UID range, naming the annotation", async () => {
    const message = await refusal(plugin({}, { metadata: { name: "team" } }).admit(request(newPod(), alice)));
    expect(message).toBe('pods "web" is forbidden: error fetching namespace "team": unable to find annotation openshift.io/sa.scc.uid-range');
  });

  describe("openshift.io/required-scc (OpenShift 4.14+)", () => {
    const pinned = (scc: string, spec: Record<string, unknown> = {}, containerSC?: Record<string, unknown>) => {
      const pod = newPod(spec, containerSC);
      pod.metadata.annotations = { "openshift.io/required-scc": scc };
      return pod;
    };

    it("admits only against the named SCC: an admin's pod pinned to restricted-v2 is defaulted by it, not anyuid", async () => {
      const free = newPod();
      await plugin().admit(request(free, admin));
      expect(free.metadata.annotations?.["openshift.io/scc"]).toBe("anyuid");
      const pod = pinned("restricted-v2");
      await plugin().admit(request(pod, admin));
      expect(pod.metadata.annotations).toMatchObject({ "openshift.io/scc": "restricted-v2", "openshift.io/required-scc": "restricted-v2" });
      expect((pod.spec as { containers: { securityContext: { runAsUser: number } }[] }).containers[0].securityContext.runAsUser).toBe(1000680000);
      await plugin().validate(request(pod, admin));
      // A pod the pinned SCC refuses is refused, though the admin could use anyuid.
      const root = await refusal(plugin().admit(request(pinned("restricted-v2", {}, { runAsUser: 0 }), admin)));
      expect(root).toBe('pods "web" is forbidden: unable to validate against any security context constraint: provider restricted-v2: .containers[0].runAsUser: Invalid value: 0: must be in the ranges: [1000680000, 1000689999]');
    });

    it("an SCC the user and ServiceAccount may not use is refused; a missing one fails the lookup", async () => {
      expect(await refusal(plugin().admit(request(pinned("anyuid"), alice)))).toBe(
        'pods "web" is forbidden: unable to validate against any security context constraint: provider "anyuid": Forbidden: not usable by user or serviceaccount');
      expect(await refusal(plugin().admit(request(pinned("no-such-scc"), admin)))).toBe(
        'pods "web" is forbidden: failed to retrieve the required SCC "no-such-scc": securitycontextconstraints.security.openshift.io "no-such-scc" not found');
    });

    it("may not change on update, and must match openshift.io/scc when validated", async () => {
      const pod = pinned("restricted-v2");
      await plugin().admit(request(pod, admin));
      const changed = structuredClone(pod);
      changed.metadata.annotations!["openshift.io/required-scc"] = "anyuid";
      expect(await refusal(plugin().admit(request(changed, admin, "UPDATE", pod)))).toBe(
        'pods "web" is forbidden: invalid change of required security context constraint annotation: openshift.io/required-scc');
      const removed = structuredClone(pod);
      delete removed.metadata.annotations!["openshift.io/required-scc"];
      expect(await refusal(plugin().admit(request(removed, admin, "UPDATE", pod)))).toContain("invalid change of required security context constraint annotation");
      const relabelled = structuredClone(pod);
      relabelled.metadata.labels = { tier: "web" };
      await plugin().admit(request(relabelled, admin, "UPDATE", pod));
      expect(relabelled.metadata.annotations?.["openshift.io/scc"]).toBe("restricted-v2");
      const mismatch = structuredClone(pod);
      mismatch.metadata.annotations!["openshift.io/scc"] = "anyuid";
      expect(await refusal(plugin().validate(request(mismatch, admin)))).toBe('pods "web" is forbidden: required scc/restricted-v2 does not match the suggested scc/anyuid');
    });
  });

  it("a client's own openshift.io/scc does not choose the SCC on create (OpenShift's mutating phase takes no hint)", async () => {
    const pod = newPod();
    pod.metadata.annotations = { "openshift.io/scc": "privileged" };
    await plugin().admit(request(pod, admin));
    expect(pod.metadata.annotations["openshift.io/scc"]).toBe("anyuid");
  });

  it("an update that only changes k8s.ovn.org/pod-networks is not re-admitted", async () => {
    const pod = newPod({ hostNetwork: true });
    await plugin().admit(request(pod, admin));
    const networked = structuredClone(pod);
    networked.metadata.annotations = { ...networked.metadata.annotations, "k8s.ovn.org/pod-networks": "{}" };
    await plugin().admit(request(networked, alice, "UPDATE", pod));
    await plugin().validate(request(networked, alice, "UPDATE", pod));
    const labelled = structuredClone(networked);
    labelled.metadata.labels = { a: "b" };
    expect(await refusal(plugin().admit(request(labelled, alice, "UPDATE", networked)))).toContain("unable to validate against any security context constraint");
  });

  it("leaves subresources and the server's own writes alone", async () => {
    const pod = newPod({ hostNetwork: true });
    await plugin().admit({ ...request(pod, alice), subresource: "status" });
    await plugin().admit({ ...request(pod, alice), user: undefined });
    expect(pod.metadata.annotations).toBeUndefined();
  });
});
