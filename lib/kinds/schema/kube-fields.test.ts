// Cross-check: every field kube-apiserver 1.32 (and OpenShift's security/v1) has on these kinds is in the
// schemas, and nothing else is, except where spec section 2 says otherwise. The field table of the protobuf
// codec (lib/codec/protobuf/schema.ts, taken from the v1.32 generated.proto files) is the reference.
import { describe, expect, it } from "vitest";
import { KINDS, MESSAGES } from "../../codec/protobuf/schema";
import { kinds } from "../index";
import type { Schema } from "./schema";

/** Differences spec section 2 mandates (2.5: Event series.state; 2.14: PV hostPath without type, iscsi without initiatorName). */
const EXPECTED = [
  "Event.series (EventSeries) missing=[] extra=[state]",
  "PersistentVolume.spec.hostPath (HostPathVolumeSource) missing=[type] extra=[]",
  "PersistentVolume.spec.iscsi (ISCSIPersistentVolumeSource) missing=[initiatorName] extra=[]",
];

function fieldsOf(message: string): Map<string, { type: string; message: boolean }> {
  const out = new Map<string, { type: string; message: boolean }>();
  for (const f of MESSAGES.get(message)!.ordered) {
    if (f.inline) for (const [k, v] of fieldsOf(f.type)) out.set(k, v);
    else out.set(f.json, f);
  }
  return out;
}

function differences(): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const walk = (s: Schema | undefined, message: string, path: string): void => {
    if (!s) return;
    if (s.type === "array") return walk(s.items, message, `${path}[]`);
    if (s.type === "map") return walk(s.values, message, `${path}{}`);
    if (s.type !== "object") return;
    const key = `${message}@${s.name ?? path}`;
    if (seen.has(key)) return;
    seen.add(key);
    const expected = fieldsOf(message);
    const typeMeta = (k: string) => k === "apiVersion" || k === "kind";
    const have = Object.keys(s.properties).filter((k) => !typeMeta(k));
    const missing = [...expected.keys()].filter((k) => !(k in s.properties) && !typeMeta(k));
    const extra = have.filter((k) => !expected.has(k));
    if (missing.length || extra.length) found.push(`${path} (${message}) missing=[${missing}] extra=[${extra}]`);
    for (const [k, f] of expected) if (f.message && MESSAGES.has(f.type)) walk(s.properties[k], f.type, `${path}.${k}`);
  };
  // Kinds the codec has no table for yet (the RBAC kinds: their fields are checked in rbac.validation.test.ts).
  for (const kind of kinds) if (KINDS[kind.kind]) walk(kind.schema, KINDS[kind.kind].message, kind.kind);
  return found;
}

describe("schemas against kube-apiserver 1.32's fields", () => {
  it("match field for field, apart from what the spec says", () => {
    expect(differences()).toEqual(EXPECTED);
  });
});
