import { describe, expect, it } from "vitest";
import { securityContextConstraints, type SecurityContextConstraints } from "./security-context-constraints";
import { create, created, templateOf, variant, type Row } from "./validation-harness";

const kind = securityContextConstraints;
const base = templateOf<SecurityContextConstraints>(kind);

const rows: Row<SecurityContextConstraints>[] = [
  ["a negative priority", (scc) => { scc.priority = -1; },
    { field: "priority", reason: "FieldValueInvalid", message: "Invalid value: -1: priority cannot be negative" }],
  ["a priority of 10", (scc) => { scc.priority = 10; }, null],
  ["an unknown runAsUser strategy", (scc) => { scc.runAsUser = { type: "MustRunAsRoot" }; },
    { field: "runAsUser.type", reason: "FieldValueInvalid", message: 'Invalid value: "MustRunAsRoot": invalid strategy type.  Valid values are MustRunAs, MustRunAsNonRoot, MustRunAsRange, RunAsAny' }],
  ["no runAsUser strategy", (scc) => { delete scc.runAsUser; },
    { field: "runAsUser.type", reason: "FieldValueInvalid", message: 'Invalid value: "": invalid strategy type.  Valid values are MustRunAs, MustRunAsNonRoot, MustRunAsRange, RunAsAny' }],
  ["a negative uid", (scc) => { scc.runAsUser = { type: "MustRunAs", uid: -5 }; },
    { field: "runAsUser.uid", reason: "FieldValueInvalid", message: "Invalid value: -5: uid cannot be negative" }],
  ["an unknown SELinux strategy", (scc) => { scc.seLinuxContext = { type: "MustRunAsRange" }; },
    { field: "seLinuxContext.type", reason: "FieldValueInvalid", message: 'Invalid value: "MustRunAsRange": invalid strategy type.  Valid values are MustRunAs, RunAsAny' }],
  ["an unknown fsGroup strategy", (scc) => { scc.fsGroup = { type: "MustRunAsNonRoot" }; },
    { field: "fsGroup.type", reason: "FieldValueNotSupported", message: 'Unsupported value: "MustRunAsNonRoot": supported values: "MustRunAs", "RunAsAny"' }],
  ["an inverted supplemental group range", (scc) => { scc.supplementalGroups = { type: "MustRunAs", ranges: [{ min: 10, max: 5 }] }; },
    { field: "supplementalGroups.ranges[0].min", reason: "FieldValueInvalid", message: "Invalid value: security.IDRange{Min:10, Max:5}: min cannot be greater than max" }],
  ["a negative range bound", (scc) => { scc.fsGroup = { type: "MustRunAs", ranges: [{ min: -1, max: 5 }] }; },
    { field: "fsGroup.ranges[0].min", reason: "FieldValueInvalid", message: "Invalid value: -1: min cannot be negative" }],
  ["a capability both added and dropped", (scc) => { scc.defaultAddCapabilities = ["KILL"]; },
    { field: "defaultAddCapabilities", reason: "FieldValueInvalid", message: 'Invalid value: "KILL": capability is listed in defaultAddCapabilities and requiredDropCapabilities' }],
  ["all capabilities allowed while some must be dropped", (scc) => { scc.allowedCapabilities = ["*"]; },
    { field: "requiredDropCapabilities", reason: "FieldValueInvalid", message: 'Invalid value: []core.Capability{"KILL", "MKNOD", "SETUID", "SETGID"}: required capabilities must be empty when all capabilities are allowed by a wildcard' }],
  ["'none' with other volumes", (scc) => { scc.volumes = ["none", "secret"]; },
    { field: "volumes", reason: "FieldValueInvalid", message: 'Invalid value: []security.FSType{"none", "secret"}: if \'none\' is specified, no other values are allowed' }],
  ["flex volumes without flexVolume", (scc) => { scc.allowedFlexVolumes = [{ driver: "example/lvm" }]; },
    { field: "allowedFlexVolumes", reason: "FieldValueInvalid", message: 'Invalid value: []security.AllowedFlexVolume{security.AllowedFlexVolume{Driver:"example/lvm"}}: volumes does not include \'flexVolume\' or \'*\', so no flex volumes are allowed' }],
  ["a flex volume without a driver", (scc) => { scc.volumes = ["flexVolume"]; scc.allowedFlexVolumes = [{ driver: "" }]; },
    { field: "allowedFlexVolumes[0].driver", reason: "FieldValueRequired", message: "Required value: must specify a driver" }],
];

describe("SecurityContextConstraints validation", () => {
  it("accepts its template", () => expect(create(kind, base).causes).toEqual([]));

  it.each(rows)("%s", (_name, mutate, expected) => {
    expect(create(kind, variant(base, mutate)).causes).toEqual(expected === null ? [] : [expected].flat());
  });

  it("defaults group strategies, subjects and privilege escalation", () => {
    const scc = created<SecurityContextConstraints>(kind, variant(base, (c) => {
      delete c.fsGroup;
      delete c.supplementalGroups;
      c.users = null;
      delete c.groups;
    }));
    expect(scc).toMatchObject({ fsGroup: { type: "RunAsAny" }, supplementalGroups: { type: "RunAsAny" }, users: [], groups: [], allowPrivilegeEscalation: true });
  });

  it("reconciles volumes with allowHostDirVolumePlugin", () => {
    const all = created<SecurityContextConstraints>(kind, variant(base, (c) => { c.volumes = null; }));
    expect(all.volumes).toContain("secret");
    expect(all.volumes).not.toContain("hostPath");
    expect(all.volumes).not.toContain("*");
    expect(created<SecurityContextConstraints>(kind, variant(base, (c) => { c.volumes = []; })).volumes).toEqual(["none"]);
    const host = created<SecurityContextConstraints>(kind, variant(base, (c) => { c.allowHostDirVolumePlugin = true; c.volumes = ["secret"]; }));
    expect(host.volumes).toEqual(["hostPath", "secret"]);
    expect(created<SecurityContextConstraints>(kind, variant(base, (c) => { c.volumes = ["hostPath", "secret"]; })).volumes).toEqual(["secret"]);
  });
});
