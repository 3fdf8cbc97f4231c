// Rows for the token endpoint tests: tokens with predictable addresses, market rows, users.
import type { Insertable } from "kysely";
import { db } from "@/db";
import type { TokensTable } from "@/db/tables/core";

let seq = 0;

/** `0x` + a one-letter kind + the number, padded to 40 hex digits (lowercase, as stored). */
export const address = (kind: string, n: number) => `0x${kind}${n.toString(16).padStart(39, "0")}`;
export const poolId = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;

export type TokenInput = Partial<Omit<Insertable<TokensTable>, "metadata" | "social_context" | "tags">> & {
  metadata?: object;
  social_context?: object;
  tags?: object;
};

export function tokenValues(o: TokenInput = {}): Insertable<TokensTable> {
  const n = ++seq;
  return {
    deployed_at: new Date(Date.UTC(2025, 0, 1) + n * 60_000),
    tx_hash: `0x${n.toString(16).padStart(64, "0")}`,
    contract_address: address("c", n),
    name: `Token ${n}`,
    symbol: `TK${n}`,
    pool_address: address("b", n),
    requestor_fid: 100 + (n % 4),
    msg_sender: address("d", n % 5),
    admin: address("a", n % 3),
    pair: "WETH",
    chain_id: 8453,
    ...o,
    metadata: JSON.stringify(o.metadata ?? { description: "", socialMediaUrls: [], auditUrls: [] }),
    social_context: JSON.stringify(
      o.social_context ?? { interface: "clanker", platform: "farcaster", messageId: "", id: "" },
    ),
    tags: JSON.stringify(o.tags ?? { champagne: false, verified: false, knownInterfaceDeployer: false }),
  };
}

export async function insertTokens(
  inputs: TokenInput[],
): Promise<Array<{ id: number; contract_address: string; pool_address: string | null }>> {
  if (inputs.length === 0) return [];
  return db()
    .insertInto("tokens")
    .values(inputs.map(tokenValues))
    .returning(["id", "contract_address", "pool_address"])
    .execute();
}

export type MarketInput = {
  token_id: number;
  market_cap_usd?: number | null;
  price_usd?: number | null;
  volume_24h_usd?: number | null;
  tx_count_24h?: number | null;
  price_change_1h?: number | null;
  price_change_24h?: number | null;
};

export async function insertMarket(rows: MarketInput[]): Promise<void> {
  if (rows.length === 0) return;
  await db()
    .insertInto("token_market")
    .values(
      rows.map((r) => ({
        market_cap_usd: null,
        price_usd: null,
        volume_24h_usd: null,
        tx_count_24h: null,
        price_change_1h: null,
        price_change_24h: null,
        ...r,
      })),
    )
    .execute();
}

export async function insertUser(fid: number, username: string, verified: string[] = []): Promise<void> {
  await db()
    .insertInto("users")
    .values({
      fid,
      username,
      display_name: username,
      pfp_url: null,
      custody_address: null,
      verified_addresses: verified,
      twitter_username: null,
      neynar_score: null,
      profile: "{}",
    })
    .execute();
}

/** A pool as GeckoTerminal's v2 API answers it (trending_pools, pools/multi). */
export function geckoPool(
  pool: string,
  token: string,
  o: { h24?: string | null; h1?: string; volume?: string; buys?: number } = {},
) {
  return {
    id: `base_${pool}`,
    type: "pool",
    attributes: {
      address: pool,
      name: "TOKEN / WETH",
      pool_created_at: "2025-01-01T00:00:00Z",
      base_token_price_usd: "0.00012",
      quote_token_price_usd: "3000.1",
      fdv_usd: "12000000",
      market_cap_usd: null,
      reserve_in_usd: "50000.5",
      price_change_percentage: { m5: "0", h1: o.h1 ?? "1.5", h6: "3", h24: o.h24 === undefined ? "10" : o.h24 },
      transactions: {
        h1: { buys: 1, sells: 2, buyers: 1, sellers: 2 },
        h24: { buys: o.buys ?? 10, sells: 5, buyers: 8, sellers: 4 },
      },
      volume_usd: { h1: "100", h24: o.volume ?? "1000" },
    },
    relationships: {
      base_token: { data: { id: `base_${token}`, type: "token" } },
      quote_token: { data: { id: "base_0x4200000000000000000000000000000000000006", type: "token" } },
    },
  };
}
