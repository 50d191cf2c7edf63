// Generic layers must not special-case a kind: every kind-specific rule belongs in lib/kinds. This scans the
// source (not the tests) of lib/registry, lib/storage and lib/api for every kind:
// - a Kind name (`ConfigMap`) anywhere in code, string literals included;
// - a plural (`configmaps`) inside a string literal, where a resource name would be compared or built.
// Comments are prose and are not scanned, and a bare identifier such as `events` (a storage log's watch events)
// is ordinary vocabulary; both would otherwise make the rule unusable.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { kinds } from "./index";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const scannedFolders = ["lib/registry", "lib/storage", "lib/api"];
const sourceFile = /\.(ts|tsx|js|mjs|cjs)$/;
const testFile = /\.(test|spec)\.[cm]?[jt]sx?$/;

/**
 * Splits source into two same-length views (newlines kept, so line numbers match): `code`, with comments
 * blanked, and `strings`, with only the contents of string and template literals kept.
 */
function splitSource(source: string): { code: string; strings: string } {
  const code = source.split("");
  const strings: string[] = source.split("").map((c) => (c === "\n" ? "\n" : " "));
  const blank = (i: number) => {
    if (code[i] !== "\n") code[i] = " ";
  };
  const keep = (i: number) => {
    if (i < source.length) strings[i] = source[i];
  };
  type Mode = "code" | "line" | "block" | "'" | '"' | "`";
  let mode: Mode = "code";
  // Open braces in code; "template" marks a `${` whose closing brace returns to the template literal.
  const braces: ("brace" | "template")[] = [];
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    const next = source[i + 1];
    if (mode === "code") {
      if (c === "/" && next === "/") {
        mode = "line";
        blank(i);
      } else if (c === "/" && next === "*") {
        mode = "block";
        blank(i);
      } else if (c === "'" || c === '"' || c === "`") {
        mode = c;
      } else if (c === "{") {
        braces.push("brace");
      } else if (c === "}" && braces.pop() === "template") {
        mode = "`";
      }
    } else if (mode === "line") {
      if (c === "\n") mode = "code";
      else blank(i);
    } else if (mode === "block") {
      blank(i);
      if (c === "*" && next === "/") {
        blank(i + 1);
        i++;
        mode = "code";
      }
    } else if (c === "\\") {
      keep(i);
      keep(i + 1);
      i++;
    } else if (c === mode) {
      mode = "code";
    } else if (mode === "`" && c === "$" && next === "{") {
      braces.push("template");
      mode = "code";
      i++;
    } else if (c === "\n" && mode !== "`") {
      mode = "code"; // unterminated string: resynchronise at the end of the line
    } else {
      keep(i);
    }
  }
  return { code: code.join(""), strings: strings.join("") };
}

// A name bounded by anything but letters, digits, "-" and "_" (so "initial-events-end" is not the plural "events").
const word = (name: string) => new RegExp(`(?<![-\\w])${name}(?![-\\w])`);
const kindNames = kinds.map((k) => ({ name: k.kind, pattern: word(k.kind) }));
// `namespaces` is also the scope segment of every namespaced URL (`/api/v1/namespaces/{ns}/pods`): generic
// routing and selfLinks must spell it, so the plural is not flagged; the Kind name still is.
const urlGrammar = new Set(["namespaces"]);
const plurals = kinds.filter((k) => !urlGrammar.has(k.plural)).map((k) => ({ name: k.plural, pattern: word(k.plural) }));

/** `file:line: name` for every kind named in the source. */
function findKindNames(file: string, source: string): string[] {
  const { code, strings } = splitSource(source);
  const codeLines = code.split("\n");
  const stringLines = strings.split("\n");
  const found: string[] = [];
  codeLines.forEach((line, i) => {
    for (const { name, pattern } of kindNames) if (pattern.test(line)) found.push(`${file}:${i + 1}: ${name}`);
    for (const { name, pattern } of plurals) if (pattern.test(stringLines[i])) found.push(`${file}:${i + 1}: "${name}"`);
  });
  return found;
}

function sourceFiles(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return []; // the folder does not exist yet
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry);
    // `fixtures/` holds tests' data (answers of real kinds to compare with), not code that runs.
    if (statSync(path).isDirectory()) return entry === "node_modules" || entry === "fixtures" ? [] : sourceFiles(path);
    return sourceFile.test(entry) && !testFile.test(entry) ? [path] : [];
  });
}

describe("generic layers name no kind", () => {
  it("finds names in code and strings but not in comments or bare identifiers", () => {
    const source = [
      '// Pods are deleted gracefully; see "pods" in lib/kinds',
      "/* a ConfigMap */ const events = log.events;",
      'if (info.resource === "pods") grace();',
      "const url = `/api/v1/${ns}/services`;",
      "if (obj.kind === 'ServiceAccount') {}",
      "type WatchEvent = { type: string }; const ServiceUnavailable = 503;",
    ].join("\n");
    expect(findKindNames("f.ts", source)).toEqual(['f.ts:3: "pods"', 'f.ts:4: "services"', "f.ts:5: ServiceAccount"]);
  });

  it("lib/registry, lib/storage and lib/api contain no kind names", () => {
    const found = scannedFolders.flatMap((folder) =>
      sourceFiles(join(repoRoot, folder)).flatMap((file) => findKindNames(relative(repoRoot, file), readFileSync(file, "utf8"))),
    );
    expect(found, `kind-specific code belongs in lib/kinds:\n${found.join("\n")}`).toEqual([]);
  });
});
