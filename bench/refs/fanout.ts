// R-WATCH (performance.md §8.2): the watch fan-out ceiling. Watchers GET
// /api/v1/namespaces/<ns>/configmaps?watch=1 and get a chunked stream (headers flushed at once); a POST to
// the same collection parses the object, stamps the next resourceVersion, serialises the event line ONCE
// and writes the same Buffer to every watcher of that namespace, then answers 201 with the object.
import type http from "node:http";
import { JSON_HEADERS, readBody, serve } from "./serve";

const watchers = new Map<string, Set<http.ServerResponse>>();
let rev = 0;
const COLLECTION = /^\/api\/v1\/namespaces\/([^/]+)\/configmaps$/;

serve("fanout", (req, res) => {
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  const m = COLLECTION.exec(q < 0 ? url : url.slice(0, q));
  if (!m) { res.writeHead(404, JSON_HEADERS); res.end("{}\n"); return; }
  const ns = m[1];
  if (req.method === "GET") {
    res.writeHead(200, { ...JSON_HEADERS, "transfer-encoding": "chunked" });
    res.flushHeaders();
    let set = watchers.get(ns);
    if (!set) { set = new Set(); watchers.set(ns, set); }
    set.add(res);
    res.on("close", () => set.delete(res));
    return;
  }
  if (req.method === "POST") {
    void readBody(req).then((body) => {
      const obj = JSON.parse(body.toString()) as { metadata: Record<string, unknown> };
      obj.metadata.namespace = ns;
      obj.metadata.resourceVersion = String(++rev);
      const json = JSON.stringify(obj);
      const line = Buffer.from(`{"type":"ADDED","object":${json}}\n`);
      const set = watchers.get(ns);
      if (set) for (const w of set) w.write(line);
      res.writeHead(201, JSON_HEADERS);
      res.end(`${json}\n`);
    });
    return;
  }
  res.writeHead(405, JSON_HEADERS);
  res.end("{}\n");
});
