// Request bodies: the size limit, and an object or a create-only request decoded from JSON, YAML or protobuf.
import { apiVersionOf } from "../kinds";
import type { AnyKind } from "../kinds/types";
import { checkFields, duplicateFields, type FieldCheck } from "./field-validation";
import { bodyType, decodeBody, unsupportedBody } from "./media";
import { dedupOwnerReferences } from "./owner-references";
import type { ApiRequest } from "./types";

export const MAX_BODY_BYTES = 3 * 1024 * 1024;

/** An object of `kind` to create or update, its fields checked as `check` asks (unknown and duplicate fields). */
export async function readObjectBody(req: ApiRequest, kind: AnyKind, check: FieldCheck): Promise<unknown> {
  const type = bodyType(req.header("content-type"));
  // A kind without a declared schema (a custom resource) has no protobuf form: JSON and YAML only, as kube's.
  if (type === "protobuf" && !kind.schema) throw unsupportedBody(false, true);
  if (type !== "json" && type !== "yaml" && type !== "protobuf") throw unsupportedBody(false, !kind.schema);
  const raw = await req.body(MAX_BODY_BYTES);
  const decoded = decodeBody(raw, type, kind.kind, apiVersionOf(kind));
  // Protobuf has no unknown or duplicate fields to report (the decoder skips unknown ones).
  const value = type === "protobuf" ? decoded : checkFields(kind, decoded, check, check.mode === "Ignore" ? [] : duplicateFields(raw, type));
  const repeated = dedupOwnerReferences(value, false);
  if (repeated) check.warnings.push(repeated);
  return value;
}

/** The body of a create-only request (a review, a TokenRequest): JSON, YAML or protobuf. */
export async function readActionBody(req: ApiRequest, kindName: string, apiVersion: string): Promise<unknown> {
  const type = bodyType(req.header("content-type"));
  if (type !== "json" && type !== "yaml" && type !== "protobuf") throw unsupportedBody(false);
  return decodeBody(await req.body(MAX_BODY_BYTES), type, kindName, apiVersion);
}

/** A delete's optional DeleteOptions body (JSON unless it says YAML or protobuf). */
export async function readDeleteOptions(req: ApiRequest): Promise<Record<string, unknown> | undefined> {
  const raw = await req.body(MAX_BODY_BYTES);
  const deleteType = bodyType(req.header("content-type"));
  return raw.length ? decodeBody(raw, deleteType === "yaml" || deleteType === "protobuf" ? deleteType : "json", "DeleteOptions") as Record<string, unknown> : undefined;
}
