// Synthetic tokens and their market rows: every COMPAT field, with the skews real data has (a few
// creators and interfaces launch most tokens, WETH pairs and Base dominate, newer tokens are v4).
import { checksum } from "@/lib/core/evm";
import {
  LEGACY_POOL,
  PRODUCTION_LEGACY_FACTORIES,
  UNISWAP_V3,
  uniswapV3PoolAddress,
  type LegacyGeneration,
} from "@/lib/platform/chain/generations";
import { PRODUCTION_DEFAULTS } from "@/lib/platform/chain/settings";
import { type Prng, Weighted, Zipf } from "./prng";
import { tokenDescription, tokenName, tokenSymbol } from "./vocabulary";
import type { Phase } from "./phases";
import type { UsersModel } from "./users";

const DAY = 86_400_000;
/** Fixed, so the same seed gives the same rows whenever it runs. */
export const DATASET_END = new Date("2026-11-01T00:00:00Z");
export const DATASET_START = new Date(DATASET_END.getTime() - 730 * DAY);

/**
 * Base's WETH, from the chain settings' published defaults rather than this process's environment (a
 * WETH_ADDRESS_8453 set for a local chain), so the same seed gives the same rows wherever it runs.
 */
export const SEED_WETH = PRODUCTION_DEFAULTS[8453].weth!;
/** Paired tokens by symbol (addresses of the Base deployments). */
const PAIRS = new Weighted<[string, string]>([
  [["WETH", SEED_WETH.toLowerCase()], 90],
  [["USDC", "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913"], 3],
  [["DEGEN", "0x4ed4e862860bed51a9570b96d89af5e1b0efefed"], 2.5],
  [["CLANKER", "0x1bc0c42215582d5a085795f4badbac3ff36d1bcb"], 2],
  [["ANON", "0x0db510e79909666d6dec7f5e49370838c16d950f"], 1.5],
  [["HIGHER", "0x0578d8a44db98b23bf096a382e016e29a5ce0ffe"], 1],
]);
const CHAINS = new Weighted<number>([
  [8453, 92],
  [42161, 3],
  [130, 2],
  [1, 1.5],
  [84532, 1.5],
]);
/** Deployment generations (the token object's `type`), oldest first, with the share of the two years each was current. */
const TYPES = [
  ["proxy", 0.08],
  ["clanker", 0.15],
  ["clanker_v2", 0.3],
  ["clanker_v3", 0.45],
  ["clanker_v3_1", 0.62],
  ["clanker_v4", 1],
] as const;
/** Interfaces (social_context.interface) and their shares; each has one deployer wallet of its own. */
const INTERFACE_SHARES = [
  ["clanker.world", 34],
  ["Bankr", 20],
  ["Farcaster", 14],
  ["clanker-sdk", 10],
  ["Rainbow", 5],
  ["Coinbase Wallet", 4],
  ["Zapper", 3],
  ["Infinex", 2],
  ["Interface X", 2],
  ["Bonfire", 2],
  ["Cura", 2],
  ["Paragraph", 2],
] as const;
const INTERFACE_NAMES = INTERFACE_SHARES.map(([name]) => name);
const INTERFACES = new Weighted<number>(INTERFACE_SHARES.map(([, share], i) => [i, share] as const));
const DEFAULT_TICK = -230_400;
const SUPPLY_V4 = "100000000000000000000000000000";
const SUPPLY_OLD = "1000000000000000000000000000";

export type TokenPlan = { count: number; firstId: number; users: UsersModel };

/**
 * Contract addresses of each generation, and each interface's deployer: fixed per seed. Every generation is the
 * platform's own Base contracts (the legacy ones from generations.ts), where the local chain puts its contracts, so
 * the reads that ask the chain about a token (creator-earnings, fee estimates, claim info) get an answer on the demo
 * data. v0 and v1 have no shared locker (null): each token names its own.
 */
function constants(rng: Prng) {
  const r = rng.fork("constants");
  const factories: { factory: string; locker: string | null }[] = TYPES.map(() => ({
    factory: r.hex(20),
    locker: r.hex(20),
  }));
  for (const [i, [type]] of TYPES.entries()) {
    const legacy = PRODUCTION_LEGACY_FACTORIES[8453]!.find((f) => f.type === type);
    if (legacy) factories[i] = { factory: legacy.factory.toLowerCase(), locker: legacy.locker?.toLowerCase() ?? null };
  }
  const base = PRODUCTION_DEFAULTS[8453];
  factories[factories.length - 1] = { factory: base.factory!.toLowerCase(), locker: base.locker!.toLowerCase() };
  const interfaceDeployers = INTERFACE_NAMES.map(() => r.hex(20));
  return { factories, interfaceDeployers };
}

function generationAt(when: number): number {
  let i = 0;
  while (i < TYPES.length - 1 && when > TYPES[i][1]) i++;
  return i;
}

/** Base's fee hooks and MEV module: a v4 token's pool_config names them, and its extensions the hook. */
const BASE_V4 = PRODUCTION_DEFAULTS[8453];

/**
 * A v4 token's `extensions`, as the indexer writes it (lib/domains/launch/indexer/extensions.ts): most read from the
 * factory call (fees and a split between the admin and, for some, its interface), the rest the hook alone.
 */
function extensionsText(x: Prng, hook: string, dynamic: boolean, admin: string, interfaceWallet: string): string {
  if (x.chance(0.1)) return JSON.stringify({ fees: { hook_address: hook } });
  const fees = dynamic
    ? { type: "dynamic", baseFee: 5_000, maxFee: 50_000 }
    : { type: "static", tokenFee: 10_000, pairedFee: 10_000 };
  const owner = { admin: checksum(admin), recipient: checksum(admin) };
  const recipients = x.chance(0.3)
    ? [
        { bps: 8_000, ...owner },
        { bps: 2_000, admin: checksum(interfaceWallet), recipient: checksum(interfaceWallet) },
      ]
    : [{ bps: 10_000, ...owner }];
  return JSON.stringify({ fees: { hook_address: hook, ...fees, recipients } });
}

/** A legacy token's pool as the indexer computes it: the WETH 1% Uniswap V3 pool on Base. */
const legacyPool = (token: string) =>
  uniswapV3PoolAddress(UNISWAP_V3[8453]!, token as `0x${string}`, SEED_WETH, LEGACY_POOL.fee).toLowerCase();

const marketCapOf = (tick: number) => Math.round(1.0001 ** tick * 1e11 * 1e4) / 1e4;

export function tokenPhases(plan: TokenPlan, rng: Prng): Phase[] {
  const r = rng.fork("tokens");
  const m = rng.fork("market");
  const ext = rng.fork("extensions"); // its own stream: the other columns are what they were before extensions
  const lp = rng.fork("legacy-positions"); // likewise for the legacy tokens' LP NFTs and own lockers
  const { factories, interfaceDeployers } = constants(rng);
  const { users, count, firstId } = plan;
  const apiDeployers = Array.from({ length: Math.max(5, Math.ceil(count / 50)) }, (_, i) =>
    r.uniqueHex(20, i, 0x5eed0003),
  );
  const apiDeployerRanks = new Zipf(apiDeployers.length, 1.1);
  const span = DATASET_END.getTime() - DATASET_START.getTime();

  const tokens: Phase = {
    phase: "tokens",
    table: "tokens",
    total: count,
    columns: TOKEN_COLUMNS,
    select: TOKEN_SELECT,
    generate(start, end) {
      const c: Record<string, unknown[]> = {};
      for (const [name] of TOKEN_COLUMNS) c[name] = [];
      for (let i = start; i < end; i++) {
        // More launches per day as time goes on: position i maps to time fraction ((i+u)/n)^0.7.
        const when = ((i + r.float()) / count) ** 0.7;
        const deployedAt = DATASET_START.getTime() + Math.floor(when * span);
        const typeIndex = Math.max(0, generationAt(when) - (r.chance(0.05) ? 1 : 0));
        const type = TYPES[typeIndex][0];
        const v4 = type === "clanker_v4";
        // Generations before v4 are Base's and paired with WETH, as the indexer writes them (docs/chain.md); only
        // v3.1's event names a tick, so only it has a pool config and a starting market cap.
        const legacy = v4 ? null : (type as LegacyGeneration);
        const sampledChain = CHAINS.sample(r);
        const chainId = legacy ? 8453 : sampledChain;
        const sampledPair = PAIRS.sample(r);
        const [pair, pairedToken] = legacy ? ["WETH", SEED_WETH.toLowerCase()] : sampledPair;
        const tick = pair === "WETH" && r.chance(0.85) ? DEFAULT_TICK : -200 * r.between(900, 1250);
        const hasPoolConfig = r.chance(0.98) && (!legacy || legacy === "clanker_v3_1");
        const warnings: string[] = [];
        if (tick !== DEFAULT_TICK && pair === "WETH" && r.chance(0.3)) warnings.push("UNUSUAL_TICK");
        if (pair !== "WETH" && r.chance(0.2)) warnings.push("UNUSUAL_PAIR_ADDRESS");
        if (!hasPoolConfig && !legacy) warnings.push("MISSING_POOL_CONFIG");
        if (r.chance(0.01)) warnings.push("UNUSUAL_POSITIONS");

        const name = tokenName(r);
        const symbol = tokenSymbol(r, name);
        const iface = INTERFACES.sample(r);
        const creator = r.chance(0.85) ? users.byPopularity(users.popularity.sample(r)) : -1;
        const fid = creator >= 0 ? users.firstFid + creator : null;
        const creatorAddress = creator >= 0 ? (users.addresses[creator][0] ?? users.custody[creator]) : null;
        const viaInterface = creator >= 0 && r.chance(0.5);
        const msgSender = viaInterface
          ? interfaceDeployers[iface]
          : (creatorAddress ?? apiDeployers[apiDeployerRanks.sample(r)]);
        const admin =
          creatorAddress && r.chance(0.9)
            ? creatorAddress
            : r.chance(0.7)
              ? msgSender
              : apiDeployers[r.int(apiDeployers.length)];
        const platform = fid === null ? (r.chance(0.5) ? "x" : "") : r.chance(0.82) ? "farcaster" : "x";
        const messageId =
          platform === "farcaster" ? r.hex(20) : platform === "x" ? String(1.7e18 + r.int(2 ** 31) * 1e8) : "";
        const handle = symbol.toLowerCase();
        const x = r.chance(0.5) ? `{"platform":"x","url":"https://x.com/${handle}"}` : "";
        const telegram = r.chance(0.2) ? `{"platform":"telegram","url":"https://t.me/${handle}"}` : "";
        const socials = `[${x}${x && telegram ? "," : ""}${telegram}]`;

        c.id.push(firstId + i);
        c._deployed_ms.push(deployedAt);
        c._indexed_after_ms.push(r.between(2_000, 90_000));
        c.tx_hash.push(r.hex(32));
        const token = r.uniqueHex(20, i, 0x5eed0004);
        c.contract_address.push(token);
        c.chain_id.push(chainId);
        c.name.push(name);
        c.symbol.push(symbol);
        c._image_cid.push(r.chance(0.85) ? r.hex(24).slice(2) : null);
        const poolId = v4 ? r.uniqueHex(32, i, 0x5eed0005) : r.uniqueHex(20, i, 0x5eed0006);
        c.pool_address.push(legacy ? legacyPool(token) : poolId);
        c.requestor_fid.push(fid);
        c.msg_sender.push(msgSender);
        c.admin.push(admin);
        // Only v1 to v3 events carry a cast.
        const castEra = legacy === "clanker" || legacy === "clanker_v2" || legacy === "clanker_v3";
        c.cast_hash.push(platform === "farcaster" && castEra ? messageId : null);
        c.type.push(type);
        c.pair.push(pair);
        c.factory_address.push(factories[typeIndex].factory);
        c.locker_address.push(factories[typeIndex].locker ?? lp.hex(20));
        c.lp_nft_id.push(legacy ? String(lp.between(100_000, 3_000_000)) : null);
        c._description.push(tokenDescription(r, name));
        c._socials.push(socials);
        c._interface.push(INTERFACE_NAMES[iface]);
        c._platform.push(platform);
        c._message_id.push(messageId);
        c._dev_buy.push(v4 ? null : r.chance(0.2) ? r.between(1, 50) / 100 : 0);
        c._paired_token.push(hasPoolConfig ? pairedToken : null);
        c._tick.push(tick);
        c._paired_checksum.push(legacy === "clanker_v3_1");
        const dynamic = ext.chance(0.2);
        const hook = dynamic ? BASE_V4.dynamicFeeHook! : BASE_V4.staticFeeHook!;
        c._pool_hook.push(v4 && hasPoolConfig ? hook : null);
        c._extensions.push(
          v4 && hasPoolConfig ? extensionsText(ext, hook, dynamic, admin, interfaceDeployers[iface]!) : null,
        );
        c.starting_market_cap.push(!legacy || hasPoolConfig ? marketCapOf(tick) : null);
        c.warnings.push(warnings.length ? `{${warnings.join(",")}}` : "{}");
        c._champagne.push(r.chance(0.02));
        c._verified.push(r.chance(0.06));
        c._known_deployer.push(viaInterface);
        c.supply.push(typeIndex <= 1 ? SUPPLY_OLD : SUPPLY_V4);
        c.block_number.push(blockAt(chainId, deployedAt));
        c.log_index.push(r.between(0, 300));
      }
      return c;
    },
  };

  const market: Phase = {
    phase: "token_market",
    table: "token_market",
    total: count,
    columns: MARKET_COLUMNS,
    select: { updated_at: `'${DATASET_END.toISOString()}'::timestamptz` },
    generate(start, end) {
      const c: Record<string, unknown[]> = {};
      for (const [name] of MARKET_COLUMNS) c[name] = [];
      for (let i = start; i < end; i++) {
        if (!m.chance(0.85)) continue; // some tokens have never been priced
        const marketCap = Math.round(m.logNormal(8_000, 2.2) * 100) / 100;
        const active = m.chance(0.6);
        c.token_id.push(firstId + i);
        c.market_cap_usd.push(marketCap);
        c.price_usd.push(marketCap / 1e11);
        c.volume_24h_usd.push(active ? Math.round(m.logNormal(marketCap * 0.05, 1.5) * 100) / 100 : 0);
        c.tx_count_24h.push(active ? Math.floor(m.logNormal(20, 1.5)) : 0);
        c.price_change_1h.push(active ? Math.round(m.normal() * 300) / 100 : 0);
        c.price_change_24h.push(active ? Math.round(m.normal() * 1500) / 100 : 0);
      }
      return c;
    },
  };
  return [tokens, market];
}

/** Block number at a time: Base-like chains from their genesis at 2 s blocks, others roughly. */
function blockAt(chainId: number, at: number): number {
  const [genesis, blockMs] =
    chainId === 1
      ? [1_438_269_973_000, 12_000]
      : chainId === 42161
        ? [1_622_240_000_000, 250]
        : [1_686_789_347_000, 2_000];
  return Math.floor((at - genesis) / blockMs);
}

/** Inputs of the tokens insert; "_" inputs feed the computed columns of TOKEN_SELECT. */
const TOKEN_COLUMNS = [
  ["id", "int8"],
  ["_deployed_ms", "float8"],
  ["_indexed_after_ms", "int4"],
  ["tx_hash", "text", "plain"],
  ["contract_address", "text", "plain"],
  ["chain_id", "int4"],
  ["name", "text"],
  ["symbol", "text"],
  ["_image_cid", "text", "plain"],
  ["pool_address", "text", "plain"],
  ["requestor_fid", "int8"],
  ["msg_sender", "text", "plain"],
  ["admin", "text", "plain"],
  ["cast_hash", "text", "plain"],
  ["type", "text", "plain"],
  ["pair", "text", "plain"],
  ["factory_address", "text", "plain"],
  ["locker_address", "text", "plain"],
  ["lp_nft_id", "text", "plain"],
  ["_description", "text"],
  ["_socials", "text"],
  ["_interface", "text"],
  ["_platform", "text"],
  ["_message_id", "text"],
  ["_dev_buy", "float8"],
  ["_paired_token", "text", "plain"],
  ["_tick", "int4"],
  ["_paired_checksum", "bool"],
  ["_pool_hook", "text", "plain"],
  ["_extensions", "text"],
  ["starting_market_cap", "float8"],
  ["warnings", "text[]"],
  ["_champagne", "bool"],
  ["_verified", "bool"],
  ["_known_deployer", "bool"],
  ["supply", "numeric", "plain"],
  ["block_number", "int8"],
  ["log_index", "int4"],
] as const;

/** JSON columns are built by Postgres from scalars: cheaper on both sides than sending JSON text. */
const TOKEN_SELECT = {
  created_at: "to_timestamp((u._deployed_ms + u._indexed_after_ms) / 1000.0)",
  deployed_at: "to_timestamp(u._deployed_ms / 1000.0)",
  // Served by the app itself (app/placeholders): made-up IPFS addresses would all 404 in the explorer.
  img_url:
    "'/placeholders/' || u._image_cid || '.svg?label=' || left(regexp_replace(u.symbol, '[^A-Za-z0-9]', '', 'g'), 2)",
  metadata:
    "jsonb_build_object('description', u._description, 'socialMediaUrls', u._socials::jsonb, 'auditUrls', '[]'::jsonb)",
  social_context:
    "jsonb_build_object('interface', u._interface, 'platform', u._platform, 'messageId', u._message_id, 'id', coalesce(u.requestor_fid::text, ''))",
  deploy_config:
    "CASE WHEN u._dev_buy IS NOT NULL THEN jsonb_build_object('devBuyAmount', u._dev_buy, 'lockupPercentage', 0, 'vestingUnlockDate', 0) END",
  pool_config:
    "CASE WHEN u._paired_token IS NOT NULL THEN jsonb_build_object('pairedToken', " +
    `CASE WHEN u._paired_checksum THEN '${SEED_WETH}' ELSE u._paired_token END, 'tickIfToken0IsNewToken', u._tick)` +
    ` || CASE WHEN u._pool_hook IS NOT NULL THEN jsonb_build_object('poolHook', u._pool_hook, 'mevModule', '${BASE_V4.mevModule}') ELSE '{}' END END`,
  extensions: "u._extensions::jsonb",
  tags: "jsonb_build_object('champagne', u._champagne, 'verified', u._verified, 'knownInterfaceDeployer', u._known_deployer)",
};

const MARKET_COLUMNS = [
  ["token_id", "int8"],
  ["market_cap_usd", "float8"],
  ["price_usd", "float8"],
  ["volume_24h_usd", "float8"],
  ["tx_count_24h", "int4"],
  ["price_change_1h", "float8"],
  ["price_change_24h", "float8"],
] as const;
