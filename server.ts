// Cluster Core's production server: one HTTPS listener (plain HTTP only with INSECURE_HTTP=1). API paths go
// straight to the request pipeline (lib/api); every other path (the console, /api/auth) goes to Next.js.
import http from "node:http";
import https from "node:https";
import { nodeApiHandler } from "./lib/api/node-adapter";
import { isApiPath } from "./lib/api/request-info";
import { answerUncleanTarget } from "./lib/server/request-target";
import { getRuntime } from "./lib/server/runtime";

let rt: Awaited<ReturnType<typeof getRuntime>>;
try {
  rt = await getRuntime();
} catch (err) {
  // A bad setting or file (TOKEN_AUTH_FILE, AUDIT_LOG_*, TLS files) stops the start with its message alone.
  console.error(`cluster-core: cannot start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
const { config } = rt;
const consoleEnabled = process.env.CLUSTER_CORE_CONSOLE !== "off";
// API_VIA_NEXT=1 sends API paths through the Next.js route handlers too (tests cover both paths).
const apiViaNext = consoleEnabled && process.env.API_VIA_NEXT === "1";

let nextHandler: ((req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>) | undefined;
if (consoleEnabled) {
  const { default: next } = await import("next");
  const app = next({ dev: false, dir: process.cwd(), hostname: config.host, port: config.port });
  await app.prepare();
  nextHandler = app.getRequestHandler();
}

const api = nodeApiHandler(getRuntime);
const listener = (req: http.IncomingMessage, res: http.ServerResponse) => {
  if (answerUncleanTarget(req, res)) return;
  const path = (req.url ?? "/").split("?", 1)[0];
  if (!apiViaNext && isApiPath(path)) return api(req, res);
  if (nextHandler) return void nextHandler(req, res);
  res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("404 page not found\n");
};

const server = rt.tls
  ? https.createServer({ key: rt.tls.key, cert: rt.tls.cert }, listener)
  : http.createServer(listener);
server.keepAliveTimeout = 65_000;
// A slow client cannot hold a connection forever: headers within 32 s (kube's ReadHeaderTimeout), the whole
// request within REQUEST_TIMEOUT_SECONDS. Bodies are read before a request takes its flow-control seat.
server.headersTimeout = Math.min(32_000, config.requestTimeoutSeconds * 1000);
server.requestTimeout = config.requestTimeoutSeconds * 1000;
server.listen(config.port, config.host, () => {
  const scheme = rt.tls ? "https" : "http";
  console.log(`cluster-core listening on ${scheme}://${config.host}:${config.port} (console ${consoleEnabled ? "on" : "off"}); kubeconfig: ${rt.kubeconfigPath}`);
});

let stopping = false;
const shutdown = () => {
  if (stopping) return;
  stopping = true;
  server.close();
  server.closeAllConnections();
  void rt.close().finally(() => process.exit(0));
};
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
