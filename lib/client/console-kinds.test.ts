import { describe, expect, it } from "vitest";
import { kindByPlural } from "../kinds";
import { consoleKind, consoleKindOfObject, consoleKindOfResource, consoleKinds, hydrationConsoleKinds, seedCustomKinds, setCustomKinds, subscribeConsoleKinds } from "./console-kinds";
import type { CustomKindInfo } from "./custom-kinds";

const widget: CustomKindInfo = {
  group: "stable.example.com", version: "v2", plural: "widgets", singular: "widget", kind: "Widget", namespaced: true,
  shortNames: [], categories: [], verbs: ["get", "list"], hasStatus: false,
};
// A custom kind that shares a built-in kind's plural and kind name, in its own group.
const pods: CustomKindInfo = { ...widget, group: "pods.example.com", plural: "pods", singular: "pod", kind: "Pod" };

describe("the console's kinds", () => {
  it("finds built-in kinds by plural and custom kinds by <plural>.<group>, as discovery changes them", () => {
    const seen: number[] = [];
    const stop = subscribeConsoleKinds(() => seen.push(consoleKinds().length));
    const builtIn = consoleKinds().length;
    seedCustomKinds([widget, pods]);
    expect(consoleKind("widgets.stable.example.com")?.kind).toBe("Widget");
    expect(consoleKind("pods")).toBe(kindByPlural("pods"));
    expect(consoleKind("pods.pods.example.com")?.group).toBe("pods.example.com");
    expect(consoleKindOfObject("pods.example.com/v2", "Pod")?.group).toBe("pods.example.com");
    expect(consoleKindOfObject("v1", "Pod")).toBe(kindByPlural("pods"));
    expect(consoleKindOfResource("pods", "")).toBe(kindByPlural("pods"));
    expect(consoleKindOfResource("pods", "pods.example.com")?.group).toBe("pods.example.com");
    expect(consoleKindOfResource("widgets", "stable.example.com")?.kind).toBe("Widget");

    const kinds = consoleKinds();
    setCustomKinds([widget, pods]);
    expect(consoleKinds()).toBe(kinds);

    setCustomKinds([pods]);
    expect(consoleKind("widgets.stable.example.com")).toBeUndefined();
    expect(seen).toEqual([builtIn + 2, builtIn + 1]);
    // Hydration renders what the page was rendered with (the seed), until the next page's seed.
    expect(hydrationConsoleKinds()).toBe(kinds);
    seedCustomKinds([]);
    expect(hydrationConsoleKinds()).toBe(consoleKinds());
    expect(consoleKinds()).toHaveLength(builtIn);
    stop();
  });
});
