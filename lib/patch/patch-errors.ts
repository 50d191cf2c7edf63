// The errors kube-apiserver's patch handler answers with, built on lib/api/errors.ts.
import { errors, StatusError } from "../status";

/** Deepest nesting a patch (or the object it applies to) may have; deeper input is refused before any recursion. */
export const MAX_PATCH_DEPTH = 100;

/** 400 BadRequest with the decoder's or the patch library's message. */
export const badRequest = (message: string): StatusError => errors.badRequest(message);

/**
 * kube-apiserver's `NewGenericServerResponse(422, ...)`: reason Invalid, a fixed message (the underlying error
 * text is dropped) and empty details. Used for a JSON patch that fails to apply and for lists of lists in SMP.
 */
export const rejected = (): StatusError =>
  new StatusError(422, "Invalid", "the server rejected our request due to an error in our request", {});

/**
 * A patch that does not fit the object's schema (most strategic-merge-patch errors). kube-apiserver lets
 * these reach its error writer as plain Go errors (500, empty reason); the fault is the client's, so here
 * they are 400 BadRequest with the same message.
 */
export const unfitPatch = (message: string): StatusError => errors.badRequest(message);

/** Throws 400 when `value` nests deeper than MAX_PATCH_DEPTH (objects and arrays count one level each). */
export function assertDepth(value: unknown, what: string): void {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (depth > MAX_PATCH_DEPTH) throw badRequest(`error decoding patch: ${what} nests more than ${MAX_PATCH_DEPTH} levels deep`);
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
}

/** Assignment that keeps a `__proto__` key an own data property instead of changing the prototype. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
