// The hex decoders the indexer uses (lib/platform/chain/abi-decode.ts) answer as viem's decoders do, but for lowercase
// addresses: on random values of every ABI the indexer decodes and of a parameter list with every kind of type, and
// on those encodings corrupted (bytes changed, cut, offsets and lengths made huge). Where viem throws, they throw.
import { describe, expect, it } from "vitest";
import {
  decodeAbiParameters,
  decodeEventLog,
  decodeFunctionData,
  encodeAbiParameters,
  encodeEventTopics,
  encodeFunctionData,
  getAbiItem,
  type AbiParameter,
  type Hex,
} from "viem";
import { callDecoder, decodeHexParameters, eventDecoder } from "@/lib/platform/chain/abi-decode";
import {
  dynamicFeeDataParams,
  poolInitializationDataParams,
  staticFeeDataParams,
  tokenFactoryAbi,
} from "@/lib/platform/chain/abis";
import { LEGACY_TOKEN_CREATED_EVENTS } from "@/lib/platform/chain/generations";

/** A small deterministic PRNG (mulberry32), so a failure replays. */
function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
type Random = ReturnType<typeof prng>;
const int = (rand: Random, n: number) => Math.floor(rand() * n);
const hexOf = (rand: Random, bytes: number) =>
  Array.from({ length: bytes }, () => int(rand, 256).toString(16).padStart(2, "0")).join("");
const TEXT = ["", "a", "Token", "🚀 moon", "ümlaut", "x".repeat(70), "\u0000nul", "\ufeffbom"];

/** A random value of a parameter, as encodeAbiParameters takes it. */
function randomValue(rand: Random, p: AbiParameter): unknown {
  const array = /^(.*)\[(\d*)\]$/.exec(p.type);
  if (array) {
    const length = array[2] ? Number(array[2]) : int(rand, 4);
    return Array.from({ length }, () => randomValue(rand, { ...p, type: array[1]! }));
  }
  if (p.type === "tuple") {
    const components = (p as { components: readonly AbiParameter[] }).components;
    const named = components.every((c) => c.name);
    const values = components.map((c) => randomValue(rand, c));
    return named ? Object.fromEntries(components.map((c, i) => [c.name!, values[i]])) : values;
  }
  if (p.type === "address") return `0x${hexOf(rand, 20)}`;
  if (p.type === "bool") return rand() < 0.5;
  if (p.type === "string") return TEXT[int(rand, TEXT.length)]! + hexOf(rand, int(rand, 3));
  if (p.type === "bytes") return `0x${hexOf(rand, int(rand, 80))}`;
  const fixed = /^bytes(\d+)$/.exec(p.type);
  if (fixed) return `0x${hexOf(rand, Number(fixed[1]))}`;
  const n = /^(u?)int(\d*)$/.exec(p.type)!;
  const bits = Number(n[2] || 256);
  const magnitude = BigInt(`0x${hexOf(rand, Math.ceil(bits / 8)) || "0"}`) % (1n << BigInt(bits - (n[1] ? 0 : 1)));
  const value = n[1] || rand() < 0.5 ? magnitude : -magnitude;
  return bits > 48 ? value : Number(value);
}

/** viem's answer with every hex text lowercase (its addresses are checksummed), or the fact that it threw. */
function lowered(value: unknown): unknown {
  if (typeof value === "string") return /^0x[0-9a-fA-F]*$/.test(value) ? value.toLowerCase() : value;
  if (Array.isArray(value)) return value.map(lowered);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, lowered(v)]));
  return value;
}
function outcome(decode: () => unknown): unknown {
  try {
    return { value: lowered(decode()) };
  } catch {
    return "throws";
  }
}

/** As strict as viem on a corrupted encoding: never a value where viem throws; the same value where both decode. */
function expectAsStrict(ours: unknown, viem: unknown, data: Hex) {
  if (viem === "throws") expect(ours, data).toBe("throws");
  else if (ours !== "throws") expect(ours, data).toEqual(viem);
}

/** `data` corrupted one of several ways: a byte changed, cut short, lengthened, a word made huge or small. */
function corrupt(rand: Random, data: Hex): Hex {
  const hex = data.slice(2);
  const words = hex.length / 64;
  const at = int(rand, Math.max(1, words)) * 64;
  switch (int(rand, 6)) {
    case 0: {
      const i = int(rand, hex.length);
      return `0x${hex.slice(0, i)}${int(rand, 16).toString(16)}${hex.slice(i + 1)}`;
    }
    case 1:
      return `0x${hex.slice(0, int(rand, hex.length / 2) * 2)}`;
    case 2:
      return `0x${hex}${hexOf(rand, int(rand, 64))}`;
    case 3:
      return `0x${hex.slice(0, at)}${"f".repeat(64)}${hex.slice(at + 64)}`;
    case 4:
      return `0x${hex.slice(0, at)}${(int(rand, 4096) * 4).toString(16).padStart(64, "0")}${hex.slice(at + 64)}`;
    default:
      return `0x${hex.slice(0, at)}${"0".repeat(63)}${int(rand, 2)}${hex.slice(at + 64)}`;
  }
}

const KINDS: readonly AbiParameter[] = [
  { name: "flag", type: "bool" },
  { name: "tick", type: "int24" },
  { name: "small", type: "uint8" },
  { name: "big", type: "int256" },
  { name: "word", type: "bytes32" },
  { name: "four", type: "bytes4" },
  { name: "names", type: "string[]" },
  { name: "pair", type: "address[2]" },
  { name: "blobs", type: "bytes[2]" },
  { name: "grid", type: "uint16[][]" },
  {
    name: "entries",
    type: "tuple[]",
    components: [
      { name: "who", type: "address" },
      { name: "note", type: "string" },
      { name: "shares", type: "uint96[]" },
    ],
  },
  {
    name: "fixedPair",
    type: "tuple",
    components: [
      { name: "a", type: "uint256" },
      { name: "b", type: "bool" },
    ],
  },
  { name: "unnamed", type: "tuple", components: [{ type: "uint8" }, { type: "string" }] },
];

const PARAMETER_LISTS: Record<string, readonly AbiParameter[]> = {
  "every kind": KINDS,
  poolInitializationData: poolInitializationDataParams,
  staticFeeData: staticFeeDataParams,
  dynamicFeeData: dynamicFeeDataParams,
  deployToken: getAbiItem({ abi: tokenFactoryAbi, name: "deployToken" }).inputs,
};

describe("decodeHexParameters", () => {
  for (const [name, params] of Object.entries(PARAMETER_LISTS)) {
    it(`answers as viem on random and corrupted encodings of ${name}`, () => {
      const rand = prng(name.length);
      for (let i = 0; i < 150; i++) {
        const data = encodeAbiParameters(
          params,
          params.map((p) => randomValue(rand, p)),
        );
        expect(outcome(() => decodeHexParameters(params, data))).toEqual(
          outcome(() => decodeAbiParameters(params, data)),
        );
        for (let j = 0; j < 6; j++) {
          const bad = corrupt(rand, data);
          expectAsStrict(
            outcome(() => decodeHexParameters(params, bad)),
            outcome(() => decodeAbiParameters(params, bad)),
            bad,
          );
        }
      }
    });
  }

  it("refuses text that is not hex, and a length that cannot fit", () => {
    expect(() => decodeHexParameters([{ type: "uint256" }], `0x${"zz".repeat(32)}`)).toThrow(/not hex/);
    const length = (n: number) => `0x${(32).toString(16).padStart(64, "0")}${n.toString(16).padStart(64, "0")}` as Hex;
    expect(() => decodeHexParameters([{ type: "uint8[]" }], length(2 ** 40))).toThrow(/cannot fit/);
    expect(() => decodeHexParameters([{ type: "uint8[]" }], length(2 ** 60))).toThrow(/safe integers/);
  });
});

describe("eventDecoder and callDecoder", () => {
  const events = { v4: getAbiItem({ abi: tokenFactoryAbi, name: "TokenCreated" }), ...LEGACY_TOKEN_CREATED_EVENTS };
  for (const [name, event] of Object.entries(events)) {
    it(`decode ${name}'s TokenCreated as viem's decodeEventLog`, () => {
      const rand = prng(7);
      for (let i = 0; i < 100; i++) {
        const args = Object.fromEntries(event.inputs.map((p) => [p.name, randomValue(rand, p)]));
        const topics = encodeEventTopics({ abi: [event], args } as never) as Hex[];
        const data = encodeAbiParameters(
          event.inputs.filter((p) => !p.indexed),
          event.inputs.filter((p) => !p.indexed).map((p) => args[p.name]),
        );
        const viem = () => decodeEventLog({ abi: [event], topics: topics as [Hex], data, strict: true }).args;
        expect(outcome(() => eventDecoder(event)({ topics, data }))).toEqual(outcome(viem));
        const bad = corrupt(rand, data);
        expectAsStrict(
          outcome(() => eventDecoder(event)({ topics, data: bad })),
          outcome(() => decodeEventLog({ abi: [event], topics: topics as [Hex], data: bad }).args),
          bad,
        );
      }
      expect(() => eventDecoder(event)({ topics: [`0x${"0".repeat(64)}`], data: "0x" })).toThrow(/topic0/);
    });
  }

  it("decodes a deployToken call as viem's decodeFunctionData, and names another call null", () => {
    const rand = prng(11);
    const fn = getAbiItem({ abi: tokenFactoryAbi, name: "deployToken" });
    for (let i = 0; i < 50; i++) {
      const args = fn.inputs.map((p) => randomValue(rand, p));
      const input = encodeFunctionData({ abi: [fn], functionName: "deployToken", args } as never);
      expect(outcome(() => callDecoder(fn)(input))).toEqual(
        outcome(() => decodeFunctionData({ abi: [fn], data: input }).args),
      );
    }
    expect(callDecoder(fn)("0x12345678")).toBeNull();
  });
});
