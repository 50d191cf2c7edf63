// Identity providers for tests, reusable by the API tests and the console's Playwright specs:
//  - testCA(dir): a CA and a serving certificate for 127.0.0.1/localhost that the test makes (lib/tls), which
//    the server under test is told to trust (OIDC_CA_FILE or certificateAuthority);
//  - startFakeIssuer(tls): an OpenID issuer of ours over HTTPS whose keys the test controls (jose signs), to
//    mint expired, wrong-audience, unknown-kid, rotated-key and wrong-algorithm tokens, with JWKS caching
//    headers and a fetch counter;
//  - startOidcProvider(tls, ...): a real OpenID provider (the `oidc-provider` package) with its development
//    login pages, a public client with PKCE, and `signIn(login)`, which walks the authorization code flow over
//    HTTP (as a browser would) and returns the provider's ID token.
import { createHash, randomBytes } from "node:crypto";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { CompactSign, exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import { ensureServingCertificate, type ServingCertificate } from "../../lib/tls/certificates";

export async function testCA(dir: string): Promise<ServingCertificate> {
  return ensureServingCertificate({ dataDir: dir });
}

export interface HttpsAnswer { status: number; headers: Record<string, string | string[] | undefined>; text: string }

/** A plain HTTPS request trusting `ca` (no cookies, no redirects followed). */
export function httpsRequest(url: string, opts: { ca: string; method?: string; headers?: Record<string, string>; body?: string }): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const req = https.request(url, { method: opts.method ?? "GET", ca: opts.ca, headers: opts.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(opts.body);
  });
}

interface IssuerKey { kid: string; alg: string; privateKey: CryptoKey; publicJwk: JWK }

export interface FakeIssuer {
  url: string;
  port: number;
  /** Audience tokens get unless told otherwise. */
  audience: string;
  /** Headers sent with the JWKS (e.g. `{ "cache-control": "max-age=300" }`); none by default. */
  jwksHeaders: Record<string, string>;
  /** How often the JWKS was fetched. */
  jwksFetches: number;
  /** The issuer the discovery document states (defaults to url). */
  discoveryIssuer?: string;
  /** Creates a key; published in the JWKS unless `publish: false`. */
  addKey(kid: string, options?: { alg?: string; publish?: boolean }): Promise<void>;
  publish(kid: string): void;
  unpublish(kid: string): void;
  /** A signed token: iss, aud, sub, iat, exp (10 min) defaulted, `claims` merged (undefined removes one). */
  token(claims?: Record<string, unknown>, options?: { kid?: string; alg?: string }): Promise<string>;
  /** Stops answering (connections refused) / answers again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function startFakeIssuer(tls: ServingCertificate, options: { port?: number; listen?: boolean } = {}): Promise<FakeIssuer> {
  const keys = new Map<string, IssuerKey>();
  const published = new Set<string>();
  let defaultKid = "";
  let server: https.Server | undefined;
  let port = options.port ?? 0;
  const issuer: FakeIssuer = {
    url: "",
    port: 0,
    audience: "cluster-core",
    jwksHeaders: {},
    jwksFetches: 0,
    async addKey(kid, opts = {}) {
      const alg = opts.alg ?? "RS256";
      const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
      const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: "sig" };
      keys.set(kid, { kid, alg, privateKey: privateKey as CryptoKey, publicJwk });
      if (opts.publish !== false) published.add(kid);
      defaultKid ||= kid;
    },
    publish: (kid) => { published.add(kid); },
    unpublish: (kid) => { published.delete(kid); },
    async token(claims = {}, opts = {}) {
      const key = keys.get(opts.kid ?? defaultKid);
      if (!key) throw new Error(`no key ${opts.kid ?? defaultKid}`);
      const now = Math.floor(Date.now() / 1000);
      const payload: Record<string, unknown> = { iss: issuer.url, aud: issuer.audience, sub: "user-1", iat: now, exp: now + 600 };
      for (const [k, v] of Object.entries(claims)) {
        if (v === undefined) delete payload[k];
        else payload[k] = v;
      }
      const alg = opts.alg ?? key.alg;
      const header = { alg, kid: key.kid, typ: "JWT" };
      if (alg === "HS256") {
        return new SignJWT(payload).setProtectedHeader(header).sign(randomBytes(32));
      }
      return new CompactSign(new TextEncoder().encode(JSON.stringify(payload))).setProtectedHeader(header).sign(key.privateKey);
    },
    async stop() {
      const s = server;
      server = undefined;
      if (s) await new Promise<void>((resolve) => { s.closeAllConnections(); s.close(() => resolve()); });
    },
    async start() {
      if (server) return;
      const s = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
        const path = (req.url ?? "/").split("?")[0];
        if (path === "/.well-known/openid-configuration") {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify({
            issuer: issuer.discoveryIssuer ?? issuer.url, jwks_uri: `${issuer.url}/jwks`,
            response_types_supported: ["id_token"], subject_types_supported: ["public"],
            id_token_signing_alg_values_supported: ["RS256", "ES256"],
          }));
          return;
        }
        if (path === "/jwks") {
          issuer.jwksFetches++;
          res.writeHead(200, { "content-type": "application/json", ...issuer.jwksHeaders });
          res.end(JSON.stringify({ keys: [...published].map((kid) => keys.get(kid)!.publicJwk) }));
          return;
        }
        res.writeHead(404).end();
      });
      await new Promise<void>((resolve, reject) => { s.once("error", reject); s.listen(port, "127.0.0.1", () => resolve()); });
      port = (s.address() as AddressInfo).port;
      issuer.port = port;
      issuer.url = `https://127.0.0.1:${port}`;
      server = s;
    },
  };
  await issuer.start();
  if (options.listen === false) await issuer.stop();
  return issuer;
}

export interface ProviderAccount { sub: string; email?: string; email_verified?: boolean; groups?: string[]; name?: string }

export interface OidcProviderServer {
  url: string;
  clientId: string;
  redirectUri: string;
  /** Signs `login` in through the login and consent pages (authorization code + PKCE) and returns the ID token. */
  signIn(login: string): Promise<{ idToken: string; refreshToken?: string }>;
  stop(): Promise<void>;
}

/** A real OpenID provider on 127.0.0.1 over HTTPS; accounts are looked up by the login typed on its page. */
export async function startOidcProvider(
  tls: ServingCertificate,
  options: {
    accounts: Record<string, ProviderAccount>;
    clientId?: string;
    /** Absent: a public client (PKCE, no secret), as CONSOLE_OIDC_CLIENT_SECRET unset. */
    clientSecret?: string;
    /** e.g. `<console origin>/api/auth/callback/oidc`; also allowed after logout (end_session). */
    redirectUris?: string[];
    /** Where end_session may send the browser back to (default: the redirect URIs). */
    postLogoutRedirectUris?: string[];
    /** The ID tokens' lifetime (default an hour): short, to see a session refresh them. */
    idTokenTtlSeconds?: number;
    port?: number;
  },
): Promise<OidcProviderServer> {
  const { default: Provider } = await import("oidc-provider");
  const clientId = options.clientId ?? "cluster-core";
  const redirectUri = options.redirectUris?.[0] ?? "https://127.0.0.1/callback";
  const server = https.createServer({ key: tls.key, cert: tls.cert });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", () => resolve()));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const signingJwk = { ...(await exportJWK(privateKey)), kid: "provider-key-1", alg: "RS256", use: "sig" };
  const provider = new Provider(url, {
    clients: [{
      client_id: clientId,
      ...(options.clientSecret ? { client_secret: options.clientSecret, token_endpoint_auth_method: "client_secret_basic" } : { token_endpoint_auth_method: "none" }),
      redirect_uris: options.redirectUris ?? [redirectUri],
      grant_types: ["authorization_code", "refresh_token"], response_types: ["code"],
      post_logout_redirect_uris: options.postLogoutRedirectUris ?? options.redirectUris ?? [redirectUri],
    }],
    jwks: { keys: [signingJwk] },
    scopes: ["openid", "email", "profile", "groups", "offline_access"],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"], groups: ["groups"] },
    conformIdTokenClaims: false,
    ttl: { AccessToken: 3600, IdToken: options.idTokenTtlSeconds ?? 3600, RefreshToken: 86400, Interaction: 3600, Session: 86400, Grant: 86400, AuthorizationCode: 60 },
    cookies: { keys: [randomBytes(16).toString("hex")] },
    features: { devInteractions: { enabled: true } },
    // A refresh token for every client allowed the grant (oidc-provider otherwise wants offline_access with
    // prompt=consent, which a console does not ask for on every sign-in).
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) => client.grantTypeAllowed("refresh_token"),
    async findAccount(_ctx: unknown, id: string) {
      const account = options.accounts[id];
      if (!account) return undefined;
      return { accountId: id, async claims() { return { ...account }; } };
    },
  } as any);
  // Test controls: `/test/token-endpoint/refuse` makes the token endpoint answer invalid_grant (a revoked
  // refresh token, as an administrator or the person would revoke it), `/test/token-endpoint/accept` undoes it.
  let refuseTokens = false;
  const callback = provider.callback();
  server.on("request", (req, res) => {
    const path = (req.url ?? "").split("?")[0];
    if (path === "/test/token-endpoint/refuse" || path === "/test/token-endpoint/accept") {
      refuseTokens = path.endsWith("refuse");
      res.writeHead(204).end();
    } else if (refuseTokens && path === "/token") {
      res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: "invalid_grant", error_description: "grant request is invalid" }));
    } else callback(req, res);
  });

  async function signIn(login: string) {
    const jar = new Map<string, string>();
    const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    const call = async (target: string, init: { method?: string; body?: string } = {}) => {
      const res = await httpsRequest(new URL(target, url).toString(), {
        ca: tls.ca, method: init.method,
        headers: { cookie: cookieHeader(), ...(init.body ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
        body: init.body,
      });
      const set = res.headers["set-cookie"];
      for (const c of Array.isArray(set) ? set : set ? [set] : []) {
        const [pair] = c.split(";");
        const eq = pair.indexOf("=");
        jar.set(pair.slice(0, eq), pair.slice(eq + 1));
      }
      return res;
    };
    const verifier = randomBytes(32).toString("base64url");
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const auth = new URL("/auth", url);
    auth.search = new URLSearchParams({
      client_id: clientId, response_type: "code", redirect_uri: redirectUri, scope: "openid email profile groups offline_access",
      code_challenge: challenge, code_challenge_method: "S256", state: "s", nonce: "n", prompt: "consent",
    }).toString();
    let res = await call(auth.toString());
    let code: string | undefined;
    for (let step = 0; step < 10 && !code; step++) {
      const location = res.headers.location as string | undefined;
      if (location) {
        const next = new URL(location, url);
        if (next.toString().startsWith(redirectUri)) {
          code = next.searchParams.get("code") ?? undefined;
          if (!code) throw new Error(`no code in ${location}`);
          break;
        }
        res = await call(next.toString());
        continue;
      }
      const action = /<form[^>]*action="([^"]+)"/.exec(res.text)?.[1];
      if (!action) throw new Error(`provider page without a form (${res.status}): ${res.text.slice(0, 300)}`);
      const prompt = /name="prompt" value="(\w+)"/.exec(res.text)?.[1];
      const body = prompt === "login"
        ? new URLSearchParams({ prompt, login, password: "any" }).toString()
        : new URLSearchParams({ prompt: prompt ?? "consent" }).toString();
      res = await call(action, { method: "POST", body });
    }
    if (!code) throw new Error("the provider never redirected back with a code");
    const basic: Record<string, string> = options.clientSecret ? { authorization: `Basic ${Buffer.from(`${clientId}:${options.clientSecret}`).toString("base64")}` } : {};
    const token = await httpsRequest(new URL("/token", url).toString(), {
      ca: tls.ca, method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...basic },
      body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: redirectUri, client_id: clientId, code_verifier: verifier }).toString(),
    });
    const parsed = JSON.parse(token.text);
    if (!parsed.id_token) throw new Error(`token endpoint answered ${token.status}: ${token.text}`);
    return { idToken: parsed.id_token as string, refreshToken: parsed.refresh_token as string | undefined };
  }

  return {
    url, clientId, redirectUri, signIn,
    stop: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
