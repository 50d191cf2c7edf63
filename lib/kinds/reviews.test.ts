// The create-only API types: each review's schema has exactly kube-apiserver 1.32's fields (the protobuf field
// table of lib/codec, taken from the v1.32 generated.proto files, is the reference), is named and grouped as kube
// publishes it, and the action subresources point at theirs.
import { describe, expect, it } from "vitest";
import { MESSAGES } from "../codec/protobuf/schema";
import { ACTION_SUBRESOURCES, reviewGroups, reviewResources } from "./reviews";
import type { Schema } from "./schema/schema";

function fieldsOf(message: string): Map<string, { type: string; message: boolean }> {
  const out = new Map<string, { type: string; message: boolean }>();
  for (const f of MESSAGES.get(message)!.ordered) {
    if (f.inline) for (const [k, v] of fieldsOf(f.type)) out.set(k, v);
    else out.set(f.json, f);
  }
  return out;
}

/** Fields missing from or extra in `schema` compared with kube's message, walked through nested messages. */
function differences(schema: Schema, message: string): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const walk = (s: Schema | undefined, msg: string, path: string): void => {
    if (!s) return;
    if (s.type === "array") return walk(s.items, msg, `${path}[]`);
    if (s.type === "map") return walk(s.values, msg, `${path}{}`);
    if (s.type !== "object" || seen.has(`${msg}@${path}`)) return;
    seen.add(`${msg}@${path}`);
    const expected = fieldsOf(msg);
    const typeMeta = (k: string) => k === "apiVersion" || k === "kind";
    const missing = [...expected.keys()].filter((k) => !(k in s.properties) && !typeMeta(k));
    const extra = Object.keys(s.properties).filter((k) => !expected.has(k) && !typeMeta(k));
    if (missing.length || extra.length) found.push(`${path} (${msg}) missing=[${missing}] extra=[${extra}]`);
    for (const [k, f] of expected) if (f.message && MESSAGES.has(f.type) && k !== "metadata") walk(s.properties[k], f.type, `${path}.${k}`);
  };
  walk(schema, message, message);
  return found;
}

describe("review and TokenRequest schemas", () => {
  it("have kube-apiserver 1.32's fields, field for field", () => {
    for (const r of reviewResources) expect(differences(r.schema, r.kind), r.kind).toEqual([]);
    for (const a of Object.values(ACTION_SUBRESOURCES)) expect(differences(a.schema, a.kind), a.kind).toEqual([]);
  });

  it("are named and grouped as kube publishes them", () => {
    for (const r of reviewResources) {
      const pkg = r.group.split(".")[0];
      expect(r.schema.name).toBe(`io.k8s.api.${pkg}.v1.${r.kind}`);
      expect(r.schema.gvk).toEqual({ group: r.group, version: "v1", kind: r.kind });
    }
    expect(ACTION_SUBRESOURCES.token.schema.name).toBe("io.k8s.api.authentication.v1.TokenRequest");
    expect(reviewGroups()).toEqual(["authentication.k8s.io", "authorization.k8s.io"]);
  });
});
