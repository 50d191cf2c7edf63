// Cluster Core's production server: one HTTPS listener speaking HTTP/2 and HTTP/1.1 (plain HTTP/1.1 only with
// INSECURE_HTTP=1; lib/server/serving.ts). API paths go straight to the request pipeline (lib/api); every
// other path (the console, /api/auth) goes to Next.js.
import type http from "node:http";
import type http2 from "node:http2";
import { REQUEST_TARGET_HEADER } from "./lib/api/fetch-adapter";
import { nodeApiHandler } from "./lib/api/node-adapter";
import { isApiPath } from "./lib/request/request-info";
import { http1Bridge } from "./lib/server/http1-bridge";
import { answerUncleanTarget, answerUncleanTargetOnStream, isPlainPath } from "./lib/server/request-target";
import { getRuntime } from "./lib/server/runtime";
import { createServing, type ServingRequest, type ServingResponse } from "./lib/server/serving";

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
// Next.js cannot take HTTP/2's request/response objects: console requests over h2 reach it as HTTP/1.1.
const nextOverHttp2 = nextHandler && http1Bridge((req, res) => void nextHandler!(req, res));
// HTTP/1.1 requests, and the HTTP/2 streams `apiStream` leaves (through node's compatibility objects).
const listener = (req: ServingRequest, res: ServingResponse) => {
  const target = req.url ?? "/";
  const q = target.indexOf("?");
  const path = q < 0 ? target : target.slice(0, q);
  if (!isPlainPath(path) && answerUncleanTarget(req, res)) return;
  if (!apiViaNext && req.httpVersionMajor !== 2 && isApiPath(path)) return api.http1(req as http.IncomingMessage, res as http.ServerResponse, target, q);
  // Next.js's route handlers see a WHATWG-parsed URL: they read the target as sent from here (and only from here).
  req.headers[REQUEST_TARGET_HEADER] = target;
  if (req.httpVersionMajor === 2 && nextOverHttp2) return nextOverHttp2(req as http2.Http2ServerRequest, res as http2.Http2ServerResponse);
  if (nextHandler) return void nextHandler(req as http.IncomingMessage, res as http.ServerResponse);
  res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("404 page not found\n");
};
// Every HTTP/2 stream first: the front door's answers and the API are served on node's core stream API.
const apiStream = (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders, rawHeaders: string[]): boolean => {
  const target = headers[":path"];
  if (target === undefined) return false; // CONNECT: node's compatibility layer answers it
  const q = target.indexOf("?");
  const path = q < 0 ? target : target.slice(0, q);
  if (!isPlainPath(path) && answerUncleanTargetOnStream(stream, headers)) return true;
  if (apiViaNext || !isApiPath(path)) return false;
  api.http2(stream, headers, rawHeaders, target, q);
  return true;
};

const { server, closeAll } = createServing({ tls: rt.tls, requestTimeoutSeconds: config.requestTimeoutSeconds }, listener, apiStream);
server.listen(config.port, config.host, () => {
  const scheme = rt.tls ? "https" : "http";
  console.log(`cluster-core listening on ${scheme}://${config.host}:${config.port} (console ${consoleEnabled ? "on" : "off"}); kubeconfig: ${rt.kubeconfigPath}`);
});

let stopping = false;
const shutdown = () => {
  if (stopping) return;
  stopping = true;
  closeAll();
  void rt.close().finally(() => process.exit(0));
};
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
