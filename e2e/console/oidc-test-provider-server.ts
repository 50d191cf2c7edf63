// Runs the console e2e tests' identity provider (a real `oidc-provider` over HTTPS, e2e/api/oidc-issuers.ts)
// until killed: `node --import tsx e2e/console/oidc-test-provider-server.ts <dataDir> <providerPort> <consolePort>`.
// Writes its CA to <dataDir>/oidc-ca.crt, then the server's settings to <dataDir>/oidc.env (last, as the
// "ready" signal start-server.sh waits for).
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startOidcProvider, testCA } from "../api/oidc-issuers";
import { OIDC_ACCOUNTS, OIDC_CLIENT_ID, OIDC_ID_TOKEN_TTL_SECONDS, serverSettings } from "./oidc-test-provider";

const [dataDir, providerPort, consolePort] = process.argv.slice(2);
if (!dataDir || !providerPort || !consolePort) throw new Error("usage: oidc-test-provider-server.ts <dataDir> <providerPort> <consolePort>");
const dir = path.join(dataDir, "oidc-provider");
mkdirSync(dir, { recursive: true });
const tls = await testCA(dir);
const caFile = path.join(dataDir, "oidc-ca.crt");
writeFileSync(caFile, tls.ca);
const console_ = `https://127.0.0.1:${consolePort}`;
const provider = await startOidcProvider(tls, {
  accounts: OIDC_ACCOUNTS,
  clientId: OIDC_CLIENT_ID,
  redirectUris: [`${console_}/api/auth/callback/oidc`],
  postLogoutRedirectUris: [`${console_}/signin`],
  idTokenTtlSeconds: OIDC_ID_TOKEN_TTL_SECONDS,
  port: Number(providerPort),
});
const env = Object.entries(serverSettings(provider.url, caFile))
  .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
  .join("\n");
writeFileSync(path.join(dataDir, "oidc.env.tmp"), `${env}\n`);
renameSync(path.join(dataDir, "oidc.env.tmp"), path.join(dataDir, "oidc.env"));
console.log(`test OpenID provider on ${provider.url}`);
