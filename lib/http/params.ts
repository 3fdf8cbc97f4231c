// Zod building blocks shared by every route's query, path and body schemas.
import { z } from "zod";
import { getAddress } from "viem";

/** An EVM address: `0x` + 40 hex digits, any case. */
export const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** `0x` + 40 hex, any case; parsed to lowercase (how addresses are stored and compared). */
export const zAddress = z
  .string()
  .trim()
  .regex(EVM_ADDRESS, "must be an address: 0x followed by 40 hex digits")
  .transform((v) => v.toLowerCase() as `0x${string}`);

export const zHex = z
  .string()
  .trim()
  .regex(/^0x([0-9a-fA-F]{2})*$/, "must be 0x-prefixed hex")
  .transform((v) => v.toLowerCase() as `0x${string}`);

export const zBytes32 = z
  .string()
  .trim()
  .regex(/^0x[0-9a-fA-F]{64}$/, "must be 0x followed by 64 hex digits")
  .transform((v) => v.toLowerCase() as `0x${string}`);

export const zTxHash = zBytes32;

/** Booleans in a query string: true/false/1/0. */
export const zBool = z
  .enum(["true", "false", "1", "0"], { message: "must be true, false, 1 or 0" })
  .transform((v) => v === "true" || v === "1");

/** A whole number written in decimal, within bounds (query strings carry only text). */
export const zInt = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^-?\d{1,16}$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

/** A whole number in a JSON body or a query string. */
export const zIntLike = (min: number, max: number) => z.union([z.number().int(), zInt(min, max)]).pipe(
  z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`),
);

export const zFid = zInt(1, Number.MAX_SAFE_INTEGER);
export const zChainId = zInt(1, 2 ** 31 - 1);

/** Comma-separated FIDs, at most `max` of them, deduplicated. */
export const zFidList = (max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,16}(,\d{1,16})*$/, "must be comma-separated positive integers")
    .transform((v) => [...new Set(v.split(",").map(Number))])
    .refine((list) => list.length <= max, `at most ${max} values`)
    .refine((list) => list.every((n) => n >= 1 && Number.isSafeInteger(n)), "values must be positive integers");

/** An amount of wei: a non-negative integer in decimal, at most 78 digits (uint256). */
export const zWei = z
  .union([z.string(), z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)])
  .transform((v) => String(v).trim())
  .refine((v) => /^\d{1,78}$/.test(v) && BigInt(v) < 2n ** 256n, "must be a non-negative integer amount of wei")
  .transform((v) => BigInt(v).toString());

export const zSort = z.enum(["asc", "desc"]);

/** Free text of a query string: bounded, and without NUL (Postgres text cannot hold it). */
export const zText = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .refine((v) => !v.includes("\u0000"), "must not contain NUL characters");

const MEMO_MAX = 50_000;

/** A pure function of a string, remembered for up to MEMO_MAX inputs (then forgotten all at once). */
function memoised<T>(compute: (input: string) => T): (input: string) => T {
  const memo = new Map<string, T>();
  return (input) => {
    let out = memo.get(input);
    if (out === undefined) {
      out = compute(input);
      if (memo.size >= MEMO_MAX) memo.clear();
      memo.set(input, out);
    }
    return out;
  };
}

/**
 * EIP-55 form for responses. Memoised: a list of 100 tokens checksums ~600 addresses, mostly the same
 * deployers, admins and lockers again (viem's own cache pays an LRU reordering on every hit).
 */
const checksumOf = memoised((address) => getAddress(address));

export function checksum(address: string | null | undefined): `0x${string}` | null {
  return address ? checksumOf(address) : null;
}

/**
 * A stored address as answers show it: an EVM address checksummed (whatever case it was stored in); a
 * 32-byte v4 pool id or a Solana (base58) mint or pool as stored: base58 is case-sensitive and has no
 * checksum form. Memoised on the stored string, as a token list shows ~600 of them.
 */
const displayOf = memoised((address) => (EVM_ADDRESS.test(address) ? checksumOf(address.toLowerCase()) : address));

export function displayAddress(address: string | null): string | null {
  return address ? displayOf(address) : address;
}
