// Selection in a long list, safe at scale: the header checkbox selects the rows on screen, never the
// thousands below them; selecting every row that matches the filter is a second, explicit action (as in
// Gmail), offered once the rows on screen are selected. Pure, so the rules are tested without React.

/** The header checkbox: checked when every row on screen is selected, mixed when some selected row exists. */
export function headerState(selected: ReadonlySet<string>, shown: readonly string[]): "checked" | "mixed" | "unchecked" {
  if (shown.length > 0 && shown.every((k) => selected.has(k))) return "checked";
  return selected.size > 0 ? "mixed" : "unchecked";
}

/** The selection after turning `keys` on or off (a new set; the input is left alone). */
export function toggleKeys(selected: ReadonlySet<string>, keys: Iterable<string>, on: boolean): Set<string> {
  const next = new Set(selected);
  for (const k of keys) {
    if (on) next.add(k);
    else next.delete(k);
  }
  return next;
}

/** What the header checkbox does when clicked: select the rows on screen, or (all selected) clear them. */
export function toggleShown(selected: ReadonlySet<string>, shown: readonly string[]): Set<string> {
  return toggleKeys(selected, shown, headerState(selected, shown) !== "checked");
}

export type SelectionOffer =
  /** The last select-all took the rows on screen and more rows match: offer to select all of them. */
  | { kind: "select-matching"; selectedCount: number; matchingCount: number }
  /** Every matching row is selected (more than fit on screen): say so, offer to clear. */
  | { kind: "all-matching"; matchingCount: number };

/**
 * The line above the table after a select-all, if any. `selectedByHeader`: the rows the header checkbox
 * selected last (as they were on screen then); the offer stands while the selection is exactly those rows,
 * even once the user scrolls away from them.
 */
export function selectionOffer(
  selected: ReadonlySet<string>,
  shown: readonly string[],
  matching: readonly string[],
  selectedByHeader?: readonly string[],
): SelectionOffer | undefined {
  if (selected.size === 0) return undefined;
  if (matching.length > shown.length && selected.size >= matching.length && matching.every((k) => selected.has(k))) {
    return { kind: "all-matching", matchingCount: matching.length };
  }
  if (
    selectedByHeader &&
    selectedByHeader.length === selected.size &&
    matching.length > selected.size &&
    selectedByHeader.every((k) => selected.has(k))
  ) {
    return { kind: "select-matching", selectedCount: selected.size, matchingCount: matching.length };
  }
  return undefined;
}

/** The rows on screen of a windowed list: those at least half visible below the sticky header. */
export function shownRange(scrollTop: number, viewportHeight: number, rowHeight: number, headerHeight: number, count: number): { start: number; end: number } {
  const start = Math.max(0, Math.round(scrollTop / rowHeight));
  const end = Math.min(count, Math.max(start, Math.round((scrollTop + viewportHeight - headerHeight) / rowHeight)));
  return { start: Math.min(start, count), end };
}
