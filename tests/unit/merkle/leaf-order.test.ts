// The store's leaf order and chunks (lib/domains/merkle/leaf-order.ts): (account, treeIndex) order whatever the
// accounts' first bytes, and chunks that never split an account.
import { describe, expect, it } from "vitest";
import { ACCOUNTS_PER_CHUNK, chunkNumbers, leafOrder } from "@/lib/domains/merkle/leaf-order";
import { ByteRecords, IntList } from "@/lib/domains/merkle/records";

function leaves(accounts: string[], treeIndexes: number[]) {
  const records = new ByteRecords(20);
  const indexes = new IntList();
  accounts.forEach((hex, i) => {
    const at = records.append();
    records.block(at).set(Buffer.from(hex, "hex"), records.offset(at));
    indexes.push(treeIndexes[i]);
  });
  return { records, indexes };
}

describe("leafOrder", () => {
  it("orders by account bytes, then treeIndex, also when the first three bytes are equal", () => {
    const accounts = [
      `ffffff${"00".repeat(17)}`,
      `000000${"02".repeat(17)}`,
      `000000${"01".repeat(17)}`,
      `000000${"02".repeat(17)}`,
      `7f0000${"00".repeat(17)}`,
      `000000${"01".repeat(17)}`,
    ];
    const treeIndexes = [10, 9, 8, 3, 6, 5];
    const { records, indexes } = leaves(accounts, treeIndexes);
    const expected = accounts
      .map((a, i) => ({ a, t: treeIndexes[i], i }))
      .sort((x, y) => (x.a < y.a ? -1 : x.a > y.a ? 1 : x.t - y.t))
      .map((x) => x.i);
    expect([...leafOrder(records, indexes, accounts.length)]).toEqual(expected);
  });

  it("matches a full comparator sort on many random accounts", () => {
    let seed = 7;
    const byte = () => ((seed = (seed * 1_103_515_245 + 12_345) >>> 0) >>> 16) & 0xff;
    // Few distinct first bytes: long runs of equal heads that the second pass must sort.
    const accounts = Array.from({ length: 2000 }, () =>
      Buffer.from([byte() & 3, 0, byte() & 1, ...Array.from({ length: 17 }, byte)]).toString("hex"),
    );
    const treeIndexes = accounts.map((_, i) => (i * 7919) % 2000);
    const { records, indexes } = leaves(accounts, treeIndexes);
    const order = [...leafOrder(records, indexes, accounts.length)];
    const keys = order.map((i) => `${accounts[i]}:${String(treeIndexes[i]).padStart(5, "0")}`);
    expect(keys).toEqual([...keys].sort());
    expect(new Set(order).size).toBe(accounts.length);
  });
  it("orders accounts that share long prefixes and repeat (made-up accounts: zeros, then a counter)", () => {
    // As the bench's accounts: 0x000…0 followed by a multiple of a 64-bit constant, every 10th one repeated.
    const accounts = Array.from({ length: 3000 }, (_, i) =>
      (BigInt((i % 10 === 9 ? i - 1 : i) + 1) * 0x9e3779b97f4a7c15n).toString(16).padStart(40, "0").slice(-40),
    );
    accounts.push("00".repeat(20), "00".repeat(19) + "01", "00".repeat(20));
    const treeIndexes = accounts.map((_, i) => (i * 7919) % 4000);
    const { records, indexes } = leaves(accounts, treeIndexes);
    const order = [...leafOrder(records, indexes, accounts.length)];
    const keys = order.map((i) => `${accounts[i]}:${String(treeIndexes[i]).padStart(5, "0")}`);
    expect(keys).toEqual([...keys].sort());
    expect(new Set(order).size).toBe(accounts.length);
  });
});

describe("chunkNumbers", () => {
  it(`starts a chunk every ${ACCOUNTS_PER_CHUNK} accounts and never splits an account`, () => {
    // Accounts 0..99 in order, account 31 with 5 leaves, account 32 with 2.
    const accountOf = Array.from({ length: 100 }, (_, a) => Array(a === 31 ? 5 : a === 32 ? 2 : 1).fill(a)).flat();
    const chunks = chunkNumbers(accountOf.length, (k) => accountOf[k] === accountOf[k - 1]);
    const chunkOfAccount = new Map<number, Set<number>>();
    accountOf.forEach((a, k) => {
      chunkOfAccount.set(a, (chunkOfAccount.get(a) ?? new Set()).add(chunks[k]));
    });
    for (const [, set] of chunkOfAccount) expect(set.size).toBe(1);
    expect(chunkOfAccount.get(31)).toEqual(new Set([0]));
    expect(chunkOfAccount.get(32)).toEqual(new Set([1]));
    expect(chunkOfAccount.get(99)).toEqual(new Set([3]));
    expect([...chunks]).toEqual([...chunks].sort((a, b) => a - b));
  });
});
