// Duplicate keys in request bodies. kube-apiserver's strict decoder reports `duplicate field "metadata.name"`
// (a warning by default, a 400 with fieldValidation=Strict). JSON.parse and the yaml package keep the last value
// silently, so the raw text is scanned here. Both scans are linear in the input: the yaml package's own
// duplicate check is quadratic (ENVIRONMENT.md "Parsing untrusted input"), so callers parse with
// `uniqueKeys: false` and ask this module instead.
import { isAlias, isMap, isPair, isScalar, isSeq, parseAllDocuments, type Document } from "yaml";

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

interface Frame {
  object: boolean;
  keys: Set<string> | undefined;
  /** The key whose value is being read (objects). */
  key: string;
  /** Index of the element being read (arrays). */
  index: number;
  expectKey: boolean;
}

function framePath(stack: Frame[], depth: number): string {
  let path = "";
  for (let f = 0; f < depth; f++) {
    const frame = stack[f];
    path = frame.object ? join(path, frame.key) : `${path}[${frame.index}]`;
  }
  return path;
}

/**
 * Paths of keys that occur more than once in the same JSON object (`metadata.name`, `spec.containers[0].name`),
 * each time a key repeats, in document order. One pass over the text with no recursion; tolerant of malformed
 * input (reports what it can; parsing errors are the JSON parser's business).
 */
export function findDuplicateJsonKeys(text: string): string[] {
  const found: string[] = [];
  const stack: Frame[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x7b /* { */) {
      stack.push({ object: true, keys: new Set(), key: "", index: 0, expectKey: true });
      i++;
    } else if (c === 0x5b /* [ */) {
      stack.push({ object: false, keys: undefined, key: "", index: 0, expectKey: false });
      i++;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
      i++;
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (top) {
        if (top.object) top.expectKey = true;
        else top.index++;
      }
      i++;
    } else if (c === 0x22 /* " */) {
      let j = i + 1;
      let escaped = false;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === 0x5c /* \ */) {
          escaped = true;
          j += 2;
        } else if (d === 0x22) {
          break;
        } else {
          j++;
        }
      }
      const top = stack[stack.length - 1];
      if (top?.object && top.expectKey) {
        let key = text.slice(i + 1, Math.min(j, n));
        if (escaped) {
          try {
            key = JSON.parse(text.slice(i, j + 1)) as string;
          } catch {
            // Malformed escape: keep the raw text; the JSON parser will refuse the body anyway.
          }
        }
        if (top.keys!.has(key)) found.push(join(framePath(stack, stack.length - 1), key));
        else top.keys!.add(key);
        top.key = key;
        top.expectKey = false;
      }
      i = j + 1;
    } else {
      i++;
    }
  }
  return found;
}

type YamlDocument = Document.Parsed | Document;

function scalarKey(key: unknown): string {
  if (isScalar(key)) {
    const v = key.value;
    return typeof v === "string" ? v : String(v);
  }
  return String(key);
}

/**
 * Paths of duplicated mapping keys in a YAML document, as `findDuplicateJsonKeys` writes them. Takes the text
 * (the first document with contents is checked, as the request decoder picks it) or a document already parsed with `uniqueKeys: false`. Aliases are
 * not followed, so the walk is linear in the document's size.
 */
export function findDuplicateYamlKeys(input: string | YamlDocument): string[] {
  let doc: YamlDocument | undefined;
  if (typeof input === "string") {
    const docs = parseAllDocuments(input, { uniqueKeys: false });
    doc = (Array.isArray(docs) ? docs : [docs]).find((d) => d.contents !== null);
  } else {
    doc = input;
  }
  if (!doc?.contents) return [];
  const found: string[] = [];
  const stack: [unknown, string][] = [[doc.contents, ""]];
  while (stack.length) {
    const [node, path] = stack.pop()!;
    if (isAlias(node)) continue;
    const children: [unknown, string][] = [];
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const key = scalarKey(pair.key);
        if (seen.has(key)) found.push(join(path, key));
        else seen.add(key);
        children.push([pair.value, join(path, key)]);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => children.push([isPair(item) ? item.value : item, `${path}[${index}]`]));
    }
    for (let c = children.length - 1; c >= 0; c--) stack.push(children[c]);
  }
  return found;
}

/** The name the issue uses for `findDuplicateJsonKeys`. */
export const findDuplicateKeys = findDuplicateJsonKeys;
