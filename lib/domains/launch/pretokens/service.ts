// Pretokens: a user's pending version-4 deployment, validated and simulated on creation, listed while it is
// younger than 7 days and not deleted, soft-deleted by its owner (someone else's is the same 404 as none).
import { randomUUID } from "node:crypto";
import type { Address } from "viem";
import { checksum } from "@/lib/core/evm";
import type { z } from "zod";
import { db, type Database } from "@/db";
import { config } from "@/lib/core/config";
import {
  buildDeploymentConfig,
  SNIPER_FEE_DEFAULTS,
  socialLink,
  type DeploymentPlan,
} from "@/lib/domains/launch/deploy/config";
import { validateAll } from "@/lib/domains/launch/deploy/fields";
import { planPool } from "@/lib/domains/launch/deploy/mapping";
import { pretokenSalt } from "@/lib/domains/launch/deploy/salt";
import { simulateOrReject } from "@/lib/domains/launch/deploy/service";
import { configToJson } from "@/lib/domains/launch/deploy/stored";
import { percentToBps, percentToMillionths } from "@/lib/domains/launch/deploy/units";
import {
  countPendingPretokens,
  findPendingPretokens,
  insertPretoken,
  lockUserPretokens,
  softDeletePretoken,
} from "@/lib/domains/launch/queries/pretokens";
import { conflict, notFound } from "@/lib/core/errors";
import { enforceRateLimit } from "@/lib/platform/kv/rate-limit";
import type { UserPrincipal } from "@/lib/core/principal";
import { pretokenBody, pretokenRules, type PretokenBody } from "./schemas";
import type {
  createPretokenResponse,
  deletePretokenResponse,
  pendingPretokensResponse,
  pretokenObject,
} from "./responses";

type PretokenObject = z.input<typeof pretokenObject>;

export const PRETOKEN_ACTIVE_DAYS = 7;
const bps = (percent: number) => Number(percentToBps(percent)!);

/** The settings as a DeploymentPlan: the same mapping rules as the 4.0.0 deploy shape. */
export async function planPretoken(body: PretokenBody, salt: `0x${string}`): Promise<DeploymentPlan> {
  const s = body.token_settings;
  const tokenAdmin = s.admins[0]!.admin;
  const pool = await planPool(body.chain_id, {
    type: s.pool_config_type ?? "standard",
    pairedToken: s.paired_token,
    marketCap: s.starting_market_cap,
    paths: { pairedToken: "token_settings.paired_token", marketCap: "token_settings.starting_market_cap" },
  });
  const extensions: DeploymentPlan["extensions"] = [];
  const v = body.vault_settings;
  if (v)
    extensions.push({
      kind: "vault",
      bps: bps(v.percentage),
      admin: tokenAdmin,
      lockupSeconds: BigInt(v.lockup_duration),
      vestingSeconds: BigInt(v.vesting_duration ?? 0),
    });
  const a = body.airdrop;
  if (a) {
    extensions.push({
      kind: "airdrop",
      bps: bps(a.percentage),
      admin: a.admin ?? tokenAdmin,
      merkleRoot: a.merkle_root,
      lockupSeconds: BigInt(a.lockup_duration),
      vestingSeconds: BigInt(a.vesting_duration ?? 0),
    });
  }
  const ctx = s.social_context ?? {};
  return {
    chainId: body.chain_id,
    tokenAdmin,
    name: s.name,
    symbol: s.symbol,
    image: s.image_url ?? "",
    metadata: {
      description: s.description ?? s.metadata?.description ?? "",
      socialMediaUrls: (s.metadata?.socialMediaUrls ?? []).map(socialLink),
      auditUrls: s.metadata?.auditUrls ?? [],
    },
    context: {
      interface: ctx.interface ?? "",
      platform: ctx.platform ?? "",
      messageId: ctx.messageId ?? "",
      id: ctx.id === undefined ? "" : String(ctx.id),
    },
    salt,
    ...pool,
    fees:
      s.fee_config_type === "dynamic"
        ? { type: "dynamic", baseFee: Number(percentToMillionths(0.5)), maxLpFee: Number(percentToMillionths(5)) }
        : { type: "static", tokenFee: Number(percentToMillionths(1)), pairedFee: Number(percentToMillionths(1)) },
    rewards: s.admins.map((r) => ({
      admin: r.admin,
      recipient: r.recipient,
      bps: bps(r.allocation),
      rewardsToken: "Both",
    })),
    extensions,
    sniperFees: SNIPER_FEE_DEFAULTS,
  };
}

/** 409 when the user already has PRETOKEN_MAX_PENDING pending pretokens. */
async function checkCap(userId: string, executor: Database = db()): Promise<void> {
  const count = await countPendingPretokens(executor, userId, PRETOKEN_ACTIVE_DAYS);
  const max = config().PRETOKEN_MAX_PENDING;
  if (count >= max) throw conflict(`at most ${max} pending pretokens per user: delete one first`);
}

/** Each create validates and simulates a deployment: PRETOKEN_CREATES_PER_MINUTE per user, valid or not. */
export async function limitPretokenCreates(
  user: UserPrincipal,
  setHeader: (name: string, value: string) => void,
): Promise<void> {
  await enforceRateLimit(
    { name: "pretoken-create", limit: config().PRETOKEN_CREATES_PER_MINUTE, windowSeconds: 60 },
    `user:${user.userId}`,
    setHeader,
  );
}

export async function createPretoken(
  raw: unknown,
  user: UserPrincipal,
): Promise<z.input<typeof createPretokenResponse>> {
  const body = validateAll(pretokenBody, raw, pretokenRules);
  // Checked first to answer 409 before simulating, and again below where it counts.
  await checkCap(user.userId);
  const id = randomUUID();
  const deploymentConfig = buildDeploymentConfig(await planPretoken(body, pretokenSalt(user.userId, id)));
  const expected: Address = await simulateOrReject(body.chain_id, deploymentConfig);
  // Count and insert under the user's lock: concurrent creates would otherwise all pass the count.
  await db()
    .transaction()
    .execute(async (trx) => {
      await lockUserPretokens(trx, user.userId);
      await checkCap(user.userId, trx);
      await insertPretoken(trx, {
        id,
        user_id: user.userId,
        fid: user.fid,
        keyword: body.keyword,
        chain_id: body.chain_id,
        token_settings: JSON.stringify(body.token_settings),
        vault_settings: body.vault_settings ? JSON.stringify(body.vault_settings) : null,
        airdrop: body.airdrop ? JSON.stringify(body.airdrop) : null,
        deployment_config: JSON.stringify(configToJson(deploymentConfig)),
        expected_address: expected.toLowerCase(),
      });
    });
  return { success: true, id, expectedAddress: checksum(expected) };
}

/** At most PRETOKEN_MAX_PENDING rows (creation stops there), newest first. */
export async function listPendingPretokens(user: UserPrincipal): Promise<z.input<typeof pendingPretokensResponse>> {
  const rows = await findPendingPretokens(db(), user.userId, PRETOKEN_ACTIVE_DAYS, config().PRETOKEN_MAX_PENDING);
  return {
    pendingPretokens: rows.map((r) => ({
      id: r.id,
      keyword: r.keyword,
      chain_id: r.chain_id,
      // The columns hold the body createPretoken validated, as it stored it.
      token_settings: r.token_settings as PretokenObject["token_settings"],
      vault_settings: r.vault_settings as PretokenObject["vault_settings"],
      airdrop: r.airdrop as PretokenObject["airdrop"],
      expected_address: checksum(r.expected_address),
      created_at: r.created_at.toISOString(),
      expires_at: new Date(r.created_at.getTime() + PRETOKEN_ACTIVE_DAYS * 86_400_000).toISOString(),
    })),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function deletePretoken(id: string, user: UserPrincipal): Promise<z.input<typeof deletePretokenResponse>> {
  // A malformed id names no pretoken: the same 404 as someone else's or a missing one.
  if (!UUID.test(id)) throw notFound("no such pretoken");
  if (!(await softDeletePretoken(db(), id.toLowerCase(), user.userId))) throw notFound("no such pretoken");
  return { success: true };
}
