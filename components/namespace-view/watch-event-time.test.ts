import { describe, expect, it } from "vitest";
import { CATCH_UP_MS, watchEventTime } from "./watch-event-time";

const arrived = Date.parse("2026-11-24T10:00:30.400Z");

describe("watchEventTime", () => {
  it("an added object's change time is its creation", () => {
    expect(watchEventTime({ type: "ADDED", object: { metadata: { creationTimestamp: "2026-11-24T10:00:24Z" } } }, arrived)).toBe(Date.parse("2026-11-24T10:00:24Z"));
  });

  it("a modified object's change time is its newest managedFields entry", () => {
    const object = {
      metadata: {
        creationTimestamp: "2026-11-24T09:00:00Z",
        managedFields: [{ manager: "kubectl-create", time: "2026-11-24T09:00:00Z" }, { manager: "kubectl-label", time: "2026-11-24T10:00:27Z" }, { manager: "x" }],
      },
    };
    expect(watchEventTime({ type: "MODIFIED", object }, arrived)).toBe(Date.parse("2026-11-24T10:00:27Z"));
  });

  it("an Event's last occurrence and a deletion's timestamp count", () => {
    expect(watchEventTime({ type: "MODIFIED", object: { metadata: {}, lastTimestamp: "2026-11-24T10:00:29Z" } }, arrived)).toBe(Date.parse("2026-11-24T10:00:29Z"));
    expect(watchEventTime({ type: "DELETED", object: { metadata: { deletionTimestamp: "2026-11-24T10:00:20Z", creationTimestamp: "2026-11-24T10:00:10Z" } } }, arrived)).toBe(Date.parse("2026-11-24T10:00:20Z"));
  });

  it("falls back to the arrival time when no stamp can describe the change", () => {
    // A delete without a deletionTimestamp: its creation says nothing about when it went.
    expect(watchEventTime({ type: "DELETED", object: { metadata: { creationTimestamp: "2026-11-24T10:00:10Z" } } }, arrived)).toBe(arrived);
    // A stamp from long before: the write left every stamp alone.
    const old = new Date(arrived - CATCH_UP_MS - 1_000).toISOString();
    expect(watchEventTime({ type: "MODIFIED", object: { metadata: { managedFields: [{ time: old }] } } }, arrived)).toBe(arrived);
    // A stamp well after the arrival is another clock's: not believed.
    expect(watchEventTime({ type: "ADDED", object: { metadata: { creationTimestamp: "2026-11-24T10:00:40Z" } } }, arrived)).toBe(arrived);
    expect(watchEventTime({ type: "BOOKMARK", object: { metadata: { resourceVersion: "9" } } }, arrived)).toBe(arrived);
  });

  it("a stamp up to a second ahead (whole seconds, small skew) is capped at the arrival", () => {
    expect(watchEventTime({ type: "ADDED", object: { metadata: { creationTimestamp: "2026-11-24T10:00:31Z" } } }, arrived)).toBe(arrived);
  });
});
