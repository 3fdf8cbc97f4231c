// Token and profile rows for the creator tests, written straight into the tables (read-only for us).
import { db } from "@/db";
import type { TokenRow } from "@/lib/domains/tokens/serialize";

let counter = 0;

export type TokenInput = {
  name?: string;
  msgSender: string;
  requestorFid?: number | null;
  chainId?: number;
  deployedAt?: Date;
  platform?: string;
  address?: string;
  marketCap?: number;
  poolAddress?: string | null;
  pairedToken?: string;
  lockerAddress?: string | null;
};

export async function insertToken(t: TokenInput): Promise<TokenRow> {
  counter += 1;
  const address = (t.address ?? `0x${(0xabc000 + counter).toString(16).padStart(40, "0")}`).toLowerCase();
  const row = await db()
    .insertInto("tokens")
    .values({
      deployed_at: t.deployedAt ?? new Date(Date.UTC(2025, 0, 1) + counter * 60_000),
      tx_hash: `0x${counter.toString(16).padStart(64, "0")}`,
      contract_address: address,
      chain_id: t.chainId ?? 8453,
      name: t.name ?? `Token ${counter}`,
      symbol: `T${counter}`,
      img_url: null,
      pool_address:
        t.poolAddress === undefined
          ? `0x${(0xf00000 + counter).toString(16).padStart(40, "0")}`
          : (t.poolAddress?.toLowerCase() ?? null),
      requestor_fid: t.requestorFid ?? null,
      msg_sender: t.msgSender.toLowerCase(),
      admin: t.msgSender.toLowerCase(),
      cast_hash: null,
      pair: "WETH",
      presale_id: null,
      factory_address: null,
      locker_address: t.lockerAddress?.toLowerCase() ?? null,
      metadata: JSON.stringify({ description: "", socialMediaUrls: [], auditUrls: [] }),
      social_context: JSON.stringify({ interface: "test", platform: t.platform ?? "farcaster", messageId: "", id: "" }),
      pool_config: JSON.stringify({
        pairedToken: t.pairedToken ?? "0x4200000000000000000000000000000000000006",
        tickIfToken0IsNewToken: -230400,
      }),
      deploy_config: null,
      starting_market_cap: 10,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (t.marketCap !== undefined) {
    await db()
      .insertInto("token_market")
      .values({ token_id: row.id, market_cap_usd: t.marketCap, price_usd: 1e-6 })
      .execute();
  }
  return row;
}

/** A stored profile row (as if fetched from the provider at `fetchedAt`). */
export async function insertUser(u: {
  fid: number;
  username: string;
  displayName?: string;
  x?: string;
  verified?: string[];
  followers?: number;
  fetchedAt?: Date;
}) {
  const verified = (u.verified ?? []).map((a) => a.toLowerCase());
  await db()
    .insertInto("users")
    .values({
      fid: u.fid,
      username: u.username,
      display_name: u.displayName ?? null,
      pfp_url: null,
      custody_address: null,
      verified_addresses: verified,
      twitter_username: u.x ?? null,
      neynar_score: 0.9,
      follower_count: u.followers ?? 0,
      following_count: 0,
      profile: "{}",
      fetched_at: u.fetchedAt ?? new Date(),
    })
    .execute();
  if (verified.length)
    await db()
      .insertInto("user_addresses")
      .values(verified.map((address) => ({ address, fid: u.fid })))
      .execute();
}

export const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
