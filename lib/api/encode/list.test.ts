// A list is written in chunks as it is read, and the bytes are exactly those the whole-answer encoder wrote
// (its outputs kept in fixtures/whole-list-answers.json), in every format: JSON (compact and indented), YAML,
// protobuf, Table (JSON, YAML, includeObject), PartialObjectMetadataList (JSON, YAML, protobuf).
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { kindByPlural } from "../../kinds";
import type { KubeObject } from "../../kinds/types";
import { CHUNK_BYTES, jsonWithArray, yamlWithArray } from "./chunked-body";
import { FORMATS, listAnswers, NOW } from "./fixtures/list-answers";
import { listResponse } from "./list";

const here = path.dirname(fileURLToPath(import.meta.url));
const WHOLE: Record<string, string> = JSON.parse(readFileSync(path.join(here, "fixtures/whole-list-answers.json"), "utf8"));
const expected = (key: string) => (WHOLE[key].startsWith("base64:") ? Buffer.from(WHOLE[key].slice(7), "base64") : Buffer.from(WHOLE[key]));

beforeAll(() => { vi.useFakeTimers({ toFake: ["Date"] }); vi.setSystemTime(NOW); });
afterAll(() => vi.useRealTimers());

describe("a list answer in chunks", () => {
  for (const [name, answer] of Object.entries(listAnswers())) {
    for (const f of FORMATS) {
      test(`${name} as ${f.name}: the same bytes as the whole answer`, () => {
        const res = listResponse(answer, f.format, f.pretty, f.include ?? "Metadata");
        expect(res.body).toBeUndefined();
        expect(Buffer.concat([...res.chunks!]).equals(expected(`${name}/${f.name}`))).toBe(true);
      });
    }
  }

  test("a large list comes in chunks of about 64 KiB, made as they are read", () => {
    const configMaps = kindByPlural("configmaps")!;
    const items = Array.from({ length: 2000 }, (_, i) => {
      const object = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: `cm-${String(i).padStart(5, "0")}`, namespace: "big", resourceVersion: String(i + 1) }, data: { v: "x".repeat(500) } } as KubeObject;
      return { key: { resource: "configmaps", namespace: "big", name: String(object.metadata.name) }, rev: i + 1, json: JSON.stringify(object), object };
    });
    const res = listResponse({ kind: configMaps, resourceVersion: "2000", items }, { media: "json", pretty: false }, false, "Metadata");
    const chunks = [...res.chunks!];
    expect(chunks.length).toBeGreaterThan(10);
    for (const c of chunks.slice(0, -1)) expect(c.length).toBeLessThan(CHUNK_BYTES + 1024);
    const whole = JSON.parse(Buffer.concat(chunks).toString());
    expect(whole.items).toHaveLength(2000);
    expect(whole.items[1999].metadata.name).toBe("cm-01999");

    const protobuf = [...listResponse({ kind: configMaps, resourceVersion: "2000", items }, { media: "protobuf", pretty: false }, false, "Metadata").chunks!];
    expect(protobuf.length).toBeGreaterThan(10);
    for (const c of protobuf.slice(0, -1)) expect(c.length).toBeLessThanOrEqual(CHUNK_BYTES);
    expect(Buffer.concat(protobuf).subarray(0, 4).toString("latin1")).toBe("k8s\u0000");
  });

  test("a conversion that fails is refused before any byte (a Status, not a cut answer)", () => {
    const answer = listAnswers().configmaps;
    expect(() => listResponse(answer, { media: "json", as: "PartialObjectMetadata", pretty: false }, false, "Metadata"))
      .toThrow(/you requested PartialObjectMetadata, but the requested object is a list/);
  });
});

describe("an object with one array, item by item", () => {
  const head = { kind: "List", apiVersion: "v1", metadata: { resourceVersion: "3", note: "a\nb" } };
  const items = [{ a: 1, b: [1, { c: "x\ny" }], d: {} }, { e: null, f: "", g: "  lead" }, {}];
  for (const values of [items, []]) {
    test(`JSON as JSON.stringify writes it (${values.length} items, compact and indented)`, () => {
      expect([...jsonWithArray(head, "items", values.map((v) => JSON.stringify(v)), false)].join("")).toBe(`${JSON.stringify({ ...head, items: values })}\n`);
      expect([...jsonWithArray(head, "items", values.map((v) => JSON.stringify(v, null, 2)), true)].join("")).toBe(`${JSON.stringify({ ...head, items: values }, null, 2)}\n`);
    });
  }
  test("YAML as the yaml package writes the whole, blank lines of block scalars left blank", async () => {
    const { stringify } = await import("yaml");
    const values = [{ s: "one\n\nthree\n", n: [{ x: 1 }, [2, 3]] }, { t: "" }];
    expect([...yamlWithArray(head, "items", values)].join("")).toBe(stringify({ ...head, items: values }, { lineWidth: 0 }));
    expect([...yamlWithArray(head, "items", [])].join("")).toBe(stringify({ ...head, items: [] }, { lineWidth: 0 }));
  });
});
