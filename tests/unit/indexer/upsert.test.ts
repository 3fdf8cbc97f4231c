// TokenCreated to a tokens row: the mapping field by field, and the upsert keeping what other domains added.
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/db";
import type { LegacyTokenCreatedEvent, V4TokenCreatedEvent } from "@/lib/platform/chain";
import {
  normalizeContext,
  normalizeMetadata,
  tokenRowFromEvent,
  upsertIndexedToken,
} from "@/lib/domains/launch/indexer/upsert";

const TOKEN = "0xAbCdEf0123456789aBcDeF0123456789abCDef01";
const event = (over: Partial<V4TokenCreatedEvent> = {}): V4TokenCreatedEvent => ({
  address: "0xE85A59c628F7d27878ACeB4bf3b35733630083a9",
  blockNumber: 123n,
  blockHash: `0x${"b".repeat(64)}`,
  transactionHash: `0x${"A".repeat(64)}`,
  transactionIndex: 0,
  logIndex: 4,
  msgSender: "0x1111111111111111111111111111111111111111",
  tokenAddress: TOKEN,
  tokenAdmin: "0x2222222222222222222222222222222222222222",
  tokenImage: "ipfs://image",
  tokenName: "Name\u0000",
  tokenSymbol: "SYM",
  tokenMetadata: JSON.stringify({
    description: "d",
    socialMediaUrls: ["https://x.com/s", { platform: "telegram", url: "https://t.me/s" }],
    auditUrls: ["https://a"],
  }),
  tokenContext: JSON.stringify({ interface: "bot", platform: "farcaster", messageId: "0xcast", id: "42" }),
  startingTick: -230_400,
  poolHook: "0x3333333333333333333333333333333333333333",
  poolId: `0x${"C".repeat(64)}`,
  pairedToken: "0x4200000000000000000000000000000000000006",
  locker: "0x63D2DfEA64b3433F4071A98665bcD7Ca14d93496",
  mevModule: "0x0000000000000000000000000000000000000000",
  extensionsSupply: 0n,
  extensions: [],
  ...over,
});
const WHEN = new Date("2026-01-02T03:04:05Z");

beforeEach(async () => {
  await db().deleteFrom("tokens").execute();
});

describe("tokenRowFromEvent", () => {
  it("maps every column", () => {
    const row = tokenRowFromEvent(event(), { chainId: 8453, deployedAt: WHEN, deployment: null });
    expect(row).toEqual({
      deployed_at: WHEN,
      tx_hash: `0x${"a".repeat(64)}`,
      contract_address: TOKEN.toLowerCase(),
      chain_id: 8453,
      name: "Name",
      symbol: "SYM",
      img_url: "ipfs://image",
      pool_address: `0x${"c".repeat(64)}`,
      requestor_fid: 42,
      msg_sender: "0x1111111111111111111111111111111111111111",
      admin: "0x2222222222222222222222222222222222222222",
      cast_hash: "0xcast",
      type: "clanker_v4",
      pair: "WETH",
      factory_address: "0xe85a59c628f7d27878aceb4bf3b35733630083a9",
      locker_address: "0x63d2dfea64b3433f4071a98665bcd7ca14d93496",
      lp_nft_id: null,
      metadata: JSON.stringify({
        description: "d",
        socialMediaUrls: [
          { platform: "x", url: "https://x.com/s" },
          { platform: "telegram", url: "https://t.me/s" },
        ],
        auditUrls: ["https://a"],
      }),
      social_context: JSON.stringify({ interface: "bot", platform: "farcaster", messageId: "0xcast", id: "42" }),
      pool_config: JSON.stringify({
        pairedToken: "0x4200000000000000000000000000000000000006",
        tickIfToken0IsNewToken: -230_400,
        poolHook: "0x3333333333333333333333333333333333333333",
        mevModule: "0x0000000000000000000000000000000000000000",
      }),
      extensions: JSON.stringify({ fees: { hook_address: "0x3333333333333333333333333333333333333333" } }),
      starting_market_cap: 9.8709,
      warnings: [],
      tags: JSON.stringify({ champagne: false, verified: false, knownInterfaceDeployer: false }),
      supply: "100000000000000000000000000000",
      block_number: 123,
      log_index: 4,
    });
  });

  it("flags unknown pairs and cheap starts; no fid outside farcaster; garbage JSON becomes empty defaults", () => {
    const other = tokenRowFromEvent(
      event({
        pairedToken: "0x9999999999999999999999999999999999999999",
        tokenContext: JSON.stringify({ platform: "x", id: "42" }),
      }),
      { chainId: 8453, deployedAt: WHEN, deployment: null },
    );
    expect(other).toMatchObject({
      pair: null,
      warnings: ["UNUSUAL_PAIR_ADDRESS"],
      requestor_fid: null,
      cast_hash: null,
      starting_market_cap: null,
    });
    expect(
      tokenRowFromEvent(event({ startingTick: -260_000 }), { chainId: 8453, deployedAt: WHEN, deployment: null })
        .warnings,
    ).toEqual(["UNUSUAL_TICK"]);
    expect(
      tokenRowFromEvent(event({ tokenContext: "{}" }), {
        chainId: 8453,
        deployedAt: WHEN,
        deployment: null,
        attributedFid: 7,
      }).requestor_fid,
    ).toBe(7);
    expect(normalizeMetadata("not json")).toEqual({ description: "", socialMediaUrls: [], auditUrls: [] });
    expect(normalizeMetadata(JSON.stringify([1]))).toEqual({ description: "", socialMediaUrls: [], auditUrls: [] });
    expect(normalizeContext(JSON.stringify({ id: 5, messageId: null }))).toEqual({
      interface: "",
      platform: "",
      messageId: "",
      id: "5",
    });
  });
});

/** CLANKER, a v0 token: its WETH 1% pool on Base is 0xC1a6…4F97. */
const LEGACY_TOKEN = "0x1bc0c42215582d5A085795f4baDbaC3ff36d1Bcb";
const LEGACY_POOL = "0xc1a6fbedae68e1472dbb91fe29b51f7a0bd44f97";
const DEPLOYER = "0x1111111111111111111111111111111111111111";
const WETH = "0x4200000000000000000000000000000000000006";
const legacy = (over: Partial<LegacyTokenCreatedEvent>): LegacyTokenCreatedEvent => ({
  address: "0x250c9FB2b411B48273f69879007803790A6AeA47",
  blockNumber: 22_000_000n,
  blockHash: `0x${"b".repeat(64)}`,
  transactionHash: `0x${"A".repeat(64)}`,
  transactionIndex: 3,
  logIndex: 9,
  type: "proxy",
  tokenAddress: LEGACY_TOKEN,
  tokenName: "tokenbot\u0000",
  tokenSymbol: "CLANKER",
  tokenAdmin: DEPLOYER,
  msgSender: DEPLOYER,
  lpNftId: 1_223_215n,
  locker: "0xf4eFaFac1629274DECca0ba379a7c2a6A05fd3e0",
  vault: null,
  fid: null,
  castHash: null,
  supply: 10n ** 29n,
  tokenMetadata: null,
  startingTick: null,
  interfaceAdmin: null,
  creatorRewardRecipient: null,
  interfaceRewardRecipient: null,
  amountTokensBought: null,
  vaultDuration: null,
  vaultPercentage: null,
  pool: { address: LEGACY_POOL, pairedToken: WETH, fee: 10_000 },
  ...over,
});
const EMPTY_METADATA = JSON.stringify({ description: "", socialMediaUrls: [], auditUrls: [] });
const NO_CONTEXT = JSON.stringify({ interface: "", platform: "", messageId: "", id: "" });
const NO_TAGS = JSON.stringify({ champagne: false, verified: false, knownInterfaceDeployer: false });

describe("tokenRowFromEvent of the generations before v4", () => {
  const ctx = { chainId: 8453, deployedAt: WHEN, deployment: null };

  it("v0 (proxy): the event's supply, locker and LP NFT, its WETH pool, the deployer as admin", () => {
    expect(tokenRowFromEvent(legacy({}), ctx)).toEqual({
      deployed_at: WHEN,
      tx_hash: `0x${"a".repeat(64)}`,
      contract_address: LEGACY_TOKEN.toLowerCase(),
      chain_id: 8453,
      name: "tokenbot",
      symbol: "CLANKER",
      img_url: null,
      pool_address: LEGACY_POOL,
      requestor_fid: null,
      msg_sender: DEPLOYER,
      admin: DEPLOYER,
      cast_hash: null,
      type: "proxy",
      pair: "WETH",
      factory_address: "0x250c9fb2b411b48273f69879007803790a6aea47",
      locker_address: "0xf4efafac1629274decca0ba379a7c2a6a05fd3e0",
      lp_nft_id: "1223215",
      metadata: EMPTY_METADATA,
      social_context: NO_CONTEXT,
      pool_config: null,
      extensions: null,
      starting_market_cap: null,
      warnings: [],
      tags: NO_TAGS,
      supply: "100000000000000000000000000000",
      block_number: 22_000_000,
      log_index: 9,
    });
  });

  it("v1 to v3: the FID and cast as the requester and the social context; FID 0 is none", () => {
    for (const type of ["clanker", "clanker_v2", "clanker_v3"] as const) {
      const row = tokenRowFromEvent(legacy({ type, fid: 42n, castHash: "0xcast", lpNftId: 7n }), {
        ...ctx,
        attributedFid: 9,
      });
      expect(row, type).toMatchObject({
        type,
        requestor_fid: 42,
        cast_hash: "0xcast",
        social_context: JSON.stringify({ interface: "", platform: "farcaster", messageId: "0xcast", id: "42" }),
        lp_nft_id: "7",
        pool_address: LEGACY_POOL,
        admin: DEPLOYER,
        msg_sender: DEPLOYER,
      });
    }
    const none = tokenRowFromEvent(legacy({ type: "clanker_v3", fid: 0n, castHash: "" }), { ...ctx, attributedFid: 9 });
    expect(none).toMatchObject({ requestor_fid: 9, cast_hash: null, social_context: NO_CONTEXT });
    // An FID past 2^53 is no FID; a cast hash is bounded text.
    const odd = tokenRowFromEvent(legacy({ type: "clanker", fid: 2n ** 200n, castHash: "x".repeat(1000) }), ctx);
    expect(odd.requestor_fid).toBeNull();
    expect(odd.cast_hash).toHaveLength(256);
  });

  it("v3.1: admin and sender apart, metadata, the tick's pool config and starting market cap; the platform's supply", () => {
    const admin = "0x3333333333333333333333333333333333333333";
    const row = tokenRowFromEvent(
      legacy({
        address: "0x2A787b2362021cC3eEa3C24C4748a6cD5B687382",
        type: "clanker_v3_1",
        tokenAdmin: admin,
        msgSender: DEPLOYER,
        lpNftId: 11n,
        locker: "0x33e2Eda238edcF470309b8c6D228986A1204c8f9",
        vault: "0x42A95190B4088C88Dd904d930c79deC1158bF09D",
        supply: null,
        tokenMetadata: JSON.stringify({ description: "d", socialMediaUrls: ["https://x.com/s", "javascript:x"] }),
        startingTick: -230_400,
      }),
      ctx,
    );
    expect(row).toMatchObject({
      type: "clanker_v3_1",
      admin,
      msg_sender: DEPLOYER,
      lp_nft_id: "11",
      locker_address: "0x33e2eda238edcf470309b8c6d228986a1204c8f9",
      metadata: JSON.stringify({
        description: "d",
        socialMediaUrls: [{ platform: "x", url: "https://x.com/s" }],
        auditUrls: [],
      }),
      pool_config: JSON.stringify({
        pairedToken: "0x4200000000000000000000000000000000000006",
        tickIfToken0IsNewToken: -230_400,
      }),
      starting_market_cap: 9.8709,
      warnings: [],
      supply: "100000000000000000000000000000",
      requestor_fid: null,
    });
    expect(tokenRowFromEvent(legacy({ type: "clanker_v3_1", startingTick: 900_000 }), ctx)).toMatchObject({
      starting_market_cap: null,
      warnings: ["UNUSUAL_TICK"],
    });
  });

  it("pairs with its pool's other token, and warns of a pair it does not know", () => {
    const other = "0x9999999999999999999999999999999999999999";
    const pool = { address: "0x5555555555555555555555555555555555555555", pairedToken: other, fee: 3_000 } as const;
    const row = tokenRowFromEvent(legacy({ type: "clanker_v3_1", startingTick: -230_400, pool }), ctx);
    expect(row).toMatchObject({
      pool_address: pool.address,
      pair: null,
      pool_config: JSON.stringify({ pairedToken: other, tickIfToken0IsNewToken: -230_400 }),
      starting_market_cap: null,
      warnings: ["UNUSUAL_PAIR_ADDRESS"],
    });
  });

  it("has no pool without a PoolCreated; v0 and v1 still pair with WETH, the only pair they had", () => {
    const v31 = tokenRowFromEvent(legacy({ type: "clanker_v3_1", startingTick: -230_400, pool: null }), ctx);
    expect(v31).toMatchObject({ pool_address: null, pair: null, pool_config: null, starting_market_cap: null });
    expect(tokenRowFromEvent(legacy({ type: "clanker", pool: null }), ctx)).toMatchObject({
      pool_address: null,
      pair: "WETH",
    });
  });

  it("is stored and read back with its LP NFT", async () => {
    const stored = await upsertIndexedToken(legacy({ type: "clanker_v2", lpNftId: 2n ** 255n }), ctx);
    expect(stored).toMatchObject({ type: "clanker_v2", lp_nft_id: (2n ** 255n).toString(), pool_address: LEGACY_POOL });
    const again = await upsertIndexedToken(legacy({ type: "clanker_v2", lpNftId: 5n }), ctx);
    expect(again).toMatchObject({ id: stored.id, lp_nft_id: "5" });
  });
});

describe("upsertIndexedToken", () => {
  it("inserts, then refreshes on-chain facts while keeping tags, presale and an attributed fid", async () => {
    const first = await upsertIndexedToken(event({ tokenContext: "{}" }), {
      chainId: 8453,
      deployedAt: WHEN,
      deployment: null,
      attributedFid: 9,
    });
    expect(first.requestor_fid).toBe(9);
    const hook = "0x3333333333333333333333333333333333333333";
    const read = { fees: { hook_address: hook, recipients: [{ bps: 10_000, admin: hook, recipient: hook }] } };
    await db()
      .updateTable("tokens")
      .set({
        tags: JSON.stringify({ champagne: true, verified: true, knownInterfaceDeployer: false }),
        presale_id: 3,
        extensions: JSON.stringify(read),
      })
      .where("id", "=", first.id)
      .execute();
    // The same deployment again, its configuration unread this time: what was read stays.
    const again = await upsertIndexedToken(event({ tokenContext: "{}" }), {
      chainId: 8453,
      deployedAt: WHEN,
      deployment: null,
    });
    expect(again.extensions).toEqual(read);
    const moved = await upsertIndexedToken(
      event({ tokenContext: "{}", blockNumber: 130n, transactionHash: `0x${"d".repeat(64)}` }),
      {
        chainId: 8453,
        deployedAt: new Date("2026-01-02T03:05:00Z"),
        deployment: null,
      },
    );
    expect(moved).toMatchObject({
      id: first.id,
      block_number: 130,
      tx_hash: `0x${"d".repeat(64)}`,
      requestor_fid: 9,
      presale_id: 3,
    });
    expect(moved.tags).toEqual({ champagne: true, verified: true, knownInterfaceDeployer: false });
    expect(moved.extensions).toEqual({ fees: { hook_address: hook } }); // another transaction (a reorg): its own
    expect(moved.deployed_at.toISOString()).toBe("2026-01-02T03:05:00.000Z");
    expect(await db().selectFrom("tokens").select("id").execute()).toHaveLength(1);
  });

  it("links a token to the presale that deployed it when the presale was indexed first", async () => {
    await db()
      .insertInto("presales")
      .values({
        chain_id: 8453,
        presale_id: 11,
        presale_address: "0x00000000000000000000000000000000000000a7",
        token_address: TOKEN.toLowerCase(),
        deployment_config: null,
      })
      .execute();
    const stored = await upsertIndexedToken(event(), { chainId: 8453, deployedAt: WHEN, deployment: null });
    expect(stored.presale_id).toBe(11);
    const row = await db().selectFrom("tokens").select("presale_id").executeTakeFirstOrThrow();
    expect(row.presale_id).toBe(11);
    const other = await upsertIndexedToken(event(), { chainId: 84532, deployedAt: WHEN, deployment: null });
    expect(other.presale_id).toBeNull(); // the presale is on another chain
  });
});

describe("the migration giving tokens indexed before extensions their hook", () => {
  it("writes the kept poolHook where extensions is null, in slices of the ids, and leaves the rest", async () => {
    const hook = "0x3333333333333333333333333333333333333333";
    const at = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as const;
    const ctx = { chainId: 8453, deployedAt: WHEN, deployment: null };
    const rows = [];
    for (const n of [1, 2, 3, 4]) rows.push(await upsertIndexedToken(event({ tokenAddress: at(n) }), ctx));
    const read = { fees: { hook_address: hook, type: "static", tokenFee: 10_000, pairedFee: 10_000 } };
    const set = (id: number, values: { id?: number; extensions?: string | null; pool_config?: string | null }) =>
      db().updateTable("tokens").set(values).where("id", "=", id).execute();
    await set(rows[0]!.id, { extensions: null });
    await set(rows[1]!.id, { extensions: null, id: rows[0]!.id + 120_000 }); // two slices further on
    await set(rows[2]!.id, { extensions: null, pool_config: JSON.stringify({ pairedToken: hook }) });
    await set(rows[3]!.id, { extensions: JSON.stringify(read) });
    const { up } = await import("@/db/migrations/20261128150000_token_extensions_hook");
    await up(db());
    const byAddress = new Map(
      (await db().selectFrom("tokens").select(["contract_address", "extensions"]).execute()).map((r) => [
        r.contract_address,
        r.extensions,
      ]),
    );
    expect(byAddress.get(at(1))).toEqual({ fees: { hook_address: hook } });
    expect(byAddress.get(at(2))).toEqual({ fees: { hook_address: hook } });
    expect(byAddress.get(at(3))).toBeNull(); // no hook kept
    expect(byAddress.get(at(4))).toEqual(read);
    await up(db()); // nothing left to write
  });
});
