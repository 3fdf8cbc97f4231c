// Seeds presales as the indexer would have stored them: about one per 3,000 tokens, in every status, every
// other one with an allowlist (a published tree whose root is the presale's allowlist_root). Claimable ones
// ended in a seeded token (token_address, supply, lockup and vesting times); the others name the token
// they will deploy in their deployment config only.
import { sql } from "kysely";
import { getAddress } from "viem";
import { PRESALE_STATUS } from "@/lib/platform/chain";
import type { DomainSeeder, SeedContext } from "./types";
import { Weighted, type Prng } from "./prng";
import { DATASET_END, DATASET_START, SEED_WETH } from "./tokens";
import { leafAccounts, seedTrees, spreadTokenIds, TREE_TABLES, type SeedTree } from "./trees";
import { tokenName, tokenSymbol } from "./vocabulary";
import { allowlistOwner } from "@/lib/domains/presales/service";

/** About one presale per 3,000 tokens, at least 4 (none without tokens). */
export const presalesFor = (tokens: number) => (tokens ? Math.max(4, Math.round(tokens / 3000)) : 0);

const DAY = 86_400_000;
const ETH = 10n ** 18n;
const { Active, SuccessfulMinimumHit, SuccessfulMaximumHit, Failed, Claimable } = PRESALE_STATUS;
const STATUSES = new Weighted<number>([
  [Active, 20],
  [SuccessfulMinimumHit, 10],
  [SuccessfulMaximumHit, 5],
  [Failed, 20],
  [Claimable, 45],
]);

type Token = {
  id: number;
  chain_id: number;
  contract_address: string;
  name: string;
  symbol: string;
  admin: string;
  supply: string;
};
type Contracts = { presale: string; hook: string; locker: string; mevModule: string };

/** The DeploymentConfig of PresaleStarted as the indexer stores it (viem's decoding: checksummed addresses). */
function deploymentConfig(r: Prng, c: Contracts, t: { name: string; symbol: string; admin: string; chainId: number }) {
  const admin = getAddress(t.admin);
  return {
    tokenConfig: {
      tokenAdmin: admin,
      name: t.name,
      symbol: t.symbol,
      salt: r.hex(32),
      image: `https://ipfs.io/ipfs/bafkrei${r.hex(24).slice(2)}`,
      metadata: JSON.stringify({ description: `${t.name} presale` }),
      context: JSON.stringify({ interface: "clanker.world" }),
      originatingChainId: String(t.chainId),
    },
    poolConfig: {
      hook: getAddress(c.hook),
      pairedToken: SEED_WETH,
      tickIfToken0IsClanker: -230400,
      tickSpacing: 200,
      poolData: "0x",
    },
    lockerConfig: {
      locker: getAddress(c.locker),
      rewardAdmins: [admin],
      rewardRecipients: [admin],
      rewardBps: [10000],
      tickLower: [-230400],
      tickUpper: [-120000],
      positionBps: [10000],
      lockerData: "0x",
    },
    mevModuleConfig: { mevModule: getAddress(c.mevModule), mevModuleData: "0x" },
    extensionConfigs: [
      { extension: getAddress(c.presale), msgValue: "0", extensionBps: 1000 * r.between(1, 5), extensionData: "0x" },
    ],
  };
}

/** ETH raised for a status, between the goals as the contract's status rules require. */
function raised(r: Prng, status: number, min: bigint, max: bigint): bigint {
  const between = (lo: bigint, hi: bigint) => lo + ((hi - lo) * BigInt(r.int(1000))) / 1000n;
  if (status === SuccessfulMaximumHit) return max;
  if (status === Failed || status === Active) return between(0n, min);
  return between(min, max);
}

type Row = Record<(typeof PRESALE_COLUMNS)[number][0], unknown>;
type Slot = { presaleId: number; contracts: Contracts; status: number; withAllowlist: boolean };

/**
 * One presale's row and, when it has one, its allowlist (the row's allowlist_root is "" until the tree is
 * built). A Claimable presale is the token's own launch; the others name a token not deployed yet.
 */
function presaleRow(
  r: Prng,
  token: Token,
  slot: Slot,
  account: (r: Prng) => string,
): { row: Row; allowlist?: SeedTree } {
  const { presaleId, contracts: c, status } = slot;
  const chainId = token.chain_id;
  const claimable = status === Claimable;
  const name = claimable ? token.name : tokenName(r);
  const symbol = claimable ? token.symbol : tokenSymbol(r, name);
  const owner = claimable ? token.admin : account(r);
  const days = r.between(1, 14);
  // Active presales end after the dataset's end; the rest ran at some point before it.
  const started =
    status === Active
      ? DATASET_END.getTime() - r.int(days * DAY)
      : DATASET_START.getTime() + r.int(DATASET_END.getTime() - DATASET_START.getTime() - 40 * DAY);
  const min = BigInt(r.between(1, 20)) * ETH;
  const max = min * BigInt(r.between(2, 10));
  const lockup = r.pick([0, 7, 30, 90]) * 86_400;
  const vesting = r.pick([0, 30, 180]) * 86_400;
  const endTime = started + days * DAY;
  const lockupEnd = claimable ? endTime + r.int(DAY) + lockup * 1000 : null;
  const allowlist = slot.withAllowlist
    ? {
        owner: allowlistOwner(chainId, presaleId),
        values: Array.from(
          { length: r.between(5, 400) },
          () => [account(r), (BigInt(r.between(1, 500)) * ETH) / 100n] as const,
        ),
      }
    : undefined;
  const row: Row = {
    chain_id: chainId,
    presale_id: presaleId,
    presale_address: c.presale,
    status,
    owner,
    allowlist_root: allowlist ? "" : null,
    deployment_config: JSON.stringify(deploymentConfig(r, c, { name, symbol, admin: owner, chainId })),
    min_eth_goal: min.toString(),
    max_eth_goal: max.toString(),
    eth_raised: raised(r, status, min, max).toString(),
    _end_ms: endTime,
    lockup_duration: lockup,
    vesting_duration: vesting,
    _lockup_end_ms: lockupEnd,
    _vesting_end_ms: lockupEnd === null ? null : lockupEnd + vesting * 1000,
    token_address: claimable ? token.contract_address : null,
    token_supply: claimable ? token.supply : null,
    _started_ms: started,
    start_tx_hash: r.hex(32),
    state_block: r.between(20_000_000, 30_000_000),
    state_log_index: r.between(0, 300),
  };
  return { row, allowlist };
}

async function run(ctx: SeedContext) {
  const ids = spreadTokenIds(ctx, presalesFor(ctx.tokens.count), 0.5);
  if (!ids.length) return;
  const { rows: tokens } = await sql<Token>`
    SELECT id, chain_id, contract_address, name, symbol, admin, supply::text AS supply
    FROM tokens WHERE id = ANY(${ids}::int8[]) ORDER BY id`.execute(ctx.db);
  const account = await leafAccounts(ctx);
  const contracts = new Map<number, Contracts>();
  const nextId = new Map<number, number>();
  const columns: Record<string, unknown[]> = Object.fromEntries(PRESALE_COLUMNS.map(([name]) => [name, []]));
  const allowlists: SeedTree[] = [];
  for (const [index, token] of tokens.entries()) {
    const r = ctx.rng.fork(`presale/${token.id}`);
    const c = contracts.get(token.chain_id) ?? {
      presale: r.hex(20),
      hook: r.hex(20),
      locker: r.hex(20),
      mevModule: r.hex(20),
    };
    contracts.set(token.chain_id, c);
    const presaleId = (nextId.get(token.chain_id) ?? 0) + 1;
    nextId.set(token.chain_id, presaleId);
    // The first is always Claimable, so every dataset has a presale that ended in a seeded token.
    const sampled = STATUSES.sample(r);
    const slot = { presaleId, contracts: c, status: index === 0 ? Claimable : sampled, withAllowlist: index % 2 === 0 };
    const { row, allowlist } = presaleRow(r, token, slot, account);
    for (const [name] of PRESALE_COLUMNS) columns[name].push(row[name] ?? null);
    if (allowlist) allowlists.push(allowlist);
  }
  const built = await seedTrees(ctx, "allowlist", allowlists);
  const roots = new Map(built.map((t) => [t.owner, t.root]));
  columns.allowlist_root = columns.allowlist_root.map((root, i) =>
    root === null ? null : roots.get(allowlistOwner(columns.chain_id[i] as number, columns.presale_id[i] as number)),
  );
  await ctx.insert({
    phase: "presales",
    table: "presales",
    total: tokens.length,
    columns: PRESALE_COLUMNS,
    select: PRESALE_SELECT,
    generate: (start, end) =>
      Object.fromEntries(Object.entries(columns).map(([name, values]) => [name, values.slice(start, end)])),
  });
  // As the presale indexer does: a token a presale deployed names that presale.
  await sql`
    UPDATE tokens t SET presale_id = p.presale_id FROM presales p
    WHERE p.token_address = t.contract_address AND p.chain_id = t.chain_id`.execute(ctx.db);
}

const PRESALE_COLUMNS = [
  ["chain_id", "int4"],
  ["presale_id", "int8"],
  ["presale_address", "text", "plain"],
  ["status", "int2"],
  ["owner", "text", "plain"],
  ["allowlist_root", "text", "plain"],
  ["deployment_config", "jsonb"],
  ["min_eth_goal", "numeric", "plain"],
  ["max_eth_goal", "numeric", "plain"],
  ["eth_raised", "numeric", "plain"],
  ["_end_ms", "float8"],
  ["lockup_duration", "int8"],
  ["vesting_duration", "int8"],
  ["_lockup_end_ms", "float8"],
  ["_vesting_end_ms", "float8"],
  ["token_address", "text", "plain"],
  ["token_supply", "numeric", "plain"],
  ["_started_ms", "float8"],
  ["start_tx_hash", "text", "plain"],
  ["state_block", "int8"],
  ["state_log_index", "int4"],
] as const;

const time = (input: string) => `to_timestamp(u.${input} / 1000.0)`;
const PRESALE_SELECT = {
  end_time: time("_end_ms"),
  lockup_end_time: time("_lockup_end_ms"),
  vesting_end_time: time("_vesting_end_ms"),
  started_at: time("_started_ms"),
  created_at: time("_started_ms"),
  updated_at: `'${DATASET_END.toISOString()}'::timestamptz`,
};

export const presalesSeeder: DomainSeeder = {
  name: "presales",
  version: 3,
  tables: ["presales", ...TREE_TABLES],
  run,
};
