// Text made storable (lib/core/text.ts), bodies with lone surrogates refused, and data exceptions answered 400.
import { describe, expect, it } from "vitest";
import { toHttpError } from "@/lib/core/errors";
import { parseJsonText } from "@/lib/core/json";
import { storableJson, storableText } from "@/lib/core/text";

describe("storableText", () => {
  it("replaces lone surrogates, high and low, and keeps pairs", () => {
    expect(storableText("a\ud800b\udc00c😀", 100)).toBe("a\ufffdb\ufffdc😀");
  });
  it("removes NUL and every control, keeping line breaks only when asked", () => {
    expect(storableText("a\u0000b\u0007c\u0085d\u007f\te\nf", 100)).toBe("abcdef");
    expect(storableText("a\u0000\tb\r\nc\u001b", 100, true)).toBe("a\tb\r\nc");
  });
  it("keeps bidi overrides and zero-width characters", () => {
    expect(storableText("x\u202ey\u200dz", 100)).toBe("x\u202ey\u200dz");
  });
  it("cuts at a code point, never inside a pair, and reads a megabyte without scanning it all", () => {
    expect(storableText("ab😀", 3)).toBe("ab");
    expect(storableText("abc😀", 4)).toBe("abc");
    expect(storableText("N".repeat(1 << 20), 256)).toHaveLength(256);
    expect(storableText(42, 10)).toBe("");
  });
});

describe("storableJson", () => {
  it("returns clean JSON text as it is, and rewrites escapes jsonb refuses", () => {
    const clean = '{"a":"b\\n"}';
    expect(storableJson(clean)).toBe(clean);
    expect(JSON.parse(storableJson('{"a\\ud800":["x\\udc00","\\u0000y"]}'))).toEqual({ "a\ufffd": ["x\ufffd", "y"] });
  });
});

describe("parseJsonText", () => {
  it("refuses a lone surrogate with a 400 naming the member, value or key", () => {
    expect(() => parseJsonText('{"token":{"name":"Fr\\ud800og"}}')).toThrowError(
      "token.name: holds a lone surrogate: text must be well-formed Unicode",
    );
    expect(() => parseJsonText('{"list":[{"\\udc00":1}]}')).toThrowError(/^list\.0\.\ufffd: /);
    expect(() => parseJsonText('"\\ud800"')).toThrowError(/^\(the body\): /);
  });
  it("takes pairs written as escapes, and an escaped backslash before u", () => {
    expect(parseJsonText('{"e":"\\ud83d\\ude00","t":"\\\\ud800"}')).toEqual({ e: "😀", t: "\\ud800" });
  });
});

describe("toHttpError", () => {
  it("answers a data exception with a 400 naming the type, not the value", () => {
    const error = Object.assign(new Error('invalid input syntax for type json: "\\ud800"'), { code: "22P02" });
    expect(toHttpError(error)).toMatchObject({
      status: 400,
      code: "invalid_request",
      message: "the request holds a value the database cannot store (not a valid json)",
    });
    expect(toHttpError(Object.assign(new Error("value out of range"), { code: "22003" })).status).toBe(400);
  });
});
