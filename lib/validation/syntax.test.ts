// The small syntax validators shared by several kinds: IPs and CIDRs, ports and port names, env var names,
// config keys, Go json object decoding, and the generation rule.
import { describe, expect, it } from "vitest";
import { configKeyErrors } from "./config-key";
import { envVarNameErrors } from "./env-var-name";
import { nextGeneration, specChanged } from "./generation";
import { isIPv6String, isValidIP, validateCIDR, validateIP, validateNonSpecialIP } from "./ip";
import { jsonObjectError } from "./json-object";
import { portNameErrors, portNumberErrors, validatePortNumOrName } from "./port";

describe("IP addresses and CIDRs", () => {
  it.each(["1.2.3.4", "::1", "fe80::1", "::ffff:1.2.3.4", "2001:db8::"])("%s is an IP", (ip) => expect(isValidIP(ip)).toBe(true));
  it.each(["", "1.2.3", "1.2.3.256", "1.2.3.4 ", "::1::", "abc", "1.2.3.4/32"])("%j is not an IP", (ip) => expect(isValidIP(ip)).toBe(false));

  it("accepts IPv4 octets with leading zeros, as 1.32's sloppy parser", () => expect(isValidIP("010.001.2.3")).toBe(true));

  it("tells IPv6 from IPv4-mapped addresses", () => {
    expect(isIPv6String("2001:db8::1")).toBe(true);
    expect(isIPv6String("::ffff:1.2.3.4")).toBe(false);
  });

  it("words the errors as kube-apiserver", () => {
    expect(validateIP("x", "p")).toEqual([{ type: "FieldValueInvalid", field: "p", detail: "Invalid value: \"x\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)" }]);
    expect(validateCIDR("10.0.0.0/8", "p")).toEqual([]);
    expect(validateCIDR("10.0.0.0/33", "p").map((e) => e.detail)).toEqual([
      "Invalid value: \"10.0.0.0/33\": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)",
    ]);
  });

  it("rejects special endpoint addresses", () => {
    expect(validateNonSpecialIP("10.1.2.3", "p")).toEqual([]);
    expect(validateNonSpecialIP("127.0.0.1", "p").map((e) => e.detail)).toEqual([
      "Invalid value: \"127.0.0.1\": may not be in the loopback range (127.0.0.0/8, ::1/128)",
    ]);
    expect(validateNonSpecialIP("169.254.1.1", "p").map((e) => e.detail)).toEqual([
      "Invalid value: \"169.254.1.1\": may not be in the link-local range (169.254.0.0/16, fe80::/10)",
    ]);
    expect(validateNonSpecialIP("0.0.0.0", "p").map((e) => e.detail)).toEqual(["Invalid value: \"0.0.0.0\": may not be unspecified (0.0.0.0)"]);
  });
});

describe("ports", () => {
  it("numbers are 1..65535", () => {
    expect(portNumberErrors(1)).toEqual([]);
    expect(portNumberErrors(65535)).toEqual([]);
    expect(portNumberErrors(0)).toEqual(["must be between 1 and 65535, inclusive"]);
    expect(portNumberErrors(65536)).toEqual(["must be between 1 and 65535, inclusive"]);
  });

  it.each([
    ["http", []],
    ["h2c-1", []],
    ["8080", ["must contain at least one letter (a-z)"]],
    ["a--b", ["must not contain consecutive hyphens"]],
    ["-a", ["must not begin or end with a hyphen"]],
    ["HTTP", ["must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)", "must contain at least one letter (a-z)"]],
    ["abcdefghijklmnop", ["must be no more than 15 characters"]],
  ])("port name %j", (name, expected) => expect(portNameErrors(name)).toEqual(expected));

  it("int-or-string ports: strings must be names, numbers ports", () => {
    expect(validatePortNumOrName("http", "p")).toEqual([]);
    expect(validatePortNumOrName(80, "p")).toEqual([]);
    expect(validatePortNumOrName("80", "p").map((e) => e.detail)).toEqual(["Invalid value: \"80\": must contain at least one letter (a-z)"]);
    expect(validatePortNumOrName(0, "p").map((e) => e.detail)).toEqual(["Invalid value: 0: must be between 1 and 65535, inclusive"]);
  });
});

describe("environment variable names (relaxed, 1.32)", () => {
  it.each(["A", "a.b-c", "1ST", "with space"])("%j is allowed", (n) => expect(envVarNameErrors(n)).toEqual([]));
  it("rejects '=', control characters and empty names", () => {
    const msg = "a valid environment variable name must consist only of printable ASCII characters other than '='";
    expect(envVarNameErrors("A=B")).toEqual([msg]);
    expect(envVarNameErrors("A\tB")).toEqual([msg]);
    expect(envVarNameErrors("é")).toEqual([msg]);
    expect(envVarNameErrors("")).toEqual(["environment variable name must be non-empty"]);
  });
});

describe("config keys", () => {
  it.each(["a", "key.name", "KEY_NAME", "key-name", ".hidden"])("%j is a key", (k) => expect(configKeyErrors(k)).toEqual([]));
  it("rejects other characters, chdir prefixes and long keys", () => {
    expect(configKeyErrors("a/b")).toEqual([
      "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
    ]);
    expect(configKeyErrors("..")).toEqual(["must not be '..'"]);
    expect(configKeyErrors("..a")).toEqual(["must not start with '..'"]);
    expect(configKeyErrors("a".repeat(254))).toEqual(["must be no more than 253 characters"]);
  });
});

describe("Go json object decoding", () => {
  it("accepts objects and null", () => {
    expect(jsonObjectError('{"a": [1, {"b": null}]}')).toBeUndefined();
    expect(jsonObjectError("null")).toBeUndefined();
  });
  it("reports other values and syntax errors", () => {
    expect(jsonObjectError("[]")).toBe("json: cannot unmarshal array into Go value of type map[string]interface {}");
    expect(jsonObjectError('"s"')).toBe("json: cannot unmarshal string into Go value of type map[string]interface {}");
    expect(jsonObjectError("{")).toBe("unexpected end of JSON input");
    expect(jsonObjectError("{} x")).toBe("invalid character 'x' after top-level value");
  });
});

describe("generation", () => {
  const old = { apiVersion: "v1", kind: "Pod", metadata: { name: "a", labels: {} }, spec: { a: 1 }, status: { phase: "Pending" } };
  it("ignores metadata, status and type meta", () => {
    const same = { ...old, apiVersion: "v1", metadata: { name: "a", labels: { x: "y" } }, status: { phase: "Running" } };
    expect(specChanged(same, old)).toBe(false);
    expect(nextGeneration(same, old, 3)).toBe(3);
  });
  it("counts changes anywhere else, including top-level data fields", () => {
    expect(specChanged({ ...old, spec: { a: 2 } }, old)).toBe(true);
    expect(specChanged({ ...old, data: { k: "v" } }, old)).toBe(true);
    expect(nextGeneration({ ...old, spec: { a: 2 } }, old, 3)).toBe(4);
    expect(nextGeneration({ ...old, spec: { a: 2 } }, old, undefined)).toBe(2);
  });
  it("treats absent and undefined fields alike", () => {
    expect(specChanged({ ...old, spec: { a: 1, b: undefined } }, old)).toBe(false);
  });
});
