// One HTTPS GET to an identity provider (discovery document or JWKS), trusting the configured CA bundle or,
// without one, the host's roots (kube's OIDC client does the same). 30 s timeout as kube's client; bodies are
// capped so a hostile or broken endpoint cannot fill memory.
import https from "node:https";

export interface HttpsResponse {
  status: number;
  statusText: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const TIMEOUT_MS = 30_000;
const MAX_BODY_BYTES = 1 << 20;

export function httpsGet(url: string, ca?: string): Promise<HttpsResponse> {
  return new Promise((resolve, reject) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      reject(new Error(`invalid URL ${JSON.stringify(url)}`));
      return;
    }
    if (target.protocol !== "https:") {
      reject(new Error(`${url}: only https URLs are fetched`));
      return;
    }
    const req = https.get(target, { ca, timeout: TIMEOUT_MS, headers: { accept: "application/json" } }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) {
          req.destroy(new Error(`Get ${JSON.stringify(url)}: response larger than ${MAX_BODY_BYTES} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      res.on("error", reject);
      res.on("end", () => resolve({
        status: res.statusCode ?? 0,
        statusText: `${res.statusCode} ${res.statusMessage ?? ""}`.trim(),
        headers: res.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      }));
    });
    req.on("timeout", () => req.destroy(new Error(`Get ${JSON.stringify(url)}: timeout after ${TIMEOUT_MS / 1000}s`)));
    req.on("error", (err) => reject(new Error(`Get ${JSON.stringify(url)}: ${err.message}`)));
  });
}
