// OpenAPI documents generated from the kinds' schemas: /openapi/v3 (index), /openapi/v3/api, /openapi/v3/api/v1,
// /openapi/v3/apis/<group>/<version> (custom kinds included), /openapi/v2 (Swagger 2.0 JSON, and gnostic protobuf), and per-kind JSON Schema for
// the console editor. Pure and memoised; imports lib/kinds and lib/codec's protobuf writer only (never lib/api,
// lib/registry, lib/storage or node: modules), so the console can use jsonSchemaFor.
export { openapiDocument, openapiV2, openapiV2Protobuf, openapiV3Api, openapiV3CoreV1, openapiV3GroupVersion, openapiV3Index } from "./documents";
export { gnosticDocument } from "./gnostic";
export { jsonSchemaFor } from "./json-schema";
