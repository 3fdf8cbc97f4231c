// Amounts and hex as clients write them in a tree dump, read exactly (never through a float).
const MAX_UINT256 = (1n << 256n) - 1n;
const NUMBER_PARTS = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * A uint256 amount from a dump value: a decimal string, a 0x-hex string, or a JSON number token read
 * from its exact text (so 1e+21 and 1000000000000000000000 are both exact). Null when it is not a
 * non-negative integer below 2^256.
 */
export function parseAmount(text: string, isNumberToken: boolean): bigint | null {
  let value: bigint;
  if (isNumberToken) {
    const parts = NUMBER_PARTS.exec(text);
    if (!parts) return null;
    const [, sign, whole, fraction = "", exponentText = "0"] = parts;
    const exponent = Number(exponentText) - fraction.length;
    if (!Number.isSafeInteger(exponent) || exponent > 80) return null;
    let digits = whole + fraction;
    if (exponent < 0) {
      if (!/^0*$/.test(digits.slice(exponent))) return null; // a fraction: not an integer
      digits = digits.slice(0, exponent) || "0";
    }
    value = BigInt(digits) * 10n ** BigInt(Math.max(0, exponent));
    if (sign && value !== 0n) return null;
  } else if (/^\d{1,78}$/.test(text)) {
    value = BigInt(text);
  } else if (/^0x[0-9a-fA-F]{1,64}$/.test(text)) {
    value = BigInt(text);
  } else {
    return null;
  }
  return value <= MAX_UINT256 ? value : null;
}

const LIMB = 2 ** 24;
const limbs = new Float64Array(11); // 264 bits, least significant first

/**
 * A canonical decimal amount (1 to 78 digits, no leading zero) from bytes[start..end), written as 32 big-endian
 * bytes at out[at..): no bigint nor string. False when the text is not that or the value is 2^256 or more (the
 * caller then reads it with parseAmount, which gives the same value or the same refusal).
 * 24-bit limbs times 10^7 stay exact in a float64, and each limb is exactly three output bytes.
 */
export function decimalWordInto(bytes: Uint8Array, start: number, end: number, out: Uint8Array, at: number): boolean {
  const length = end - start;
  if (length < 1 || length > 78 || (bytes[start] === 48 && length > 1)) return false;
  limbs.fill(0);
  let used = 1;
  for (let i = start, groupEnd = start + ((length - 1) % 7) + 1; i < end; groupEnd = i + 7) {
    let group = 0;
    let scale = 1;
    for (; i < groupEnd; i++) {
      const digit = bytes[i] - 48;
      if (digit < 0 || digit > 9) return false;
      group = group * 10 + digit;
      scale *= 10;
    }
    let carry = group;
    for (let k = 0; k < used; k++) {
      const x = limbs[k] * scale + carry;
      carry = Math.floor(x / LIMB);
      limbs[k] = x - carry * LIMB;
    }
    if (carry > 0) {
      if (used === limbs.length) return false;
      limbs[used++] = carry;
    }
  }
  if (limbs[10] >= 2 ** 16) return false; // bits 256 and up
  for (let k = 0; k < 11; k++) {
    let v = limbs[k];
    for (let b = 0, pos = 31 - 3 * k; b < 3 && pos >= 0; b++, pos--) {
      out[at + pos] = v & 255;
      v >>>= 8;
    }
  }
  return true;
}

const HEX = new Int8Array(128).fill(-1);
for (let c = 0; c < 10; c++) HEX[48 + c] = c;
for (let c = 0; c < 6; c++) HEX[65 + c] = HEX[97 + c] = 10 + c;

/**
 * Decodes `0x` + 2·size hex digits (any case) into `out[at..at+size)`; false (out partly written) when the
 * text is not exactly that. decodeHexBytesInto reads the same from UTF-8 bytes.
 */
export function decodeHexInto(text: string, size: number, out: Uint8Array, at: number): boolean {
  if (text.length !== 2 + 2 * size || text.charCodeAt(0) !== 48 || (text.charCodeAt(1) | 32) !== 120) return false;
  for (let k = 0; k < size; k++) {
    const hi = HEX[text.charCodeAt(2 + 2 * k)] ?? -1;
    const lo = HEX[text.charCodeAt(3 + 2 * k)] ?? -1;
    if (hi < 0 || lo < 0) return false;
    out[at + k] = (hi << 4) | lo;
  }
  return true;
}

export function decodeHexBytesInto(
  bytes: Uint8Array,
  start: number,
  end: number,
  size: number,
  out: Uint8Array,
  at: number,
): boolean {
  if (end - start !== 2 + 2 * size || bytes[start] !== 48 || (bytes[start + 1] | 32) !== 120) return false;
  for (let k = 0, j = start + 2; k < size; k++, j += 2) {
    const byte = HEX_PAIR[(bytes[j] << 8) | bytes[j + 1]];
    if (byte < 0) return false;
    out[at + k] = byte;
  }
  return true;
}

/** The byte of two hex digits (as two bytes, the first one high), -1 when either is not one: one lookup per byte. */
const HEX_PAIR = new Int16Array(1 << 16).fill(-1);
for (let hi = 0; hi < 128; hi++)
  for (let lo = 0; lo < 128; lo++)
    if (HEX[hi] >= 0 && HEX[lo] >= 0) HEX_PAIR[(hi << 8) | lo] = (HEX[hi] << 4) | HEX[lo];
