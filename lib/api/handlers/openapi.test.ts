import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { openapiDocument, openapiV2, openapiV2Protobuf } from "../../openapi";
import { negotiateOpenApiV2, OPENAPI_V2_PROTOBUF, openapiV2Response } from "./openapi";

const KUBECTL = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf";

describe("negotiation at /openapi/v2 (kube-openapi's)", () => {
  it("serves JSON, and protobuf under both spellings", () => {
    expect(negotiateOpenApiV2(undefined)).toBe("json");
    expect(negotiateOpenApiV2("")).toBe("json");
    expect(negotiateOpenApiV2("*/*")).toBe("json");
    expect(negotiateOpenApiV2("application/json")).toBe("json");
    expect(negotiateOpenApiV2(KUBECTL)).toBe("protobuf");
    expect(negotiateOpenApiV2(OPENAPI_V2_PROTOBUF)).toBe("protobuf");
    expect(negotiateOpenApiV2(`application/json;q=0.5, ${KUBECTL}`)).toBe("protobuf");
    expect(negotiateOpenApiV2(`text/html, ${KUBECTL}, application/json`)).toBe("protobuf");
    expect(negotiateOpenApiV2("application/*")).toBe("json");
  });

  it("finds nothing for other media types", () => {
    expect(negotiateOpenApiV2("text/html")).toBeUndefined();
    expect(negotiateOpenApiV2("application/yaml")).toBeUndefined();
    expect(negotiateOpenApiV2("application/vnd.kubernetes.protobuf")).toBeUndefined();
  });
});

describe("openapiV2Response", () => {
  const json = JSON.stringify(openapiV2());
  const etag = `"${createHash("sha512").update(json).digest("hex").toUpperCase()}"`;

  it("answers protobuf and JSON with one ETag, Vary and Last-Modified", () => {
    const proto = openapiV2Response(openapiDocument, { accept: KUBECTL })!;
    expect(proto.status).toBe(200);
    expect(proto.headers).toMatchObject({ "content-type": OPENAPI_V2_PROTOBUF, vary: "Accept", etag });
    expect(Buffer.compare(proto.body as Buffer, Buffer.from(openapiV2Protobuf()))).toBe(0);
    const plain = openapiV2Response(openapiDocument, {})!;
    expect(plain.headers).toMatchObject({ "content-type": "application/json", etag, "last-modified": proto.headers["last-modified"] });
    expect(plain.body).toBe(json);
  });

  it("answers 304 to a matching If-None-Match (list, weak or *), else to a fresh If-Modified-Since", () => {
    for (const inm of [etag, `"x", ${etag}`, `W/${etag}`, "*"]) {
      const res = openapiV2Response(openapiDocument, { accept: KUBECTL, ifNoneMatch: inm })!;
      expect(res.status, inm).toBe(304);
      expect(res.body).toBeUndefined();
      expect(res.headers).toEqual({ "cache-control": "no-cache, private", vary: "Accept", etag });
    }
    expect(openapiV2Response(openapiDocument, { ifNoneMatch: '"other"' })!.status).toBe(200);
    const lastModified = openapiV2Response(openapiDocument, {})!.headers["last-modified"] as string;
    expect(openapiV2Response(openapiDocument, { ifModifiedSince: lastModified })!.status).toBe(304);
    expect(openapiV2Response(openapiDocument, { ifModifiedSince: "Thu, 01 Jan 2004 00:00:00 GMT" })!.status).toBe(200);
    // If-None-Match takes precedence over If-Modified-Since.
    expect(openapiV2Response(openapiDocument, { ifNoneMatch: '"other"', ifModifiedSince: lastModified })!.status).toBe(200);
  });

  it("answers 406 with no body when nothing fits, and nothing without documents", () => {
    expect(openapiV2Response(openapiDocument, { accept: "text/html" })).toEqual({ status: 406, headers: { vary: "Accept" } });
    expect(openapiV2Response(undefined, {})).toBeUndefined();
  });
});
