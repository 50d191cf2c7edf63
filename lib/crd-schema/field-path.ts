// kube's field.Path rendering (apimachinery util/validation/field): `.child`, `[key]` for map keys, `[0]` for
// indexes; an empty base renders children without the leading dot.

/** `base.name` (or `name` at the root). */
export const child = (base: string, ...names: string[]): string =>
  names.reduce((path, name) => (path ? `${path}.${name}` : name), base);

/** `base[key]`, as kube renders a map key or a properties entry. */
export const key = (base: string, k: string): string => `${base}[${k}]`;

/** `base[i]`. */
export const index = (base: string, i: number): string => `${base}[${i}]`;
