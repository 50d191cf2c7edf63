import { describe, expect, it } from "vitest";
import { secret, type Secret } from "./secret";
import { encodeUtf8Base64 } from "./shared/base64";
import { create, created, templateOf, update, variant, type Row } from "./validation-harness";

const base = templateOf<Secret>(secret);
const b64 = encodeUtf8Base64;
const typed = (type: string, data: Record<string, string> = {}) => (s: Secret) => {
  s.type = type;
  s.data = data;
};

const rows: Row<Secret>[] = [
  ["an Opaque secret with any keys", typed("Opaque", { "a.b": b64("1") }), null],
  ["a custom type with no data", typed("example.com/custom"), null],
  ["a data key with a slash", (s) => { s.data = { "a/b": b64("x") }; },
    { field: "data[a/b]", reason: "FieldValueInvalid", message: "Invalid value: \"a/b\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')" }],
  ["a stringData key is checked as a data key", (s) => { s.stringData = { "..x": "v" }; },
    { field: "data[..x]", reason: "FieldValueInvalid", message: 'Invalid value: "..x": must not start with \'..\'' }],
  ["service-account-token needs the account annotation", typed("kubernetes.io/service-account-token"),
    { field: "metadata.annotations[kubernetes.io/service-account.name]", reason: "FieldValueRequired", message: "Required value" }],
  ["service-account-token with the annotation", (s) => {
    typed("kubernetes.io/service-account-token")(s);
    s.metadata.annotations = { "kubernetes.io/service-account.name": "default" };
  }, null],
  ["dockercfg needs .dockercfg", typed("kubernetes.io/dockercfg"), { field: "data[.dockercfg]", reason: "FieldValueRequired", message: "Required value" }],
  ["dockercfg must hold a JSON object", typed("kubernetes.io/dockercfg", { ".dockercfg": b64("[1]") }),
    { field: "data[.dockercfg]", reason: "FieldValueInvalid", message: 'Invalid value: "<secret contents redacted>": json: cannot unmarshal array into Go value of type map[string]interface {}' }],
  ["dockercfg with bad JSON", typed("kubernetes.io/dockercfg", { ".dockercfg": b64("{x") }),
    { field: "data[.dockercfg]", reason: "FieldValueInvalid", message: 'Invalid value: "<secret contents redacted>": invalid character \'x\' looking for beginning of object key string' }],
  ["dockercfg with a JSON object", typed("kubernetes.io/dockercfg", { ".dockercfg": b64('{"r": {}}') }), null],
  ["dockerconfigjson needs .dockerconfigjson", typed("kubernetes.io/dockerconfigjson"),
    { field: "data[.dockerconfigjson]", reason: "FieldValueRequired", message: "Required value" }],
  ["dockerconfigjson truncated", typed("kubernetes.io/dockerconfigjson", { ".dockerconfigjson": b64('{"auths":') }),
    { field: "data[.dockerconfigjson]", reason: "FieldValueInvalid", message: 'Invalid value: "<secret contents redacted>": unexpected end of JSON input' }],
  ["basic-auth needs username or password", typed("kubernetes.io/basic-auth"), [
    { field: "data[username]", reason: "FieldValueRequired", message: "Required value" },
    { field: "data[password]", reason: "FieldValueRequired", message: "Required value" },
  ]],
  ["basic-auth with an empty password only", typed("kubernetes.io/basic-auth", { password: "" }), null],
  ["ssh-auth needs a non-empty private key", typed("kubernetes.io/ssh-auth", { "ssh-privatekey": "" }),
    { field: "data[ssh-privatekey]", reason: "FieldValueRequired", message: "Required value" }],
  ["ssh-auth with a key", typed("kubernetes.io/ssh-auth", { "ssh-privatekey": b64("k") }), null],
  ["tls needs the key", typed("kubernetes.io/tls", { "tls.crt": b64("c") }), { field: "data[tls.key]", reason: "FieldValueRequired", message: "Required value" }],
  ["tls needs both", typed("kubernetes.io/tls"), [
    { field: "data[tls.crt]", reason: "FieldValueRequired", message: "Required value" },
    { field: "data[tls.key]", reason: "FieldValueRequired", message: "Required value" },
  ]],
  ["tls with certificate and key", typed("kubernetes.io/tls", { "tls.crt": b64("c"), "tls.key": b64("k") }), null],
];

describe("Secret validation", () => {
  it("accepts its template", () => expect(create(secret, base).causes).toEqual([]));

  it.each(rows)("%s", (_name, mutate, expected) => {
    expect(create(secret, variant(base, mutate)).causes).toEqual(expected === null ? [] : [expected].flat());
  });

  it("defaults the type to Opaque", () => {
    expect(created<Secret>(secret, variant(base, (s) => { delete s.type; })).type).toBe("Opaque");
  });

  it("keeps the type on update", () => {
    const old = created<Secret>(secret, base);
    expect(update(secret, old, variant(old, (s) => { s.type = "kubernetes.io/basic-auth"; })).causes).toEqual([
      { field: "type", reason: "FieldValueInvalid", message: 'Invalid value: "kubernetes.io/basic-auth": field is immutable' },
    ]);
    expect(update(secret, old, variant(old, (s) => { s.data = { other: b64("x") }; })).causes).toEqual([]);
  });

  it("keeps an immutable secret's data", () => {
    const old = created<Secret>(secret, variant(base, (s) => { s.immutable = true; }));
    expect(update(secret, old, variant(old, (s) => { s.stringData = { password: "new" }; })).causes).toEqual([
      { field: "data", reason: "FieldValueForbidden", message: "Forbidden: field is immutable when `immutable` is set" },
    ]);
  });
});
