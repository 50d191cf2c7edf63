import { describe, expect, it } from "vitest";
import { withManager } from "./object-writes";

describe("object writes", () => {
  it("name the console's field manager and ask for strict field validation", () => {
    expect(withManager("/api/v1/namespaces/a/configmaps/x")).toBe("/api/v1/namespaces/a/configmaps/x?fieldManager=cluster-core-console&fieldValidation=Strict");
    expect(withManager("/api/v1/namespaces/a/configmaps/x?dryRun=All")).toBe("/api/v1/namespaces/a/configmaps/x?dryRun=All&fieldManager=cluster-core-console&fieldValidation=Strict");
  });
});
