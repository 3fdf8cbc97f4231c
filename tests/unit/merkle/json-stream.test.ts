import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { JsonSyntaxError, JsonTokenizer, type JsonHandler } from "@/lib/domains/merkle/json-stream";

/** Rebuilds the value from the tokens (numbers through Number, as JSON.parse reads them). */
class Rebuild implements JsonHandler {
  stack: any[] = [];
  keys: (string | null)[] = [];
  result: unknown;
  protected put(v: unknown) {
    if (!this.stack.length) this.result = v;
    else if (Array.isArray(this.stack.at(-1))) this.stack.at(-1).push(v);
    // defineProperty, not assignment: a "__proto__" key must become an own property, as JSON.parse makes it.
    else
      Object.defineProperty(this.stack.at(-1), this.keys.at(-1)!, {
        value: v,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  startObject() {
    const o = {};
    this.put(o);
    this.stack.push(o);
    this.keys.push(null);
  }
  endObject() {
    this.stack.pop();
    this.keys.pop();
  }
  startArray() {
    const a: unknown[] = [];
    this.put(a);
    this.stack.push(a);
    this.keys.push(null);
  }
  endArray() {
    this.stack.pop();
    this.keys.pop();
  }
  key(k: string) {
    this.keys[this.keys.length - 1] = k;
  }
  string(s: string) {
    this.put(s);
  }
  number(raw: string) {
    this.put(Number(raw));
  }
  literal(v: boolean | null) {
    this.put(v);
  }
}

/** Takes every string value as bytes (JsonHandler.wantsBytes), as the tree reader takes hex: the same values. */
class RebuildFromBytes extends Rebuild {
  wantsBytes() {
    return true;
  }
  bytes(buf: Buffer, start: number, end: number) {
    this.string(buf.toString("utf8", start, end));
  }
}

/** Takes plain whole numbers as values (JsonHandler.integer), as the tree reader takes treeIndexes: the same values. */
class RebuildIntegers extends Rebuild {
  integers = 0;
  integer(value: number) {
    this.integers++;
    this.put(value);
  }
}

function tokenize(text: string | Uint8Array, cuts: number[] = [], handler = new Rebuild()) {
  const bytes = typeof text === "string" ? Buffer.from(text) : text;
  const t = new JsonTokenizer(handler, { maxDepth: 64, maxStringBytes: 1 << 20 });
  let at = 0;
  for (const cut of [...cuts.filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b), bytes.length]) {
    t.write(bytes.subarray(at, cut));
    at = cut;
  }
  t.end();
  return handler.result;
}

/** Any JSON value, its text cut into chunks anywhere, is read back whole by the handler `make` gives. */
function rebuildsAnyValueCutAnywhere(make: () => Rebuild) {
  fc.assert(
    fc.property(fc.jsonValue(), fc.array(fc.nat(), { maxLength: 6 }), (value, cuts) => {
      const text = JSON.stringify(value);
      const limit = Buffer.byteLength(text);
      const read = tokenize(
        text,
        cuts.map((c) => c % (limit + 1)),
        make(),
      );
      expect(read).toEqual(JSON.parse(text));
    }),
    { numRuns: 400 },
  );
}

describe("JsonTokenizer", () => {
  it("reads what JSON.parse reads, however the bytes are split", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.array(fc.nat(), { maxLength: 6 }), fc.boolean(), (value, cuts, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        const limit = Buffer.byteLength(text);
        expect(
          tokenize(
            text,
            cuts.map((c) => c % (limit + 1)),
          ),
        ).toEqual(JSON.parse(text));
      }),
      { numRuns: 400 },
    );
  });

  it("hands string values over as bytes to a handler that wants them, or as strings when escaped or split", () => {
    rebuildsAnyValueCutAnywhere(() => new RebuildFromBytes());
    const text = JSON.stringify({ a: ["0x12ab", 'q"uote', "x"], a2: "0x12ab" });
    for (let cut = 1; cut < text.length; cut++)
      expect(tokenize(text, [cut], new RebuildFromBytes())).toEqual(JSON.parse(text));
  });

  it("hands plain whole numbers to a handler that takes them, and other numbers as text", () => {
    rebuildsAnyValueCutAnywhere(() => new RebuildIntegers());
    const text = "[0,7,123456789012345,1234567890123456,1.5,2e3,-4,10]";
    const handler = new RebuildIntegers();
    expect(tokenize(text, [], handler)).toEqual(JSON.parse(text));
    expect(handler.integers).toBe(4); // 0, 7, the 15 digits, 10
    for (let cut = 1; cut < text.length; cut++)
      expect(tokenize(text, [cut], new RebuildIntegers())).toEqual(JSON.parse(text));
    for (const bad of ["[01]", "[1 2]", "[1]2", "[1e]", "[1x]", '{"a":01}'])
      expect(() => tokenize(bad, [], new RebuildIntegers()), bad).toThrow(JsonSyntaxError);
  });

  it("decodes escapes and multi-byte characters split across chunks", () => {
    const text = JSON.stringify({ 'k"ey': "a\\b\n\u0001é😀", emoji: "😀😀" });
    const bytes = Buffer.from(text);
    for (let cut = 1; cut < bytes.length; cut++) expect(tokenize(bytes, [cut])).toEqual(JSON.parse(text));
  });

  it("skips a UTF-8 byte order mark", () => {
    expect(tokenize(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')]))).toEqual({ a: 1 });
  });

  it("rejects what JSON.parse rejects", () => {
    for (const bad of [
      "",
      "{",
      '{"a":1,}',
      "[1,]",
      "[1 2]",
      '{"a" 1}',
      '{"a":01}',
      "[1.]",
      "[-]",
      "[tru]",
      "[nul]",
      '["a\u0001"]',
      '["\\x"]',
      '{"a":1}}',
      '{"a":1} x',
      "[1]2",
      "{a:1}",
      "'a'",
      '["abc',
      "[1e]",
      "[+1]",
      '{"a":1 "b":2}',
      "]",
      ":",
    ]) {
      expect(() => JSON.parse(bad), bad).toThrow();
      expect(() => tokenize(bad), bad).toThrow(JsonSyntaxError);
    }
  });

  it("enforces its depth and string limits", () => {
    const t = () => new JsonTokenizer(new Rebuild(), { maxDepth: 3, maxStringBytes: 8 });
    expect(() => t().write(Buffer.from("[[[[1]]]]"))).toThrow(/nesting deeper than 3/);
    expect(() => t().write(Buffer.from('["123456789"]'))).toThrow(/longer than 8 bytes/);
  });
});
