// EVM values as the whole service reads and writes them: the one address pattern, the EIP-55 form of answers,
// the default chain. Amounts stay integers of wei (bigint or decimal strings), never floats.
import sha3 from "js-sha3"; // CommonJS: its named exports are not visible to Node's ESM loader (tsx)
import { InvalidAddressError } from "viem";

/** An EVM address's text, for patterns that hold several (lists in the configuration, address-or-id values). */
export const ADDRESS_TEXT = "0x[0-9a-fA-F]{40}";

/** An EVM address: `0x` + 40 hex digits, any case. */
export const EVM_ADDRESS = new RegExp(`^${ADDRESS_TEXT}$`);

/** 32 bytes in hex (a v4 pool id, a transaction hash, a Merkle root), any case. */
export const BYTES32_TEXT = "0x[0-9a-fA-F]{64}";
export const BYTES32 = new RegExp(`^${BYTES32_TEXT}$`);

/** A Solana address (a mint or a pool): base58, 32 to 44 characters; case-sensitive, no checksum form. */
export const SOLANA_ADDRESS_TEXT = "[1-9A-HJ-NP-Za-km-z]{32,44}";
export const SOLANA_ADDRESS = new RegExp(`^${SOLANA_ADDRESS_TEXT}$`);

/** An address as the service stores it: lowercase. */
export const STORED_ADDRESS = /^0x[0-9a-f]{40}$/;

/** Whether a text is an EVM address (any case). */
export function isEvmAddress(text: string): boolean {
  return EVM_ADDRESS.test(text);
}

/** Base: the chain a request means when it names none. */
export const DEFAULT_CHAIN_ID = 8453;

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
 * EIP-55 form for responses and indexed rows. Memoised: a list of 100 tokens checksums ~600 addresses, mostly the
 * same deployers, admins and lockers again (viem's own cache pays an LRU reordering on every hit). Hashed with js-sha3
 * (4 µs) rather than viem's keccak (16 µs): a backfill checksums each token's new reward recipients.
 */
const checksumOf = memoised((address): `0x${string}` => {
  if (!EVM_ADDRESS.test(address)) throw new InvalidAddressError({ address });
  const lower = address.slice(2).toLowerCase();
  const hash = sha3.keccak256(lower);
  let out = "0x";
  for (let i = 0; i < 40; i++) out += hash.charCodeAt(i) >= 56 /* "8" */ ? lower[i]!.toUpperCase() : lower[i];
  return out as `0x${string}`;
});

/** A stored address (never empty) is answered checksummed; null (or nothing) as null. */
export function checksum(address: string): `0x${string}`;
export function checksum(address: string | null | undefined): `0x${string}` | null;
export function checksum(address: string | null | undefined): `0x${string}` | null {
  return address ? checksumOf(address) : null;
}

/**
 * A stored address as answers show it: an EVM address checksummed (whatever case it was stored in); a
 * 32-byte v4 pool id or a Solana (base58) mint or pool as stored: base58 is case-sensitive and has no
 * checksum form. Memoised on the stored string, as a token list shows ~600 of them.
 */
const displayOf = memoised((address) => (EVM_ADDRESS.test(address) ? checksumOf(address.toLowerCase()) : address));

export function displayAddress(address: string): string;
export function displayAddress(address: string | null): string | null;
export function displayAddress(address: string | null): string | null {
  return address ? displayOf(address) : address;
}
