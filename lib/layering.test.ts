// The house's floors, enforced: each folder README's `**Must never import:**` line is a rule that every
// production file under that folder keeps (tests may import anything). A rule names our folders in
// backticks (`lib/storage`, `components`, `app`); `anything of ours` forbids every folder but the README's
// own. Every folder of lib/ (and components/) must state its rule, so a new folder cannot slip in without one.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../", import.meta.url));
const RULE_LINE = /^\*\*Must never import:\*\*(.*)$/m;
const OUR_PATH = /^(lib\/[\w.-]+(\/[\w.-]+)*|components(\/[\w.-]+)*|app(\/[\w.-]+)*|server\.ts)$/;
const SOURCE = /\.(ts|tsx|mts|js|mjs)$/;
const TEST = /\.(test|spec)\.[cm]?[jt]sx?$/;
const NOT_OURS = new Set(["lib/generated"]);

interface Rule { folder: string; forbidden: string[]; everythingOfOurs: boolean }

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(join(root, dir))) {
    const path = `${dir}/${name}`;
    if (NOT_OURS.has(path) || name === "node_modules") continue;
    if (statSync(join(root, path)).isDirectory()) walk(path, out);
    else out.push(path);
  }
  return out;
}

/** Folders that must state a rule: each folder of lib/ (and its sub-folders that have a README), components/. */
function ruledFolders(): string[] {
  const top = readdirSync(join(root, "lib")).map((n) => `lib/${n}`)
    .filter((p) => !NOT_OURS.has(p) && statSync(join(root, p)).isDirectory());
  const nested = walk("lib").filter((p) => p.endsWith("/README.md")).map((p) => dirname(p));
  return [...new Set([...top, ...nested, "components"])].sort();
}

function readRule(folder: string): Rule | undefined {
  const readme = join(root, folder, "README.md");
  if (!existsSync(readme)) return undefined;
  const m = RULE_LINE.exec(readFileSync(readme, "utf8"));
  if (!m) return undefined;
  const forbidden = [...m[1].matchAll(/`([^`]+)`/g)].map((x) => x[1]).filter((p) => OUR_PATH.test(p));
  return { folder, forbidden, everythingOfOurs: /anything of ours/.test(m[1]) };
}

/** Every module specifier a file imports or re-exports, static or dynamic, with its line. */
function importsOf(source: string): { spec: string; line: number }[] {
  const found: { spec: string; line: number }[] = [];
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm;
  for (const m of source.matchAll(pattern)) {
    found.push({ spec: m[1], line: source.slice(0, m.index).split("\n").length });
  }
  return found;
}

/** The repository path an import lands on (a folder's index or a file), or undefined for a package. */
function target(file: string, spec: string): string | undefined {
  if (spec.startsWith("@/")) return spec.slice(2);
  if (!spec.startsWith(".")) return undefined;
  return relative(root, resolve(root, dirname(file), spec));
}

const within = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`)
  || path.startsWith(`${folder}.`);

function violations(rule: Rule): string[] {
  const out: string[] = [];
  for (const file of walk(rule.folder)) {
    if (!SOURCE.test(file) || TEST.test(file)) continue;
    for (const { spec, line } of importsOf(readFileSync(join(root, file), "utf8"))) {
      const to = target(file, spec);
      if (to === undefined || within(to, rule.folder)) continue;
      const ours = OUR_PATH.test(to.replace(/\.(ts|tsx|js|mjs)$/, "")) || to.startsWith("lib/") || to.startsWith("components/");
      const hit = rule.forbidden.find((f) => within(to, f)) ?? (rule.everythingOfOurs && ours ? "anything of ours" : undefined);
      if (hit) out.push(`${file}:${line} imports ${spec} (${rule.folder} must never import ${hit})`);
    }
  }
  return out;
}

describe("layering", () => {
  const folders = ruledFolders();

  it("every folder states what it must never import", () => {
    const missing = folders.filter((f) => !readRule(f));
    expect(missing, "folders whose README lacks a '**Must never import:**' line").toEqual([]);
  });

  it("only the pipeline itself and the composition root import the request pipeline", () => {
    const exempt = ["lib/api", "lib/server"];
    const silent = folders.filter((f) => !exempt.some((e) => within(f, e)))
      .filter((f) => { const r = readRule(f); return r && !r.everythingOfOurs && !r.forbidden.includes("lib/api"); });
    expect(silent, "folders whose rule does not forbid lib/api").toEqual([]);
  });

  for (const folder of folders) {
    it(`${folder} keeps its rule`, () => {
      const rule = readRule(folder);
      if (!rule) throw new Error(`${folder}/README.md has no '**Must never import:**' line`);
      expect(violations(rule)).toEqual([]);
    });
  }

  it("the checker sees a forbidden import (a rule that cannot fail is no rule)", () => {
    const rule: Rule = { folder: "lib/registry", forbidden: ["lib/storage"], everythingOfOurs: false };
    expect(violations(rule).length).toBeGreaterThan(0);
    expect(importsOf('import { x } from "../a";\nexport * from "./b";\nawait import("../c");\nimport "./d";').map((i) => i.spec))
      .toEqual(["../a", "./b", "../c", "./d"]);
  });
});
