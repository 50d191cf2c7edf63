// Does a byte string decode as a JSON object? The error text is Go's encoding/json's (syntax errors first, then
// the type error of unmarshalling into map[string]interface{}), as Secret dockercfg validation reports it.

const quoteChar = (c: string): string => {
  if (c === "'") return "'\\''";
  if (c === '"') return "'\"'";
  const q = JSON.stringify(c);
  return `'${q.slice(1, -1)}'`;
};

class JsonSyntaxError extends Error {}

const END = "unexpected end of JSON input";

function scanner(text: string) {
  let i = 0;
  const fail = (msg: string): never => {
    throw new JsonSyntaxError(msg);
  };
  const invalid = (context: string): never => (i >= text.length ? fail(END) : fail(`invalid character ${quoteChar(text[i])} ${context}`));
  const skip = () => {
    while (i < text.length && " \t\n\r".includes(text[i])) i++;
  };
  const digit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";

  function literal(word: string): void {
    for (let k = 1; k < word.length; k++) {
      i++;
      if (i >= text.length) fail(END);
      if (text[i] !== word[k]) fail(`invalid character ${quoteChar(text[i])} in literal ${word} (expecting ${quoteChar(word[k])})`);
    }
    i++;
  }

  function string(): void {
    i++;
    for (;;) {
      if (i >= text.length) fail(END);
      const c = text[i];
      if (c === '"') {
        i++;
        return;
      }
      if (c < " ") fail(`invalid character ${quoteChar(c)} in string literal`);
      if (c === "\\") {
        i++;
        if (i >= text.length) fail(END);
        if (text[i] === "u") {
          for (let k = 0; k < 4; k++) {
            i++;
            if (i >= text.length) fail(END);
            if (!/[0-9a-fA-F]/.test(text[i])) fail(`invalid character ${quoteChar(text[i])} in \\u hexadecimal character escape`);
          }
        } else if (!"\"\\/bfnrt".includes(text[i])) {
          fail(`invalid character ${quoteChar(text[i])} in string escape code`);
        }
      }
      i++;
    }
  }

  function number(): void {
    if (text[i] === "-") {
      i++;
      if (!digit(text[i])) invalid("in numeric literal");
    }
    if (text[i] === "0") i++;
    else while (digit(text[i])) i++;
    if (text[i] === ".") {
      i++;
      if (!digit(text[i])) invalid("after decimal point in numeric literal");
      while (digit(text[i])) i++;
    }
    if (text[i] === "e" || text[i] === "E") {
      i++;
      if (text[i] === "+" || text[i] === "-") i++;
      if (!digit(text[i])) invalid("in exponent of numeric literal");
      while (digit(text[i])) i++;
    }
  }

  /** Parses one value; returns its JSON type name. */
  function value(): string {
    skip();
    if (i >= text.length) fail(END);
    const c = text[i];
    if (c === "{") {
      i++;
      skip();
      if (text[i] === "}") {
        i++;
        return "object";
      }
      for (;;) {
        skip();
        if (text[i] !== '"') invalid("looking for beginning of object key string");
        string();
        skip();
        if (text[i] !== ":") invalid("after object key");
        i++;
        value();
        skip();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") {
          i++;
          return "object";
        }
        invalid("after object key:value pair");
      }
    }
    if (c === "[") {
      i++;
      skip();
      if (text[i] === "]") {
        i++;
        return "array";
      }
      for (;;) {
        value();
        skip();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "]") {
          i++;
          return "array";
        }
        invalid("after array element");
      }
    }
    if (c === '"') {
      string();
      return "string";
    }
    if (c === "-" || digit(c)) {
      number();
      return "number";
    }
    if (c === "t") return literal("true"), "bool";
    if (c === "f") return literal("false"), "bool";
    if (c === "n") return literal("null"), "null";
    return invalid("looking for beginning of value");
  }

  return {
    top(): string {
      const type = value();
      skip();
      if (i < text.length) invalid("after top-level value");
      return type;
    },
  };
}

/** Go's json.Unmarshal(bytes, &map[string]interface{}{}) error text, or undefined when it succeeds. */
export function jsonObjectError(text: string): string | undefined {
  try {
    const type = scanner(text).top();
    if (type === "object" || type === "null") return undefined;
    return `json: cannot unmarshal ${type} into Go value of type map[string]interface {}`;
  } catch (e) {
    if (e instanceof JsonSyntaxError) return e.message;
    throw e;
  }
}
