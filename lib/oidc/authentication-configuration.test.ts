import { describe, expect, it } from "vitest";
import { decodeAuthenticationConfiguration } from "./authentication-configuration";

const base = `apiVersion: apiserver.config.k8s.io/v1beta1
kind: AuthenticationConfiguration
jwt:
- issuer:
    url: https://issuer.example
    audiences: [cluster-core]
  claimMappings:
    username: {claim: sub, prefix: ""}
`;

describe("decodeAuthenticationConfiguration", () => {
  it("reads v1beta1 and v1alpha1 files, YAML or JSON", () => {
    expect(decodeAuthenticationConfiguration(base).jwt[0]).toEqual({
      issuer: { url: "https://issuer.example", audiences: ["cluster-core"] },
      claimMappings: { username: { claim: "sub", prefix: "" } },
    });
    expect(decodeAuthenticationConfiguration(base.replace("v1beta1", "v1alpha1")).jwt).toHaveLength(1);
    const json = JSON.stringify({ apiVersion: "apiserver.config.k8s.io/v1beta1", kind: "AuthenticationConfiguration", jwt: [] });
    expect(decodeAuthenticationConfiguration(json).jwt).toEqual([]);
  });

  it("refuses unknown fields strictly, naming each", () => {
    const text = base.replace("    url: https://issuer.example", "    url: https://issuer.example\n    clientID: x") + "extra: 1\n";
    expect(() => decodeAuthenticationConfiguration(text)).toThrow('strict decoding error: unknown field "jwt[0].issuer.clientID", unknown field "extra"');
  });

  it("refuses duplicate fields, wrong types, empty files and other kinds", () => {
    expect(() => decodeAuthenticationConfiguration(base + "kind: AuthenticationConfiguration\n")).toThrow('strict decoding error: yaml: unmarshal errors:\n  line 9: key "kind" already set in map');
    expect(() => decodeAuthenticationConfiguration(base.replace("[cluster-core]", "cluster-core"))).toThrow("jwt[0].issuer.audiences: expected array, got string");
    expect(() => decodeAuthenticationConfiguration("  \n")).toThrow("empty config data");
    expect(() => decodeAuthenticationConfiguration(base.replace("v1beta1", "v2"))).toThrow(/no kind "AuthenticationConfiguration" is registered for version "apiserver.config.k8s.io\/v2"/);
    expect(() => decodeAuthenticationConfiguration("apiVersion: apiserver.config.k8s.io/v1beta1\n")).toThrow("Object 'Kind' is missing");
  });
});
