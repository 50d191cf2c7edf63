// Compiles server.ts and everything of ours it imports into one ES module, `.server/server.mjs`, so a
// production start loads plain JavaScript instead of compiling TypeScript on the way in (tsx's loader: about
// 1.5 s of a start at low load; issue 23 item 6). Packages stay imports from node_modules. `npm run build` runs
// it; `npm start` (scripts/start.mjs) runs it first when the bundle is missing or older than a file it was built
// from. Source runs (`node --import tsx server.ts`: the tests, `npm run serve`) do not need it.
//   node scripts/build-server.mjs            build
//   node scripts/build-server.mjs --check    exit 1 when the bundle is missing or stale, else 0
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

/** Where the bundle goes by default, relative to the tree. */
export const OUT_DIR = ".server";
export const BUNDLE = path.join(OUT_DIR, "server.mjs");

/** Whether the bundle is missing, or older than one of the files it was built from (or package.json). */
export function bundleIsStale({ root = process.cwd(), outDir = OUT_DIR } = {}) {
  const bundle = path.resolve(root, outDir, "server.mjs");
  const meta = path.resolve(root, outDir, "meta.json");
  if (!existsSync(bundle) || !existsSync(meta)) return true;
  const built = statSync(bundle).mtimeMs;
  let inputs;
  try {
    inputs = Object.keys(JSON.parse(readFileSync(meta, "utf8")).inputs ?? {});
  } catch {
    return true;
  }
  for (const file of [...inputs, "package.json", "tsconfig.json"]) {
    const p = path.resolve(root, file);
    if (!existsSync(p) || statSync(p).mtimeMs > built) return true;
  }
  return false;
}

/** Builds `<outDir>/server.mjs` (with its source map and the list of inputs); returns the bundle's path. */
export async function buildServer({ root = process.cwd(), outDir = OUT_DIR } = {}) {
  const { build } = await import("esbuild");
  const out = path.resolve(root, outDir);
  mkdirSync(out, { recursive: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: ["server.ts"],
    outfile: path.join(out, "server.mjs"),
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: "linked",
    metafile: true,
    logLevel: "warning",
  });
  writeFileSync(path.join(out, "meta.json"), JSON.stringify({ inputs: result.metafile.inputs }) + "\n");
  return path.join(out, "server.mjs");
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.dirname, "build-server.mjs")) {
  if (process.argv.includes("--check")) process.exit(bundleIsStale() ? 1 : 0);
  const t0 = performance.now();
  const bundle = await buildServer();
  console.log(`built ${path.relative(process.cwd(), bundle)} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
