// `npm start`: serve the production build, building it first when there is none (or the console is off), and
// the compiled server (`.server/server.mjs`, scripts/build-server.mjs) when it is missing or older than its sources.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { BUNDLE, buildServer, bundleIsStale } from "./build-server.mjs";

const env = { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" };
if (env.CLUSTER_CORE_CONSOLE !== "off" && !existsSync(".next/BUILD_ID")) {
  console.log("No production build yet: running next build first.");
  const build = spawnSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], { stdio: "inherit", env });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
if (bundleIsStale()) {
  console.log("Compiling the server (scripts/build-server.mjs).");
  await buildServer();
}
const server = spawn(process.execPath, [BUNDLE], { stdio: "inherit", env });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => server.kill(sig));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
