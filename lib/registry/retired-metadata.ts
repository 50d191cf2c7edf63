// The metadata versions before issue 21 wrote on every object and kube 1.32 does not: `selfLink` (not set by
// kube since 1.20) and `metadata.generation` on kinds whose kube strategy keeps none. Such objects are still in
// data directories written then; they are upgraded as storage reads them (lib/storage's ValueUpgrade, given by
// the composition root), so no answer (get, list, watch, protobuf, the stored-JSON splice) carries them.
import type { AnyKind } from "../kinds/types";
import type { ValueUpgrade } from "../storage";

/**
 * Every object those versions wrote has a selfLink (set on create, carried by every update), and today's
 * writes never store one: a stored selfLink marks the old form, whose generation the server made up. A
 * generation without one is a client's, kept as kube keeps it.
 */
export function retiredMetadataUpgrade(kinds: AnyKind[]): ValueUpgrade {
  const keepsGeneration = new Set(kinds.filter((k) => k.generation).map((k) => k.plural));
  return (key, json) => {
    // Values without the word cost one scan; only old ones are parsed.
    if (!json.includes('"selfLink"')) return json;
    const obj = JSON.parse(json) as { metadata?: Record<string, unknown> };
    const meta = obj.metadata;
    if (typeof meta !== "object" || meta === null || meta.selfLink === undefined) return json;
    delete meta.selfLink;
    if (!keepsGeneration.has(key.resource)) delete meta.generation;
    return JSON.stringify(obj);
  };
}
