import { describe, expect, it } from "vitest";
import { ByteRecords, TextList } from "@/lib/domains/merkle/records";

describe("ByteRecords ranges", () => {
  // Blocks hold 32,768 records: ranges across a block boundary are copied and compared in two parts.
  const records = new ByteRecords(4);
  for (let i = 0; i < 70_000; i++) {
    records.append();
    records.block(i).set([i & 255, (i >> 8) & 255, i >> 16, 7], records.offset(i));
  }

  it("reads, writes and compares a range across blocks", () => {
    const from = 32_760;
    const out = new Uint8Array(4 * 20 + 3);
    records.readRange(from, 20, out, 3);
    for (let k = 0; k < 20; k++) expect([...out.subarray(3 + 4 * k, 7 + 4 * k)]).toEqual([...records.get(from + k)]);
    expect(records.rangeEquals(from, 20, out, 3)).toBe(true);
    out[3 + 4 * 15] ^= 1; // a record in the second block
    expect(records.rangeEquals(from, 20, out, 3)).toBe(false);
    records.writeRange(from, 20, out, 3);
    expect(records.get(from + 15)[0]).toBe(((from + 15) & 255) ^ 1);
    expect(records.rangeEquals(from, 20, out, 3)).toBe(true);
  });
});

describe("TextList", () => {
  it("keeps texts in order across blocks and replaces the last one", () => {
    const list = new TextList();
    const texts = Array.from({ length: 60_000 }, (_, i) => String(BigInt(i) * 10n ** 18n + BigInt(i)));
    for (let i = 0; i < texts.length; i++) list.putText(i, texts[i]);
    list.putText(texts.length - 1, "42");
    texts[texts.length - 1] = "42";
    expect(list.count).toBe(texts.length);
    for (const i of [0, 1, 29_000, 45_000, texts.length - 1]) expect(list.get(i)).toBe(texts[i]);
    const bytes = Buffer.from("[123]");
    list.put(list.count, bytes, 1, 4);
    expect(list.get(list.count - 1)).toBe("123");
    const out = Buffer.alloc(32);
    expect(out.toString("latin1", 0, list.copyTo(1, out, 0))).toBe(texts[1]);
  });
});
