// R-HTTP2 (issue 23 item 1): a bare node:http2 secure server (HTTP/2 only, the compatibility request/response
// API a Node user writes first) serving the same pre-serialised ConfigMaps as bare-http (FIXTURE: one stored
// object JSON per line, from our server after seeding): GET /api/v1/namespaces/<ns>/configmaps/<name> is a Map
// lookup. Same certificate (lib/tls), same headers as bare-http; nothing else.
import http2 from "node:http2";
import { readFileSync } from "node:fs";
import { JSON_HEADERS } from "./serve";

const objects = new Map<string, Buffer>();
if (process.env.FIXTURE) {
  for (const json of readFileSync(process.env.FIXTURE, "utf8").split("\n")) {
    if (!json) continue;
    const { namespace, name } = (JSON.parse(json) as { metadata: { namespace: string; name: string } }).metadata;
    objects.set(`/api/v1/namespaces/${namespace}/configmaps/${name}`, Buffer.from(`${json}\n`));
  }
}

const server = http2.createSecureServer(
  { cert: readFileSync(process.env.REF_TLS_CERT!, "utf8"), key: readFileSync(process.env.REF_TLS_KEY!, "utf8") },
  (req, res) => {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const obj = req.method === "GET" ? objects.get(q < 0 ? url : url.slice(0, q)) : undefined;
    if (obj) { res.writeHead(200, JSON_HEADERS); res.end(obj); return; }
    res.writeHead(404, JSON_HEADERS);
    res.end('{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}\n');
  },
);
const port = Number(process.env.PORT ?? 0);
const host = process.env.HOST ?? "127.0.0.1";
server.listen(port, host, () => console.log(`bare-h2 listening on https://${host}:${port}`));
const stop = () => { server.close(); process.exit(0); };
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
