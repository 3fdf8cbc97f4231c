// Deterministic salts: the same (partner, requestKey) always predicts the same token address, and two
// partners' keys can never collide. The factory then hashes keccak256(abi.encode(tokenAdmin, salt)).
import { createHash } from "node:crypto";
import { encodeAbiParameters, keccak256, type Hex } from "viem";

export const DEPLOY_SALT_TAG = "token-launch:deploy:v1";
export const PRETOKEN_SALT_TAG = "token-launch:pretoken:v1";

/** salt = keccak256(abi.encode(string "token-launch:deploy:v1", uint256 partnerId, string requestKey)). */
export function deploySalt(partnerId: number, requestKey: string): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: "string" }, { type: "uint256" }, { type: "string" }],
      [DEPLOY_SALT_TAG, BigInt(partnerId), requestKey],
    ),
  );
}

/** salt = keccak256(abi.encode(string "token-launch:pretoken:v1", string userId, string pretokenId)). */
export function pretokenSalt(userId: string, pretokenId: string): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: "string" }, { type: "string" }, { type: "string" }],
      [PRETOKEN_SALT_TAG, userId, pretokenId],
    ),
  );
}

/** JSON with object keys sorted at every level: equal bodies give equal text whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** sha256 (hex) of the endpoint and the canonical body: what a retry must match. */
export function bodyHash(endpoint: string, body: unknown): string {
  return createHash("sha256").update(endpoint).update("\n").update(canonicalJson(body)).digest("hex");
}
