// ABI decoding for the indexer's hot path: a backfill decodes millions of events and deploying calls. viem's
// decoders checksum every address (two keccak hashes when not cached) and build each `bytes` value digit by digit.
// These turn the hex into bytes once and copy each value out: addresses lowercase, no value holding on to the input.
// Values and errors are otherwise viem's (tests/unit/chain/abi-decode.test.ts compares them on valid and corrupted
// encodings); a hostile encoding throws and never makes more than a bounded amount of work.
import {
  toEventSelector,
  toFunctionSelector,
  type AbiEvent,
  type AbiFunction,
  type AbiParameter,
  type DecodeAbiParametersReturnType,
  type Hex,
} from "viem";

const utf8 = new TextDecoder();
const HASHED = /^(string|bytes|tuple)$|\]$/;

/** Thrown for an encoding that does not decode as the parameters say (the caller sets its event aside). */
export class AbiHexDecodingError extends Error {
  override name = "AbiHexDecodingError";
}

type Reader = {
  /** The encoding's bytes: every value is copied out of them, so none keeps the input text alive. */
  bytes: Buffer;
  /** Words left to read: every read counts, so overlapping offsets cannot make the work grow past the input's. */
  reads: number;
  /** Bytes of `bytes` and `string` values left to decode (viem's budget: 32 times the input). */
  budget: number;
};

function reader(data: string): Reader {
  const hex = data.startsWith("0x") ? data.slice(2) : data;
  const bytes = Buffer.from(hex, "hex");
  // Buffer.from stops at the first pair that is not hex.
  if (bytes.length * 2 !== hex.length) throw new AbiHexDecodingError("not hex data");
  return { bytes, reads: Math.max(8_192, bytes.length), budget: bytes.length * 32 };
}

/** Byte `at` of a 32-byte word in bounds, counting the read. */
function word(r: Reader, at: number): number {
  if (!Number.isSafeInteger(at) || at < 0 || at + 32 > r.bytes.length)
    throw new AbiHexDecodingError(`position ${at} is out of bounds (size ${r.bytes.length})`);
  if (--r.reads < 0) throw new AbiHexDecodingError("too many reads for the size of the data");
  return at;
}

/** Whether bytes [from, to) are all zero. */
function zero(bytes: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (bytes[i] !== 0) return false;
  return true;
}

/** The word at `at` as a JavaScript number, throwing past 2^53 (viem's bytesToNumber); signed: two's complement. */
function safeNumber(r: Reader, at: number, signed = false): number {
  if (zero(r.bytes, word(r, at), at + 26)) return r.bytes.readUIntBE(at + 26, 6);
  const value = Number(signedValue(r, at, signed));
  if (!Number.isSafeInteger(value)) throw new AbiHexDecodingError(`the word at ${at} is past the safe integers`);
  return value;
}

function signedValue(r: Reader, at: number, signed: boolean): bigint {
  const value = BigInt(`0x${r.bytes.toString("hex", word(r, at), at + 32)}`);
  return signed && value >= 1n << 255n ? value - (1n << 256n) : value;
}

/** A word as a count or offset. */
const count = (r: Reader, at: number) => safeNumber(r, at);

/** An integer of `type`: a number up to 48 bits (safe, or it throws), a bigint above, as viem answers. */
function integer(r: Reader, at: number, type: string): number | bigint {
  const signed = type.startsWith("int");
  const bits = Number(type.slice(signed ? 3 : 4) || 256);
  return bits > 48 ? signedValue(r, at, signed) : safeNumber(r, at, signed);
}

/** The length of a fixed-size array type (`T[3]`), null for a dynamic one (`T[]`), undefined for a non-array. */
function arrayOf(type: string): { length: number | null; element: string } | undefined {
  const m = /^(.*)\[(\d*)\]$/.exec(type);
  return m ? { length: m[2] ? Number(m[2]) : null, element: m[1]! } : undefined;
}

function isDynamic(param: AbiParameter): boolean {
  const { type } = param;
  if (type === "string" || type === "bytes" || type.endsWith("[]")) return true;
  if (type === "tuple") return (param as { components: readonly AbiParameter[] }).components.some(isDynamic);
  const array = arrayOf(type);
  return array ? isDynamic({ ...param, type: array.element }) : false;
}

/** The size of a static parameter's encoding, in bytes. */
function staticSize(param: AbiParameter): number {
  const array = arrayOf(param.type);
  if (array) return array.length! * staticSize({ ...param, type: array.element });
  if (param.type === "tuple")
    return (param as { components: readonly AbiParameter[] }).components.reduce((n, c) => n + staticSize(c), 0);
  return 32;
}

/** A dynamic `bytes` or `string`'s content, from the offset in the word at `at` (relative to `base`). */
function tail(r: Reader, at: number, base: number): Buffer {
  const start = base + count(r, at);
  const length = count(r, start);
  if (length === 0) return r.bytes.subarray(0, 0);
  if (!Number.isSafeInteger(length) || start + 32 + length > r.bytes.length)
    throw new AbiHexDecodingError(
      `a value of ${length} bytes at ${start + 32} is out of bounds (size ${r.bytes.length})`,
    );
  r.budget -= length;
  if (r.budget < 0) throw new AbiHexDecodingError("the values decode to more than the data can hold");
  return r.bytes.subarray(start + 32, start + 32 + length);
}

/** The value of `param` whose head is at byte `at`; `base` is where the offsets of its enclosing encoding count from. */
function value(r: Reader, param: AbiParameter, at: number, base: number): unknown {
  const { type } = param;
  const array = arrayOf(type);
  if (array) return arrayValue(r, { ...param, type: array.element }, array.length, at, base);
  if (type === "tuple") {
    const components = (param as { components: readonly AbiParameter[] }).components;
    const start = isDynamic(param) ? base + count(r, at) : at;
    return sequence(r, components, start);
  }
  if (type === "address") return `0x${r.bytes.toString("hex", word(r, at) + 12, at + 32)}`;
  if (type === "bool") {
    if (!zero(r.bytes, word(r, at), at + 31) || r.bytes[at + 31]! > 1)
      throw new AbiHexDecodingError(`the word at ${at} is not a boolean`);
    return r.bytes[at + 31] === 1;
  }
  if (type === "string") return utf8.decode(tail(r, at, base));
  if (type === "bytes") return `0x${tail(r, at, base).toString("hex")}`;
  if (type.startsWith("bytes")) return `0x${r.bytes.toString("hex", word(r, at), at + Number(type.slice(5)))}`;
  if (type.startsWith("uint") || type.startsWith("int")) return integer(r, at, type);
  throw new AbiHexDecodingError(`cannot decode type ${type}`);
}

function arrayValue(r: Reader, element: AbiParameter, fixed: number | null, at: number, base: number): unknown[] {
  const dynamic = isDynamic(element);
  let start = at;
  let length = fixed;
  if (fixed === null) {
    const offset = base + count(r, at);
    length = count(r, offset);
    start = offset + 32;
  } else if (dynamic) start = base + count(r, at);
  if (!Number.isSafeInteger(length) || length! > r.bytes.length)
    throw new AbiHexDecodingError(`an array of ${length} items cannot fit in ${r.bytes.length} bytes`);
  const values: unknown[] = [];
  const step = dynamic ? 32 : staticSize(element);
  for (let i = 0; i < length!; i++) {
    if (step === 0 && --r.reads < 0) throw new AbiHexDecodingError("too many reads for the size of the data");
    values.push(value(r, element, start + i * step, start));
  }
  return values;
}

/** Parameters encoded one after the other from byte `start` (a tuple's components, or a call's arguments). */
function sequence(r: Reader, params: readonly AbiParameter[], start: number, byName = true): unknown {
  const named = byName && params.length > 0 && params.every((p) => p.name);
  const out: Record<string, unknown> | unknown[] = named ? {} : [];
  let at = start;
  params.forEach((p, i) => {
    const v = value(r, p, at, start);
    if (named) (out as Record<string, unknown>)[p.name!] = v;
    else (out as unknown[])[i] = v;
    at += isDynamic(p) ? 32 : staticSize(p);
  });
  return out;
}

/** `data` decoded as `params`, as viem's decodeAbiParameters answers but for lowercase addresses. */
export function decodeHexParameters<const P extends readonly AbiParameter[]>(
  params: P,
  data: Hex,
): DecodeAbiParametersReturnType<P> {
  const r = reader(data);
  const { length } = r.bytes;
  if (length === 0 && params.length > 0) throw new AbiHexDecodingError("no data to decode");
  if (length > 0 && length < 32) throw new AbiHexDecodingError(`data of ${length} bytes is less than a word`);
  return sequence(r, params, 0, false) as DecodeAbiParametersReturnType<P>;
}

/**
 * The arguments of an event's log, by name, as viem's decodeEventLog answers with strict: true (lowercase addresses).
 * Throws when topic0 is not the event's, a topic is missing, or the data does not decode.
 */
export function eventDecoder<const E extends AbiEvent>(event: E) {
  const selector = toEventSelector(event);
  const indexed = event.inputs.filter((i) => i.indexed);
  const data = event.inputs.filter((i) => !i.indexed);
  return (log: { topics: readonly Hex[]; data: Hex }): EventArgs<E> => {
    if (log.topics[0] !== selector) throw new AbiHexDecodingError(`topic0 is not ${event.name}'s`);
    if (log.topics.length < indexed.length + 1) throw new AbiHexDecodingError(`${event.name} lacks a topic`);
    const args: Record<string, unknown> = {};
    indexed.forEach((input, i) => {
      const topic = log.topics[i + 1]!;
      // A string, bytes, tuple or array is indexed by its hash, which is all a topic holds (as viem answers).
      args[input.name!] = HASHED.test(input.type) ? topic : decodeHexParameters([input], topic)[0];
    });
    if (data.length) {
      const values = decodeHexParameters(data, log.data) as unknown[];
      data.forEach((input, i) => {
        args[input.name!] = values[i];
      });
    }
    return args as EventArgs<E>;
  };
}

type EventArgs<E extends AbiEvent> = {
  [K in E["inputs"][number] as K["name"] & string]: DecodeAbiParametersReturnType<[K]>[0];
};

/** The arguments of a call to `fn` (null when its selector is another function's), in order, lowercase addresses. */
export function callDecoder<const F extends AbiFunction>(fn: F) {
  const selector = toFunctionSelector(fn);
  return (input: Hex): DecodeAbiParametersReturnType<F["inputs"]> | null =>
    input.slice(0, 10).toLowerCase() === selector
      ? (decodeHexParameters(fn.inputs, `0x${input.slice(10)}`) as DecodeAbiParametersReturnType<F["inputs"]>)
      : null;
}
