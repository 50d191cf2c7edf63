// gnostic's openapi.v2.Document in protobuf: golden bytes for a small document worked out by hand from
// OpenAPIv2.proto, and the whole /openapi/v2 document read back with an independent decoder (written here from the
// .proto's field numbers) into exactly the JSON it was made from.
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { gnosticDocument } from "./gnostic";
import { openapiDocument, openapiV2, openapiV2Protobuf } from "./index";

type Json = Record<string, any>;

// --- a minimal wire reader ------------------------------------------------------------------------------------------

interface Field { no: number; wire: number; varint?: number; bytes?: Uint8Array; fixed64?: Uint8Array }

function fields(buf: Uint8Array): Field[] {
  const out: Field[] = [];
  let pos = 0;
  const varint = (): number => {
    let v = 0;
    let mul = 1;
    for (;;) {
      const b = buf[pos++];
      if (b === undefined) throw new Error("truncated varint");
      v += (b & 0x7f) * mul;
      if (b < 0x80) return v;
      mul *= 128;
    }
  };
  while (pos < buf.length) {
    const key = varint();
    const no = Math.floor(key / 8);
    const wire = key % 8;
    if (wire === 0) out.push({ no, wire, varint: varint() });
    else if (wire === 2) {
      const len = varint();
      out.push({ no, wire, bytes: buf.subarray(pos, pos + len) });
      pos += len;
    } else if (wire === 1) {
      out.push({ no, wire, fixed64: buf.subarray(pos, pos + 8) });
      pos += 8;
    } else throw new Error(`unexpected wire type ${wire}`);
  }
  return out;
}

const text = (f: Field) => new TextDecoder().decode(f.bytes!);

type Spec = Record<number, readonly [string, "string" | "strings" | "bool" | ((b: Uint8Array) => unknown) | "ext" | "list"]>;

/** Reads a message whose fields are all strings, string lists, bools, messages or NamedAny extensions. */
function read(buf: Uint8Array, spec: Spec, listOf?: Record<number, (b: Uint8Array) => unknown>): Json {
  const out: Json = {};
  for (const f of fields(buf)) {
    if (listOf?.[f.no]) {
      const [key] = spec[f.no];
      (out[key] ??= []).push(listOf[f.no](f.bytes!));
      continue;
    }
    const s = spec[f.no];
    if (!s) throw new Error(`unexpected field ${f.no}`);
    const [key, kind] = s;
    if (kind === "string") out[key] = text(f);
    else if (kind === "strings") (out[key] ??= []).push(text(f));
    else if (kind === "bool") out[key] = f.varint === 1;
    else if (kind === "ext") {
      const named = read(f.bytes!, { 1: ["name", "string"], 2: ["value", (b) => read(b, { 2: ["yaml", "string"] })] });
      out[named.name] = parseYaml(named.value.yaml);
    } else if (typeof kind === "function") out[key] = kind(f.bytes!);
  }
  return out;
}

/** NamedX list → object, in wire order. */
function named(buf: Uint8Array, field: number, value: (b: Uint8Array) => unknown): Json {
  const out: Json = {};
  for (const f of fields(buf)) {
    if (f.no !== field) throw new Error(`unexpected field ${f.no} in a map`);
    const entry = read(f.bytes!, { 1: ["name", "string"], 2: ["value", value] });
    out[entry.name] = entry.value;
  }
  return out;
}

function schema(buf: Uint8Array): Json {
  const s = read(buf, {
    1: ["$ref", "string"], 2: ["format", "string"], 4: ["description", "string"], 19: ["required", "strings"],
    20: ["enum", "list"],
    21: ["additionalProperties", (b) => {
      const f = fields(b)[0];
      return f.no === 2 ? f.varint === 1 : schema(f.bytes!);
    }],
    22: ["type", (b) => read(b, { 1: ["value", "strings"] }).value],
    23: ["items", (b) => read(b, { 1: ["schema", "list"] }, { 1: schema }).schema],
    25: ["properties", (b) => named(b, 1, schema)],
    31: ["x", "ext"],
  }, { 20: (b) => parseYaml(read(b, { 2: ["yaml", "string"] }).yaml) });
  if (s.type) s.type = s.type.length === 1 ? s.type[0] : s.type;
  if (s.items) s.items = s.items.length === 1 ? s.items[0] : s.items;
  return s;
}

function parameter(buf: Uint8Array): Json {
  const item = fields(buf)[0];
  if (item.no === 2) return read(item.bytes!, { 1: ["$ref", "string"] });
  const p = fields(item.bytes!)[0];
  if (p.no === 1) {
    return read(p.bytes!, { 1: ["description", "string"], 2: ["name", "string"], 3: ["in", "string"], 4: ["required", "bool"], 5: ["schema", schema] });
  }
  const sub = fields(p.bytes!)[0];
  const common: Spec = { 1: ["required", "bool"], 2: ["in", "string"], 3: ["description", "string"], 4: ["name", "string"] };
  if (sub.no === 3) return read(sub.bytes!, { ...common, 6: ["type", "string"], 20: ["uniqueItems", "bool"] });
  if (sub.no === 4) return read(sub.bytes!, { ...common, 5: ["type", "string"], 19: ["uniqueItems", "bool"] });
  throw new Error(`unexpected parameter member ${sub.no}`);
}

function operation(buf: Uint8Array): Json {
  return read(buf, {
    1: ["tags", "strings"], 3: ["description", "string"], 5: ["operationId", "string"], 6: ["produces", "strings"],
    7: ["consumes", "strings"], 8: ["parameters", "list"], 10: ["schemes", "strings"], 13: ["x", "ext"],
    9: ["responses", (b) => named(b, 1, (v) => {
      const r = fields(v)[0];
      return read(r.bytes!, { 1: ["description", "string"], 2: ["schema", (si) => schema(fields(si)[0].bytes!)] });
    })],
  }, { 8: parameter });
}

function document(buf: Uint8Array): Json {
  const methods = ["get", "put", "post", "delete", "options", "head", "patch"];
  const pathItem = (b: Uint8Array) => read(b, {
    ...Object.fromEntries(methods.map((m, i) => [i + 2, [m, operation]])),
    9: ["parameters", "list"],
  }, { 9: parameter });
  return read(buf, {
    1: ["swagger", "string"],
    2: ["info", (b) => read(b, { 1: ["title", "string"], 2: ["version", "string"] })],
    8: ["paths", (b) => named(b, 2, pathItem)],
    9: ["definitions", (b) => named(b, 1, schema)],
    12: ["security", "list"],
    13: ["securityDefinitions", (b) => named(b, 1, (v) => {
      const scheme = fields(v)[0];
      if (scheme.no !== 2) throw new Error("expected an apiKey scheme");
      return read(scheme.bytes!, { 1: ["type", "string"], 2: ["name", "string"], 3: ["in", "string"], 4: ["description", "string"] });
    })],
  }, {
    12: (b) => named(b, 1, (v) => read(v, { 1: ["value", "strings"] }).value ?? []),
  });
}

// --- tests ----------------------------------------------------------------------------------------------------------

/** A field key: (field << 3 | wire) as a varint, two bytes from field 16 on. */
const key = (field: number, wire: number): number[] => {
  const k = (field << 3) | wire;
  return k < 0x80 ? [k] : [(k & 0x7f) | 0x80, k >> 7];
};

/** A length-delimited field written out by hand: key, length byte, contents (all shorter than 128 here). */
const ld = (field: number, ...contents: (number | string | number[])[]): number[] => {
  const body = contents.flatMap((c) => (typeof c === "string" ? [...Buffer.from(c)] : Array.isArray(c) ? c : [c]));
  return [...key(field, 2), body.length, ...body];
};

describe("gnosticDocument", () => {
  it("writes a small document byte for byte as gnostic and proto.Marshal would", () => {
    const doc = {
      swagger: "2.0",
      info: { title: "T", version: "1" },
      paths: {
        "/a": {
          get: {
            operationId: "g",
            parameters: [{ uniqueItems: true, type: "string", name: "pretty", in: "query" }],
            responses: { "200": { description: "OK", schema: { $ref: "#/definitions/X" } } },
            "x-kubernetes-action": "get",
          },
        },
      },
      definitions: { X: { type: "object", required: ["a"], properties: { a: { type: "integer", format: "int64" } }, additionalProperties: false } },
    };
    const expected = [
      ...ld(1, "2.0"),
      ...ld(2, ld(1, "T"), ld(2, "1")),
      ...ld(8, ld(2, ld(1, "/a"), ld(2, ld(2,
        ld(5, "g"),
        // ParametersItem.parameter → Parameter.non_body_parameter → query_parameter_sub_schema
        ld(8, ld(1, ld(2, ld(3, ld(2, "query"), ld(4, "pretty"), ld(6, "string"), [...key(20, 0), 1])))),
        ld(9, ld(1, ld(1, "200"), ld(2, ld(1, ld(1, "OK"), ld(2, ld(1, ld(1, "#/definitions/X"))))))),
        ld(13, ld(1, "x-kubernetes-action"), ld(2, ld(2, "get\n"))),
      )))),
      // Schema X: required 19, additionalProperties 21 {boolean 2 = false, written as a oneof member}, type 22, properties 25
      ...ld(9, ld(1, ld(1, "X"), ld(2,
        ld(19, "a"),
        ld(21, [...key(2, 0), 0]),
        ld(22, ld(1, "object")),
        ld(25, ld(1, ld(1, "a"), ld(2, ld(2, "int64"), ld(22, ld(1, "integer"))))),
      ))),
    ];
    expect([...gnosticDocument(doc)]).toEqual(expected);
  });

  it("refuses what it cannot encode instead of dropping it", () => {
    expect(() => gnosticDocument({ swagger: "2.0", definitions: { X: { type: "object", nullable: true } } })).toThrow(/unsupported key "nullable"/);
    expect(() => gnosticDocument({ swagger: "2.0", securityDefinitions: { O: { type: "oauth2", flow: "implicit" } } })).toThrow(/oauth2/);
  });
});

describe("/openapi/v2 in protobuf", () => {
  const bytes = openapiV2Protobuf();

  it("decodes back to exactly the JSON document", () => {
    const decoded = document(bytes);
    // proto3 has no "false" on the wire: a parameter's `required: false` comes back absent, as from gnostic.
    const normalise = (v: unknown): unknown => JSON.parse(JSON.stringify(v, (k, x) => (k === "required" && x === false ? undefined : x)));
    expect(normalise(decoded)).toEqual(normalise(openapiV2()));
  });

  it("carries what kubectl reads: definitions tagged with their GVK, PATCH operations with fieldValidation", () => {
    const decoded = document(bytes);
    expect(decoded.definitions["io.k8s.api.core.v1.Pod"]["x-kubernetes-group-version-kind"]).toEqual([{ group: "", kind: "Pod", version: "v1" }]);
    expect(decoded.definitions["io.k8s.api.authorization.v1.SelfSubjectAccessReview"]["x-kubernetes-group-version-kind"])
      .toEqual([{ group: "authorization.k8s.io", kind: "SelfSubjectAccessReview", version: "v1" }]);
    const patch = decoded.paths["/api/v1/namespaces/{namespace}/pods/{name}"].patch;
    expect(patch["x-kubernetes-group-version-kind"]).toEqual({ group: "", kind: "Pod", version: "v1" });
    expect(patch.parameters.map((p: Json) => p.name)).toContain("fieldValidation");
  });

  it("is built once and served by openapiDocument", () => {
    expect(openapiV2Protobuf()).toBe(bytes);
    expect(openapiDocument("v2", "", "protobuf")).toBe(bytes);
    expect(openapiDocument("v3", "", "protobuf")).toBeUndefined();
  });
});
