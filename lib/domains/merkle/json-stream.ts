// A streaming JSON tokenizer over UTF-8 bytes: feed it chunks as they arrive, it calls a handler per
// token and keeps only the token in progress. A tree upload of a million leaves is ~250 MB of JSON;
// JSON.parse would hold that string plus ~5 million small objects. The tokenizer validates the grammar
// (RFC 8259) itself; strings with escapes are decoded by JSON.parse on the string alone.
// Why not a library: the maintained streaming parsers (stream-json, @streamparser/json) emit values
// through path/event objects per token and decode every byte to a JS string first; this reader needs only
// tokens of one known shape, and its hot loop is a byte scan (throughput: docs/seed-and-bench.md "Benchmarks").

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(`${message} at byte ${position}`);
  }
}

export interface JsonHandler {
  startObject(): void;
  endObject(): void;
  startArray(): void;
  endArray(): void;
  key(name: string): void;
  string(value: string): void;
  /** The number's text exactly as written (the reader decides how to read it, e.g. as a bigint). */
  number(raw: string): void;
  /**
   * A whole number of at most 15 digits written plainly (no sign, fraction, exponent nor leading zero), as its value:
   * a tree's million treeIndexes are read without a string each. Without this method, such numbers go to number().
   */
  integer?(value: number): void;
  literal(value: boolean | null): void;
  /**
   * Whether the string value about to be read is wanted as its raw bytes (bytes() instead of string()): the
   * hex members of a tree dump, which the handler decodes and checks itself, byte by byte. Such a string is
   * not decoded into a JS string nor checked here beyond finding its end (a string with an escape, or one
   * that spans two chunks, still goes to string()).
   */
  wantsBytes?(): boolean;
  bytes?(buf: Buffer, start: number, end: number): void;
  /** The document is complete and valid JSON (called by JsonTokenizer.end()). */
  end?(): void;
}

export type TokenizerLimits = { maxDepth: number; maxStringBytes: number };

// What the grammar allows next.
const VALUE = 0;
const VALUE_OR_END = 1; // right after "["
const KEY_OR_END = 2; // right after "{"
const KEY = 3; // after "," in an object
const COLON = 4;
const COMMA_OR_END = 5;
const DONE = 6;
// The token being read across chunk boundaries.
const NONE = 0;
const STRING = 1;
const WORD = 2;

const OBJECT = 1;
const ARRAY = 2;
const MAX_WORD = 512;
const MAX_KNOWN_KEYS = 16;
const MAX_KNOWN_KEY_LENGTH = 64;
const NUMBER_TEXT = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

export class JsonTokenizer {
  private expect = VALUE;
  private token = NONE;
  private readonly stack: Uint8Array;
  private depth = 0;
  private base = 0;
  private started = false;
  // String state.
  private isKey = false;
  private escaped = false;
  private hasEscape = false;
  private nonAscii = false;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private tokenStart = 0;
  // Number or literal state.
  private word = "";
  /** Keys read so far (knownKey), as their bytes and their string. */
  private readonly keys: { bytes: Buffer; text: string }[] = [];
  /** The chunk's first backslash after the last string looked at (Infinity: none); -1 before the first look. */
  private backslashAt = -1;

  constructor(
    private readonly handler: JsonHandler,
    private readonly limits: TokenizerLimits,
  ) {
    this.stack = new Uint8Array(limits.maxDepth + 1);
  }

  write(chunk: Uint8Array): void {
    const buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let i = 0;
    if (!this.started && buf.length > 0) {
      this.started = true;
      if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) i = 3; // a UTF-8 byte order mark
    }
    const n = buf.length;
    this.backslashAt = -1;
    while (i < n) {
      if (this.token === STRING) {
        i = this.continueString(buf, i);
      } else if (this.token === WORD) {
        i = this.continueWord(buf, i);
      } else {
        const c = buf[i];
        if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
        else if (c === 0x22 && (this.expect === KEY || this.expect === KEY_OR_END)) i = this.knownKey(buf, i);
        else if (c === 0x22 && this.handler.wantsBytes?.()) i = this.bytesString(buf, i);
        else if (c >= 0x30 && c <= 0x39 && this.handler.integer) i = this.integer(buf, i);
        else this.structural(c, i++);
      }
    }
    this.base += n;
  }

  end(): void {
    if (this.token === WORD) this.finishWord(this.base);
    if (this.token === STRING) throw new JsonSyntaxError("unterminated string", this.tokenStart);
    if (this.expect !== DONE) throw new JsonSyntaxError("unexpected end of JSON", this.base);
    this.handler.end?.();
  }

  private fail(message: string, at: number): never {
    throw new JsonSyntaxError(message, this.base + at);
  }

  private structural(c: number, at: number): void {
    switch (c) {
      case 0x7b: // {
      case 0x5b: // [
        this.valueAllowed(at);
        if (this.depth === this.limits.maxDepth) this.fail(`nesting deeper than ${this.limits.maxDepth}`, at);
        this.stack[++this.depth] = c === 0x7b ? OBJECT : ARRAY;
        this.expect = c === 0x7b ? KEY_OR_END : VALUE_OR_END;
        if (c === 0x7b) this.handler.startObject();
        else this.handler.startArray();
        return;
      case 0x7d: // }
        if (this.stack[this.depth] !== OBJECT || (this.expect !== KEY_OR_END && this.expect !== COMMA_OR_END))
          this.fail("unexpected }", at);
        this.depth--;
        this.handler.endObject();
        this.afterValue();
        return;
      case 0x5d: // ]
        if (this.stack[this.depth] !== ARRAY || (this.expect !== VALUE_OR_END && this.expect !== COMMA_OR_END))
          this.fail("unexpected ]", at);
        this.depth--;
        this.handler.endArray();
        this.afterValue();
        return;
      case 0x2c: // ,
        if (this.expect !== COMMA_OR_END) this.fail("unexpected ,", at);
        this.expect = this.stack[this.depth] === OBJECT ? KEY : VALUE;
        return;
      case 0x3a: // :
        if (this.expect !== COLON) this.fail("unexpected :", at);
        this.expect = VALUE;
        return;
      case 0x22: // "
        this.isKey = this.expect === KEY_OR_END || this.expect === KEY;
        if (!this.isKey) this.valueAllowed(at);
        this.token = STRING;
        this.tokenStart = this.base + at;
        this.escaped = this.hasEscape = this.nonAscii = false;
        return;
    }
    if (c === 0x2d || (c >= 0x30 && c <= 0x39) || c === 0x74 || c === 0x66 || c === 0x6e) {
      this.valueAllowed(at);
      this.token = WORD;
      this.tokenStart = this.base + at;
      this.word = String.fromCharCode(c);
      return;
    }
    this.fail(`unexpected character ${JSON.stringify(String.fromCharCode(c))}`, at);
  }

  private valueAllowed(at: number): void {
    if (this.expect !== VALUE && this.expect !== VALUE_OR_END) {
      this.fail(this.expect === DONE ? "unexpected data after the JSON value" : "a value is not allowed here", at);
    }
  }

  private afterValue(): void {
    this.expect = this.depth === 0 ? DONE : COMMA_OR_END;
  }

  /** Where the string opening at `at` closes in this chunk, or -1 when it has an escape or goes on past the chunk. */
  private plainStringEnd(buf: Buffer, at: number): number {
    const close = buf.indexOf(0x22, at + 1);
    if (close >= 0 && this.backslashAt < at) {
      const found = buf.indexOf(0x5c, at + 1);
      this.backslashAt = found < 0 ? Number.POSITIVE_INFINITY : found;
    }
    return close < 0 || this.backslashAt < close ? -1 : close;
  }

  /**
   * A key from its opening quote at `at`: one already seen (the same few keys repeat a million times in a tree
   * upload) is handed over as the string read the first time, without decoding or allocating; else it is read
   * as any string, and remembered.
   */
  private knownKey(buf: Buffer, at: number): number {
    const close = this.plainStringEnd(buf, at);
    if (close >= 0) {
      const length = close - at - 1;
      for (const known of this.keys) {
        if (known.bytes.length === length && sameBytes(buf, at + 1, known.bytes)) {
          this.expect = COLON;
          this.handler.key(known.text);
          return close + 1;
        }
      }
    }
    this.structural(0x22, at);
    return at + 1;
  }

  /**
   * A string value the handler takes as bytes, from its opening quote at `at`: when it ends in this chunk
   * without an escape, handed over as is (the closing quote found by a native search); else read as any string.
   */
  private bytesString(buf: Buffer, at: number): number {
    this.valueAllowed(at);
    const close = this.plainStringEnd(buf, at);
    if (close < 0 || close - at - 1 > this.limits.maxStringBytes) {
      this.structural(0x22, at);
      return at + 1;
    }
    this.handler.bytes!(buf, at + 1, close);
    this.afterValue();
    return close + 1;
  }

  /**
   * A number from its first digit at `at`: a plain whole number of at most 15 digits that ends in this chunk goes to
   * handler.integer; anything else (a fraction, an exponent, a leading zero, a longer one, or one that may go on in the
   * next chunk) is read as a word, which also reports its errors.
   */
  private integer(buf: Buffer, at: number): number {
    const n = buf.length;
    let j = at;
    let value = 0;
    for (; j < n && j - at < 16; j++) {
      const digit = buf[j] - 48;
      if (digit < 0 || digit > 9) break;
      value = value * 10 + digit;
    }
    const next = j < n ? buf[j] : -1;
    const wordGoesOn = next < 0 || (next >= 0x30 && next <= 0x39) || (next >= 0x61 && next <= 0x7a);
    const plain = j - at <= 15 && (buf[at] !== 0x30 || j - at === 1);
    if (!plain || wordGoesOn || next === 0x2e || next === 0x2b || next === 0x2d || next === 0x45) {
      this.structural(buf[at], at);
      return at + 1;
    }
    this.valueAllowed(at);
    this.handler.integer!(value);
    this.afterValue();
    return j;
  }

  /** Reads string bytes up to the closing quote; returns where reading stopped. */
  private continueString(buf: Buffer, from: number): number {
    const n = buf.length;
    let j = from;
    let escaped = this.escaped;
    for (; j < n; j++) {
      const c = buf[j];
      if (escaped) escaped = false;
      else if (c === 0x22) break;
      else if (c === 0x5c) escaped = this.hasEscape = true;
      else if (c < 0x20) this.fail("control character in string", j);
      else if (c >= 0x80) this.nonAscii = true;
    }
    this.escaped = escaped;
    const size = this.pendingBytes + (j - from);
    if (size > this.limits.maxStringBytes) {
      throw new JsonSyntaxError(`string longer than ${this.limits.maxStringBytes} bytes`, this.tokenStart);
    }
    if (j === n) {
      this.pending.push(Buffer.from(buf.subarray(from, j))); // a copy: the chunk is not ours to keep
      this.pendingBytes = size;
      return n;
    }
    const encoding = this.nonAscii ? "utf8" : "latin1";
    let text = this.pending.length
      ? Buffer.concat([...this.pending, buf.subarray(from, j)]).toString(encoding)
      : buf.toString(encoding, from, j);
    this.pending = [];
    this.pendingBytes = 0;
    this.token = NONE;
    if (this.hasEscape) {
      try {
        text = JSON.parse(`"${text}"`) as string;
      } catch {
        throw new JsonSyntaxError("invalid escape in string", this.tokenStart);
      }
    }
    if (this.isKey) {
      this.expect = COLON;
      if (!this.hasEscape && this.keys.length < MAX_KNOWN_KEYS && text.length <= MAX_KNOWN_KEY_LENGTH)
        this.keys.push({ bytes: Buffer.from(text, this.nonAscii ? "utf8" : "latin1"), text });
      this.handler.key(text);
    } else {
      this.handler.string(text);
      this.afterValue();
    }
    return j + 1;
  }

  /** Reads a number or literal up to the first byte that cannot continue it. */
  private continueWord(buf: Buffer, from: number): number {
    const n = buf.length;
    let j = from;
    for (; j < n; j++) {
      const c = buf[j];
      const wordByte =
        (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) || c === 0x2e || c === 0x2b || c === 0x2d || c === 0x45;
      if (!wordByte) break;
    }
    this.word += buf.toString("latin1", from, j);
    if (this.word.length > MAX_WORD) throw new JsonSyntaxError("number too long", this.tokenStart);
    if (j < n) this.finishWord(this.base + j);
    return j;
  }

  private finishWord(position: number): void {
    const word = this.word;
    this.token = NONE;
    this.word = "";
    if (word === "true" || word === "false") this.handler.literal(word === "true");
    else if (word === "null") this.handler.literal(null);
    else if (NUMBER_TEXT.test(word)) this.handler.number(word);
    else throw new JsonSyntaxError(`invalid token ${JSON.stringify(word.slice(0, 40))}`, position - word.length);
    this.afterValue();
  }
}

/**
 * Whether buf holds `bytes` at `at`. A byte loop: for keys of a few bytes, Buffer.compare's call into C++ costs more
 * than the comparison (8 % of reading a dump in the profile).
 */
function sameBytes(buf: Buffer, at: number, bytes: Buffer): boolean {
  for (let k = 0; k < bytes.length; k++) if (buf[at + k] !== bytes[k]) return false;
  return true;
}
