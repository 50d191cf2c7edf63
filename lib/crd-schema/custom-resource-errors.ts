// A custom resource's validation as kube-apiserver 1.32's custom resource strategy runs it, after pruning and
// defaulting: the schema (kube-openapi, ratcheted on update), the embedded resources' TypeMeta, the
// x-kubernetes-list-type set/map uniqueness (on update only checked when the old object had no such error), and
// then the CEL rules, unless a blocking schema error stopped them (kube's extra `<nil>` cause instead).
// ObjectMeta's own rules (name, labels, ...) are the registry's.
import type { FieldError } from "../status";
import { blockingCause, celValidationErrors, celValidatorFor, type CelValidator } from "./cel-rules";
import type { JSONSchemaProps } from "./types";
import { embeddedResourceErrors, listTypeErrors, schemaErrors } from "./validate";

export interface CustomResourceValidation {
  errors: FieldError[];
  /** Ratcheted CEL failures, one Warning header each. */
  warnings: string[];
}

export interface CustomResourceErrorsOptions {
  /** The schema's compiled rules; by default celValidatorFor(schema), compiled once per schema object. */
  celValidator?: CelValidator;
  /** The stored object, on update. */
  old?: unknown;
}

export function customResourceErrors(schema: JSONSchemaProps, obj: unknown, opts: CustomResourceErrorsOptions = {}): CustomResourceValidation {
  const update = opts.old !== undefined;
  const errors = [
    ...schemaErrors(schema, obj, update ? { old: { value: opts.old } } : {}),
    ...embeddedResourceErrors(schema, obj, "", true),
  ];
  if (!update || listTypeErrors(schema, opts.old).length === 0) errors.push(...listTypeErrors(schema, obj));
  const warnings: string[] = [];
  const celValidator = opts.celValidator ?? celValidatorFor(schema);
  if (celValidator) {
    const blocking = blockingCause(errors);
    if (blocking) errors.push(blocking);
    else {
      const cel = celValidationErrors(celValidator, obj, update ? { old: { value: opts.old } } : {});
      errors.push(...cel.errors);
      warnings.push(...cel.warnings);
    }
  }
  return { errors, warnings };
}
