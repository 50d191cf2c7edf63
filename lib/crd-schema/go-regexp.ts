// Go (RE2) regular expressions, as CRD schemas (`pattern`) and CEL (`matches`, `find`) use them, run as
// ECMAScript ones. The common syntax is shared; Go's `(?P<name>`, leading `(?i)`/`(?s)`/`(?m)` flags and `\z`
// are translated, and a pattern that still does not compile as ECMAScript is not held against the user (it
// matches everything) unless Go would refuse it too. Go refusals are named with Go's messages.

const cache = new Map<string, RegExp | null>();

function translate(pattern: string): { source: string; flags: string } {
  let source = pattern;
  let flags = "";
  const lead = /^\(\?([ims]+)\)/.exec(source);
  if (lead) {
    flags = [...new Set(lead[1])].join("");
    source = source.slice(lead[0].length);
  }
  source = source.replace(/\(\?P</g, "(?<").replace(/\\z/g, "$").replace(/\\A/g, "^");
  return { source, flags };
}

/** The pattern as an ECMAScript RegExp, or null when it cannot be one. */
export function compileGoPattern(pattern: string): RegExp | null {
  let re = cache.get(pattern);
  if (re === undefined) {
    const { source, flags } = translate(pattern);
    re = null;
    for (const mode of ["u", ""]) {
      try {
        re = new RegExp(source, flags + mode);
        break;
      } catch {
        // unicode mode refuses identity escapes (`\/`, `\:`) that Go and non-unicode mode accept
      }
    }
    cache.set(pattern, re);
  }
  return re;
}

/** Go's regexp.Compile error for the refusals it certainly makes (unbalanced groups and classes, a trailing
 *  backslash, a repetition with nothing to repeat), or undefined. */
export function goRegexpError(pattern: string): string | undefined {
  const fail = (what: string, at: string) => `error parsing regexp: ${what}: \`${at}\``;
  let depth = 0;
  let classStart = -1;
  let prevRepeat = false;
  let atomBefore = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      if (i === pattern.length - 1) return fail("trailing backslash at end of expression", "");
      i++;
      prevRepeat = false;
      atomBefore = true;
      continue;
    }
    if (classStart >= 0) {
      if (c === "]" && i > classStart + 1 && !(i === classStart + 2 && pattern[classStart + 1] === "^")) classStart = -1;
      continue;
    }
    if (c === "[") {
      classStart = i;
      prevRepeat = false;
      atomBefore = true;
    } else if (c === "(") {
      depth++;
      prevRepeat = false;
      atomBefore = false;
      if (pattern[i + 1] === "?") i++;
    } else if (c === ")") {
      if (depth === 0) return fail("unexpected )", pattern);
      depth--;
      prevRepeat = false;
      atomBefore = true;
    } else if (c === "*" || c === "+" || c === "?") {
      if (prevRepeat && c !== "?") return fail("invalid nested repetition operator", pattern.slice(i - 1, i + 1));
      if (!atomBefore && !prevRepeat) return fail("missing argument to repetition operator", c);
      prevRepeat = c !== "?" || !prevRepeat;
      atomBefore = false;
    } else if (c === "|") {
      prevRepeat = false;
      atomBefore = false;
    } else {
      prevRepeat = false;
      atomBefore = c !== "^";
    }
  }
  if (classStart >= 0) return fail("missing closing ]", pattern.slice(classStart));
  if (depth > 0) return fail("missing closing )", pattern);
  return undefined;
}
