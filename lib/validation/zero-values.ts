// Request bodies are loosely typed JSON. Validation reads them the way Go reads a decoded struct: a missing or
// mistyped scalar is its zero value, a missing list is empty, a missing map is empty. (Type mismatches themselves
// are the decoder's business, not validation's.)

export type JsonObject = Record<string, unknown>;

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The string, or "" (Go's zero value). */
export const stringOf = (value: unknown): string => (typeof value === "string" ? value : "");

/** The number, or 0. */
export const numberOf = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) ? value : 0);

/** The number when one was given (a pointer field that is set), else undefined. */
export const optionalNumber = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;

export const boolOf = (value: unknown): boolean => value === true;

/** The array, or []. */
export const listOf = <T = unknown>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);

/** The object, or {}. */
export const objectOf = (value: unknown): JsonObject => (isObject(value) ? value : {});

/** A string map's entries, sorted by key so error order is stable (Go's map order is random). */
export const sortedEntries = (value: unknown): [string, unknown][] =>
  isObject(value) ? Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) : [];

/** Present and not null: a Go pointer or slice that is non-nil. */
export const isSet = (value: unknown): boolean => value !== undefined && value !== null;
