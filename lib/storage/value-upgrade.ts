// A read-side upgrade step: what an older version stored, brought to today's form as values come out of the
// database (the start-up snapshot, log entries read by the tailer, object history), so the cache and every
// answer built from it only ever see today's form. The caller (the composition root) decides what changed;
// storage knows no kind. Its own writes never need it: they are already in today's form.
import type { ObjectKey, ValueTransformer } from "./types";

/** Today's JSON for a stored value (return `json` itself when nothing changes; it runs on every read). */
export type ValueUpgrade = (key: ObjectKey, json: string) => string;

/** The transformer whose reads also pass through `upgrade` (after decryption); writes are unchanged. */
export function withValueUpgrade(transformer: ValueTransformer, upgrade: ValueUpgrade | undefined): ValueTransformer {
  if (!upgrade) return transformer;
  return {
    toStorage: (key, json) => transformer.toStorage(key, json),
    fromStorage(key, stored) {
      const read = transformer.fromStorage(key, stored);
      return { json: upgrade(key, read.json), stale: read.stale };
    },
  };
}
