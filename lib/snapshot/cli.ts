// `npm run snapshot -- save FILE` / `npm run snapshot -- restore FILE`: the store named by DATABASE_URL, or
// by DATA_DIR (default ./data) as the server finds it; `--database-url URL` / `--data-dir DIR` override both.
// Prints one line on success; on failure prints `snapshot: <reason>` and exits 1 (a refused restore changed nothing).
import path from "node:path";
import { loadServerConfig } from "../config/server-config";
import { describeDatabase, restoreSnapshot, saveSnapshot } from "./snapshot-store";

const USAGE = `usage: npm run snapshot -- save FILE [--force]
       npm run snapshot -- restore FILE
options: --data-dir DIR | --database-url URL   (default: DATABASE_URL, else DATA_DIR, else ./data)
         --force                               save: replace FILE if it exists`;

export interface CliArgs {
  command: "save" | "restore";
  file: string;
  databaseUrl: string;
  force: boolean;
}

/** Parses argv (after the script name) and the environment into what to do. Throws an Error with the usage on bad input. */
export function parseArgs(argv: string[], env: Readonly<Record<string, string | undefined>>): CliArgs {
  const positional: string[] = [];
  let dataDir: string | undefined;
  let databaseUrl: string | undefined;
  let force = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = (name: string) => {
      const eq = a.indexOf("=");
      if (eq >= 0) return a.slice(eq + 1);
      const v = argv[++i];
      if (v === undefined) throw new Error(`${name} needs a value\n${USAGE}`);
      return v;
    };
    if (a === "--force") force = true;
    else if (a === "--data-dir" || a.startsWith("--data-dir=")) dataDir = value("--data-dir");
    else if (a === "--database-url" || a.startsWith("--database-url=")) databaseUrl = value("--database-url");
    else if (a === "-h" || a === "--help") throw new Error(USAGE);
    else if (a.startsWith("-")) throw new Error(`unknown option ${a}\n${USAGE}`);
    else positional.push(a);
  }
  const [command, file, ...extra] = positional;
  if ((command !== "save" && command !== "restore") || !file || extra.length) throw new Error(USAGE);
  if (force && command !== "save") throw new Error(`--force applies to save only\n${USAGE}`);
  // Paths typed on the command line are relative to where npm was run (npm runs scripts in the package root).
  const here = env.INIT_CWD || process.cwd();
  // The environment resolves as the server resolves it (lib/config), from these two settings only.
  const url = databaseUrl ?? (dataDir !== undefined ? undefined : env.DATABASE_URL);
  const config = loadServerConfig({ DATA_DIR: dataDir !== undefined ? path.resolve(here, dataDir) : env.DATA_DIR, DATABASE_URL: url });
  return { command, file: path.resolve(here, file), databaseUrl: config.databaseUrl, force };
}

async function main(): Promise<void> {
  let args: CliArgs;
  try {
    args = parseArgs(process.argv.slice(2), process.env);
  } catch (err) {
    console.error((err as Error).message);
    process.exit(2);
  }
  const where = describeDatabase(args.databaseUrl);
  try {
    if (args.command === "save") {
      const r = await saveSnapshot({ databaseUrl: args.databaseUrl, file: args.file, overwrite: args.force });
      console.log(`saved ${where} at revision ${r.revision}: ${r.objects} objects to ${args.file} (sha256 ${r.sha256})`);
    } else {
      const r = await restoreSnapshot({ databaseUrl: args.databaseUrl, file: args.file });
      console.log(`restored ${args.file} into ${where}: revision ${r.revision}, ${r.objects} objects`);
    }
  } catch (err) {
    console.error(`snapshot: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.dirname, "cli.ts")) await main();
