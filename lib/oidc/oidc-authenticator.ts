// The JWT authenticators of one server, from the OIDC_* settings or from AUTHENTICATION_CONFIG, as kube's
// union of them: a token goes to the issuer its unverified `iss` names; none: not ours. The structured file is
// re-read when it changes (polled): a file that does not decode or validate is refused and the last good
// configuration stays, saying why in the log; a valid one takes effect once every issuer's discovery succeeded
// (retried every 10 s until then, the old one serving meanwhile).
import { readFileSync, unwatchFile, watchFile } from "node:fs";
import { decodeAuthenticationConfiguration, type AuthenticationConfiguration } from "./authentication-configuration";
import { ALL_SIGNING_ALGS, JwtAuthenticator, type TokenResult } from "./jwt-authenticator";
import { checkSigningAlgs, jwtAuthenticatorFromFlags, type OidcFlags } from "./oidc-flags";
import { aggregate, validateAuthenticationConfiguration } from "./validation";

export interface OidcAuthenticatorOptions {
  /** The OIDC_* settings; mutually exclusive with configFile (lib/config refuses both). */
  flags?: OidcFlags;
  /** AUTHENTICATION_CONFIG: an AuthenticationConfiguration file. */
  configFile?: string;
  /** The server's own ServiceAccount token issuers: no JWT issuer may be one of them. */
  serviceAccountIssuers: readonly string[];
  log?: (line: string) => void;
  now?: () => number;
  /** How often the file's modification time is polled (ms). Default 1000. */
  pollIntervalMs?: number;
  /** How long a new file's issuers get to pass discovery before the attempt is retried (ms). Default 10000. */
  readyTimeoutMs?: number;
  /** A new version of the file took effect: answers given under the old one must not be reused (token caches). */
  onReload?: () => void;
}

export interface OidcAuthenticator {
  authenticate(token: string): Promise<TokenResult>;
  /** The issuer URLs in force. */
  issuers(): string[];
  close(): void;
}

const RETRY_MS = 10_000;

function build(config: AuthenticationConfiguration, algs: readonly string[], opts: OidcAuthenticatorOptions): JwtAuthenticator[] {
  const { errors, authenticators } = validateAuthenticationConfiguration(config, opts.serviceAccountIssuers);
  if (errors.length) throw new Error(`invalid authentication configuration: ${aggregate(errors)}`);
  return authenticators.map((c) => new JwtAuthenticator(c, { signingAlgs: algs, log: opts.log, now: opts.now }));
}

async function union(authenticators: readonly JwtAuthenticator[], token: string): Promise<TokenResult> {
  const errors: string[] = [];
  for (const a of authenticators) {
    const result = await a.authenticateToken(token);
    if (result.status === "ok") return result;
    if (result.status === "refused") errors.push(result.error);
  }
  if (!errors.length) return { status: "not-ours" };
  return { status: "refused", error: errors.length === 1 ? errors[0] : `[${errors.join(", ")}]` };
}

/** Builds the authenticators, or throws the message that stops the start. Undefined when nothing is configured. */
export function createOidcAuthenticator(opts: OidcAuthenticatorOptions): OidcAuthenticator | undefined {
  if (opts.flags) {
    const algs = checkSigningAlgs(opts.flags.signingAlgs);
    const current = build({ jwt: [jwtAuthenticatorFromFlags(opts.flags)] }, algs, opts);
    return {
      authenticate: (token) => union(current, token),
      issuers: () => current.map((a) => a.issuerURL),
      close: () => current.forEach((a) => a.close()),
    };
  }
  if (!opts.configFile) return undefined;
  return watchedConfig(opts.configFile, opts);
}

function watchedConfig(file: string, opts: OidcAuthenticatorOptions): OidcAuthenticator {
  const log = opts.log ?? (() => undefined);
  const load = (text: string) => {
    try {
      return build(decodeAuthenticationConfiguration(text), ALL_SIGNING_ALGS, opts);
    } catch (err) {
      throw new Error(`failed to load authentication configuration from file ${JSON.stringify(file)}: ${(err as Error).message}`);
    }
  };
  let tracked: string;
  try {
    tracked = readFileSync(file, "utf8");
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new Error(`failed to load authentication configuration from file ${JSON.stringify(file)}: open ${file}: ${e.code === "ENOENT" ? "no such file or directory" : e.message}`);
  }
  let current = load(tracked);
  let closed = false;
  let pending: JwtAuthenticator[] | undefined;
  let retry: NodeJS.Timeout | undefined;

  const reload = async () => {
    if (closed || pending) return;
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (err) {
      log(`authentication config: cannot read ${JSON.stringify(file)}: ${(err as Error).message}; keeping the last good configuration`);
      return;
    }
    if (text === tracked) return;
    let next: JwtAuthenticator[];
    try {
      next = load(text);
    } catch (err) {
      tracked = text; // never valid: wait for the next change
      log(`authentication config: ${(err as Error).message}; keeping the last good configuration`);
      return;
    }
    pending = next;
    const timeout = opts.readyTimeoutMs ?? RETRY_MS;
    let timer: NodeJS.Timeout | undefined;
    const ready = await Promise.race([
      Promise.all(next.map((a) => a.ready)).then(() => true),
      new Promise<boolean>((resolve) => { timer = setTimeout(() => resolve(false), timeout); timer.unref?.(); }),
    ]);
    if (timer) clearTimeout(timer);
    pending = undefined;
    if (closed) {
      next.forEach((a) => a.close());
      return;
    }
    if (!ready) {
      next.forEach((a) => a.close());
      const waiting = next.filter((a) => !a.initialized).map((a) => a.issuerURL);
      log(`authentication config: the new version of ${JSON.stringify(file)} is not in force yet: discovery has not succeeded for ${waiting.map((u) => JSON.stringify(u)).join(", ")}; keeping the last good configuration and retrying in ${RETRY_MS / 1000}s`);
      retry = setTimeout(() => void reload(), RETRY_MS);
      retry.unref?.();
      return;
    }
    const old = current;
    current = next;
    tracked = text;
    old.forEach((a) => a.close());
    opts.onReload?.();
    log(`authentication config: reloaded ${JSON.stringify(file)} (${current.length} JWT issuer${current.length === 1 ? "" : "s"})`);
  };
  watchFile(file, { interval: opts.pollIntervalMs ?? 1000, persistent: false }, () => void reload());
  return {
    authenticate: (token) => union(current, token),
    issuers: () => current.map((a) => a.issuerURL),
    close() {
      closed = true;
      unwatchFile(file);
      if (retry) clearTimeout(retry);
      current.forEach((a) => a.close());
    },
  };
}
