// Bookmarks as kube's watch cache sends them: with allowWatchBookmarks, one 2 s before the watch's
// timeoutSeconds deadline carrying the newest revision, so the client's next watch resumes from there.
import { afterAll, beforeAll, expect, test } from "vitest";
import { openWatch } from "./cluster";
import { createNamespaces, startServer, stopAll, type Server } from "./harness";

let server: Server;
beforeAll(async () => {
  server = await startServer();
  await createNamespaces(server, "marks", "elsewhere");
}, 90_000);
afterAll(stopAll);

test("a bookmark 2 s before timeoutSeconds, at the newest revision, then the watch ends", async () => {
  const list = await server.request("GET", "/api/v1/namespaces/marks/configmaps");
  const started = Date.now();
  const w = await openWatch(server, `/api/v1/namespaces/marks/configmaps?watch=true&allowWatchBookmarks=true&timeoutSeconds=5&resourceVersion=${list.body.metadata.resourceVersion}`);
  try {
    // A write elsewhere moves the revision without any event for this watch.
    const other = await server.request("POST", "/api/v1/namespaces/elsewhere/configmaps", { body: { metadata: { name: "x" } } });
    const mark = await w.waitForEvent((e) => e.type === "BOOKMARK", 8_000);
    const at = Date.now() - started;
    expect(at).toBeGreaterThanOrEqual(2_500);
    expect(at).toBeLessThan(4_900);
    expect(BigInt(mark.object.metadata.resourceVersion)).toBeGreaterThanOrEqual(BigInt(other.body.metadata.resourceVersion));
    expect(mark.object.kind).toBe("ConfigMap");
    const end = await w.ended;
    expect(end.clean).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_500);
  } finally {
    w.close();
  }
}, 30_000);

test("without allowWatchBookmarks no bookmark is sent", async () => {
  const w = await openWatch(server, "/api/v1/namespaces/marks/configmaps?watch=true&timeoutSeconds=3");
  try {
    await w.ended;
    expect(w.events.filter((e) => e.type === "BOOKMARK")).toEqual([]);
  } finally {
    w.close();
  }
}, 30_000);
