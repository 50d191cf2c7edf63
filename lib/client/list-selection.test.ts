import { describe, expect, it } from "vitest";
import { headerState, selectionOffer, shownRange, toggleKeys, toggleShown } from "./list-selection";

const keys = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `ns/cm-${from + i}`);

describe("select all, safe at scale", () => {
  const matching = keys(10_000);
  const shown = matching.slice(0, 25);

  it("the header checkbox selects the rows on screen, not every matching row", () => {
    const selected = toggleShown(new Set(), shown);
    expect(selected.size).toBe(25);
    expect(selected.has("ns/cm-24")).toBe(true);
    expect(selected.has("ns/cm-25")).toBe(false);
    expect(headerState(selected, shown)).toBe("checked");
  });

  it("then offers all N matching as a second, explicit action", () => {
    const selected = toggleShown(new Set(), shown);
    expect(selectionOffer(selected, shown, matching, shown)).toEqual({ kind: "select-matching", selectedCount: 25, matchingCount: 10_000 });
    // Still offered once scrolled away (the rows shown now are others), or when a banner took a row's room.
    expect(selectionOffer(selected, matching.slice(500, 525), matching, shown)).toEqual({ kind: "select-matching", selectedCount: 25, matchingCount: 10_000 });
    expect(selectionOffer(selected, shown.slice(0, 24), matching, shown)?.kind).toBe("select-matching");
    const all = toggleKeys(selected, matching, true);
    expect(all.size).toBe(10_000);
    expect(selectionOffer(all, shown, matching, shown)).toEqual({ kind: "all-matching", matchingCount: 10_000 });
  });

  it("offers nothing when every matching row is on screen, or nothing is selected", () => {
    const few = keys(5);
    expect(selectionOffer(toggleShown(new Set(), few), few, few, few)).toBeUndefined();
    expect(selectionOffer(new Set(), shown, matching, shown)).toBeUndefined();
    // Rows picked one by one are not a select-all: nothing to offer.
    expect(selectionOffer(new Set(shown), shown, matching)).toBeUndefined();
    // A row unticked after the select-all withdraws the offer.
    expect(selectionOffer(toggleKeys(new Set(shown), ["ns/cm-3"], false), shown, matching, shown)).toBeUndefined();
  });

  it("a second click clears the rows on screen; rows selected elsewhere make it mixed", () => {
    const selected = toggleShown(toggleShown(new Set(), shown), shown);
    expect(selected.size).toBe(0);
    const elsewhere = new Set(["ns/cm-900"]);
    expect(headerState(elsewhere, shown)).toBe("mixed");
    expect(toggleShown(elsewhere, shown).size).toBe(26);
  });

  it("rows on screen are those at least half visible below the header", () => {
    // 34 px rows, a 34 px sticky header, 850 px of viewport: 24 rows; scrolled by 10 rows.
    expect(shownRange(0, 850, 34, 34, 10_000)).toEqual({ start: 0, end: 24 });
    expect(shownRange(340, 850, 34, 34, 10_000)).toEqual({ start: 10, end: 34 });
    expect(shownRange(0, 850, 34, 34, 3)).toEqual({ start: 0, end: 3 });
  });
});
