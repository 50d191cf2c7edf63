import { describe, expect, it } from "vitest";
import { favouriteHref, favouriteLabel, favouritesStorageKey, parseFavourites, toggleFavourite } from "./favourites";

describe("favourites", () => {
  it("pins and unpins objects and lists, in the order pinned", () => {
    let list = toggleFavourite([], { plural: "pods", namespace: "shop", name: "web-1" });
    list = toggleFavourite(list, { plural: "configmaps", namespace: "shop" });
    expect(list).toEqual([{ plural: "pods", namespace: "shop", name: "web-1" }, { plural: "configmaps", namespace: "shop" }]);
    list = toggleFavourite(list, { plural: "pods", namespace: "shop", name: "web-1" });
    expect(list).toEqual([{ plural: "configmaps", namespace: "shop" }]);
  });

  it("keeps a list of one namespace apart from the same kind in all namespaces", () => {
    const list = toggleFavourite([{ plural: "pods", namespace: "shop" }], { plural: "pods" });
    expect(list).toHaveLength(2);
  });

  it("reads only well-formed entries of kinds this build serves", () => {
    const text = JSON.stringify([{ plural: "pods", name: "a", namespace: "x" }, { plural: "widgets" }, "junk", { plural: "secrets", name: 3 }]);
    expect(parseFavourites(text)).toEqual([{ plural: "pods", name: "a", namespace: "x" }]);
    expect(parseFavourites("not json")).toEqual([]);
    expect(parseFavourites(null)).toEqual([]);
  });

  it("links and labels each favourite, one storage key per user", () => {
    expect(favouriteHref({ plural: "pods", namespace: "shop", name: "web 1" })).toBe("/namespaces/shop/pods/web%201");
    expect(favouriteHref({ plural: "persistentvolumes", name: "pv1" })).toBe("/persistentvolumes/pv1");
    expect(favouriteHref({ plural: "pods" })).toBe("/pods");
    expect(favouriteLabel({ plural: "pods", namespace: "shop", name: "web" })).toEqual({ title: "web", detail: "Pod in shop" });
    expect(favouriteLabel({ plural: "configmaps", namespace: "shop" })).toEqual({ title: "ConfigMaps", detail: "in shop" });
    expect(favouritesStorageKey("alice")).not.toBe(favouritesStorageKey("bob"));
  });
});
