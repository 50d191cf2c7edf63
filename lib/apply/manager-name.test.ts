import { describe, expect, it } from "vitest";
import { managerOrUserAgent } from "./manager-name";

describe("managerOrUserAgent", () => {
  it("prefers the fieldManager parameter, else takes the User-Agent before its first '/'", () => {
    expect(managerOrUserAgent("kubectl-edit", "kubectl/v1.32.0 (linux/amd64) kubernetes/70d3cc9")).toBe("kubectl-edit");
    expect(managerOrUserAgent(undefined, "kubectl/v1.32.0 (linux/amd64) kubernetes/70d3cc9")).toBe("kubectl");
    expect(managerOrUserAgent("", "curl/8.5.0")).toBe("curl");
    expect(managerOrUserAgent(undefined, undefined)).toBe("");
  });

  it("drops non-printable characters and cuts at 128 bytes", () => {
    expect(managerOrUserAgent(undefined, "my\u0007tool/1")).toBe("mytool");
    expect(managerOrUserAgent(undefined, `${"é".repeat(70)}/1`)).toBe("é".repeat(64));
  });
});
