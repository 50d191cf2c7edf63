// The console's own calls to its identity provider, beyond what next-auth makes: the discovery document and
// the token endpoint's refresh grant, over HTTPS with the provider's CA when one is given (OIDC_CA_FILE).
// Bounded in time and size; an answer that is not JSON is an Error naming the URL, never the body.
import https from "node:https";

const TIMEOUT_MS = 10_000;
const MAX_BYTES = 1 << 20;

export interface JsonAnswer {
  status: number;
  body: unknown;
}

/** GET, or POST of a form when `form` is given; the answer's status and JSON body. */
export function requestJson(url: string, opts: { ca?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<JsonAnswer> {
  const body = opts.form ? new URLSearchParams(opts.form).toString() : undefined;
  return new Promise((resolve, reject) => {
    const req = https.request(
      url,
      {
        method: body === undefined ? "GET" : "POST",
        ca: opts.ca,
        timeout: TIMEOUT_MS,
        headers: {
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/x-www-form-urlencoded", "content-length": String(Buffer.byteLength(body)) }),
          ...opts.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (c: Buffer) => {
          size += c.length;
          if (size > MAX_BYTES) req.destroy(new Error(`${url}: answer larger than ${MAX_BYTES} bytes`));
          else chunks.push(c);
        });
        res.on("end", () => {
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
          } catch {
            reject(new Error(`${url}: answered ${res.statusCode} without JSON`));
          }
        });
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`${url}: no answer within ${TIMEOUT_MS / 1000} s`)));
    req.on("error", reject);
    req.end(body);
  });
}
