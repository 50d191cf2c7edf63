// The transport every reference server shares, set up like server.ts: one HTTPS listener with a self-signed
// certificate issued by lib/tls (EC P-256, same code path as ours), or plain HTTP for the clearly-labelled
// comparison rows (REF_PLAIN_HTTP=1). keepAliveTimeout as in server.ts. Exits on SIGTERM/SIGINT.
import http from "node:http";
import https from "node:https";
import { readFileSync } from "node:fs";

export type Listener = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export function serve(name: string, listener: Listener): http.Server {
  const port = Number(process.env.PORT ?? 0);
  const host = process.env.HOST ?? "127.0.0.1";
  const plain = process.env.REF_PLAIN_HTTP === "1";
  const server = plain
    ? http.createServer(listener)
    : https.createServer({ cert: readFileSync(process.env.REF_TLS_CERT!, "utf8"), key: readFileSync(process.env.REF_TLS_KEY!, "utf8") }, listener);
  server.keepAliveTimeout = 65_000;
  server.listen(port, host, () => {
    console.log(`${name} listening on ${plain ? "http" : "https"}://${host}:${port}`);
  });
  const stop = () => {
    server.close();
    server.closeAllConnections();
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  return server;
}

/** The request body (no limit handling: references trust the benchmark client). */
export function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

export const JSON_HEADERS = { "cache-control": "no-cache, private", "content-type": "application/json" };
