import { describe, expect, it } from "vitest";
import { HIDDEN_VALUE, LAST_APPLIED, maskIfSecret, maskSecret } from "./secret-mask";

const manifest = { apiVersion: "v1", kind: "Secret", metadata: { name: "s", namespace: "a" }, stringData: { token: "plain-s3cret" } };
const secret = {
  apiVersion: "v1",
  kind: "Secret",
  metadata: { name: "s", namespace: "a", annotations: { [LAST_APPLIED]: JSON.stringify(manifest), note: "kept" } },
  data: { token: "cGxhaW4tczNjcmV0" },
  type: "Opaque",
};

describe("maskSecret", () => {
  it("hides data, stringData and the values in kubectl's last-applied manifest, keeping keys and everything else", () => {
    const masked = maskSecret({ ...secret, stringData: { extra: "x" } });
    const text = JSON.stringify(masked);
    expect(text).not.toContain("plain-s3cret");
    expect(text).not.toContain("cGxhaW4tczNjcmV0");
    expect(masked.data).toEqual({ token: HIDDEN_VALUE });
    expect(masked.stringData).toEqual({ extra: HIDDEN_VALUE });
    expect(JSON.parse(masked.metadata.annotations![LAST_APPLIED])).toEqual({ ...manifest, stringData: { token: HIDDEN_VALUE } });
    expect(masked.metadata.annotations!.note).toBe("kept");
    expect(masked.type).toBe("Opaque");
    expect(secret.data.token).toBe("cGxhaW4tczNjcmV0");
  });

  it("hides a last-applied annotation it cannot read whole", () => {
    const odd = { ...secret, metadata: { ...secret.metadata, annotations: { [LAST_APPLIED]: '{"stringData": {"token": "plain-s3cret"' } } };
    expect(maskSecret(odd).metadata.annotations![LAST_APPLIED]).toBe(HIDDEN_VALUE);
  });

  it("masks only Secrets", () => {
    const configMap = { ...secret, kind: "ConfigMap" };
    expect(maskIfSecret({ kind: "ConfigMap" }, configMap)).toBe(configMap);
    expect(maskIfSecret({ kind: "Secret" }, secret).data).toEqual({ token: HIDDEN_VALUE });
  });
});

describe("maskSecret for history", () => {
  it("shows which values changed between revisions, and their sizes, never the values", () => {
    const before = maskSecret({ ...secret, data: { token: "cGxhaW4tczNjcmV0", same: "YWJj" } }, "fingerprint");
    const after = maskSecret({ ...secret, data: { token: "b3RoZXItczNjcmV0", same: "YWJj" } }, "fingerprint");
    expect(before.data.same).toBe(after.data.same);
    expect(before.data.token).not.toBe(after.data.token);
    expect(before.data.token).toMatch(/^\(hidden: 12 bytes, #[0-9a-f]{8}\)$/);
    expect(after.data.same).toMatch(/^\(hidden: 3 bytes, #/);
    const text = JSON.stringify([before, after]);
    for (const value of ["cGxhaW4tczNjcmV0", "b3RoZXItczNjcmV0", "plain-s3cret", "YWJj"]) expect(text).not.toContain(value);
    const applied = JSON.parse(before.metadata.annotations![LAST_APPLIED]);
    expect(applied.stringData.token).toMatch(/^\(hidden: 12 bytes, #/);
  });
});
