// The operator view (GET /api/admin/status): how far each indexer is behind each chain, whether each schedule runs
// (and exists in QStash), the jobs that failed, set-aside chain events and the webhook backlog. Bounded reads of the
// database, one head per chain and one QStash list, each with a short timeout: a part that does not answer is
// reported as such, never a 500.
import { z } from "zod";
import { checksum } from "@/lib/core/evm";
import { withDeadline } from "@/lib/core/deadline";
import { configuredChainIds, getLatestBlockNumber } from "@/lib/platform/chain";
import { degradedReasons, healthResponse } from "@/lib/platform/health";
import { countOpenQuarantinedEvents } from "@/lib/platform/quarantine";
import type { JobRegistry } from "@/lib/platform/jobs/registry";
import { checkQStashSchedules, laneBacklog, listFailedJobsAsSeen, scheduleRuns } from "@/lib/platform/jobs/watch";
import { INDEXER_JOBS, streamCheckpoints } from "./streams";

/** A chain or QStash that takes longer than this is reported as not answering. */
export const CHAIN_HEAD_TIMEOUT_MS = 2000;
export const QSTASH_TIMEOUT_MS = 3000;
/** Failed jobs listed at most: the view stays one bounded page. */
const MAX_FAILED_JOBS = 100;

const iso = z.string().describe("ISO 8601");

export const operatorStatusResponse = z
  .object({
    checkedAt: iso,
    health: healthResponse
      .pick({ status: true, reasons: true })
      .describe("what GET /api/health says of the same state"),
    chains: z.array(
      z.object({
        chainId: z.number().int(),
        head: z.number().int().nullable().describe("the chain's latest block; null when it did not answer"),
        error: z.string().nullable().describe("why the head is unknown: no RPC URL, an error, or no answer in time"),
      }),
    ),
    streams: z.array(
      z.object({
        stream: z
          .string()
          .describe(
            "token-created, fee-claims, airdrop-claims or presales; `<stream>:backfill` for a backfill under way",
          ),
        chainId: z.number().int(),
        contract: z.string().describe("the factory, fee locker or airdrop contract followed"),
        indexedBlock: z.number().int().describe("the checkpoint: the last block indexed"),
        chainHead: z.number().int().nullable(),
        lagBlocks: z.number().int().nullable().describe("chainHead - indexedBlock; null when the head is unknown"),
        updatedAt: iso.describe("when the checkpoint last moved"),
      }),
    ),
    schedules: z.array(
      z.object({
        name: z.string(),
        path: z.string(),
        cron: z.string(),
        calledBy: z.enum(["vercel", "qstash"]).describe("who calls the path in production"),
        lastSuccessAt: iso.nullable().describe("the last successful run of its job (null: none kept, or the sweep)"),
        inQStash: z
          .enum(["present", "paused", "missing"])
          .nullable()
          .describe("for QStash's paths: whether QStash holds a schedule calling it; null when not checked"),
      }),
    ),
    qstash: z.object({
      checked: z.boolean(),
      error: z.string().nullable().describe("why the schedules were not checked, or QStash's error"),
    }),
    failedJobs: z
      .array(
        z.object({
          id: z.number().int(),
          job: z.string(),
          attempts: z.number().int(),
          lastError: z.string().nullable(),
          failedAt: iso,
        }),
      )
      .describe("failed in the last day, and older ones not listed before, newest first (at most 100); now seen"),
    quarantinedEvents: z.number().int().describe("open set-aside chain events, counted up to 1000"),
    webhookBacklog: z.object({
      queued: z.number().int().describe("deliveries waiting or running, counted up to 10,000"),
      due: z.number().int().describe("of those, the ones due now"),
      oldestDueAt: iso.nullable(),
    }),
  })
  .meta({
    examples: [
      {
        checkedAt: "2026-11-29T12:00:00.000Z",
        health: {
          status: "degraded",
          reasons: [{ code: "indexer_lagging", message: "no successful run of token-index in the last 10 minutes" }],
        },
        chains: [{ chainId: 8453, head: 23_000_120, error: null }],
        streams: [
          {
            stream: "token-created",
            chainId: 8453,
            contract: "0xE85A59c628F7d27878ACeB4bf3b35733630083a9",
            indexedBlock: 23_000_000,
            chainHead: 23_000_120,
            lagBlocks: 120,
            updatedAt: "2026-11-29T11:40:00.000Z",
          },
        ],
        schedules: [
          {
            name: "token-index",
            path: "/api/cron/token-index",
            cron: "* * * * *",
            calledBy: "qstash",
            lastSuccessAt: "2026-11-29T11:40:00.000Z",
            inQStash: "missing",
          },
        ],
        qstash: { checked: true, error: null },
        failedJobs: [
          {
            id: 4812,
            job: "deploy-token",
            attempts: 8,
            lastError: "execution reverted",
            failedAt: "2026-11-29T09:12:00.000Z",
          },
        ],
        quarantinedEvents: 0,
        webhookBacklog: { queued: 3, due: 1, oldestDueAt: "2026-11-29T11:59:30.000Z" },
      },
    ],
  });
export type OperatorStatus = z.infer<typeof operatorStatusResponse>;

async function chainHead(chainId: number): Promise<{ head: number | null; error: string | null }> {
  if (!configuredChainIds().includes(chainId)) return { head: null, error: `no RPC_URL_${chainId}` };
  try {
    const head = await withDeadline(
      getLatestBlockNumber(chainId),
      CHAIN_HEAD_TIMEOUT_MS,
      `no answer within ${CHAIN_HEAD_TIMEOUT_MS} ms`,
    );
    return { head: Number(head), error: null };
  } catch (error) {
    return { head: null, error: error instanceof Error ? error.message : String(error) };
  }
}

async function streamProgress() {
  const rows = await streamCheckpoints();
  const chainIds = [...new Set([...configuredChainIds(), ...rows.map((r) => r.chainId)])].sort((a, b) => a - b);
  const heads = await Promise.all(chainIds.map(async (chainId) => ({ chainId, ...(await chainHead(chainId)) })));
  const headOf = new Map(heads.map((h) => [h.chainId, h.head]));
  const streams = rows.map((r) => {
    const chainHead = headOf.get(r.chainId) ?? null;
    const indexedBlock = Number(r.lastBlock);
    return {
      stream: r.stream,
      chainId: r.chainId,
      contract: checksum(r.contract) ?? r.contract,
      indexedBlock,
      chainHead,
      lagBlocks: chainHead === null ? null : Math.max(0, chainHead - indexedBlock),
      updatedAt: r.updatedAt.toISOString(),
    };
  });
  return { chains: heads, streams };
}

async function scheduleStatus(jobs: JobRegistry) {
  const [runs, check] = await Promise.all([scheduleRuns(jobs), checkQStashSchedules(jobs, QSTASH_TIMEOUT_MS)]);
  const inQStash = (name: string) => {
    if (!check.checked || "error" in check) return null;
    if (check.present.includes(name)) return "present" as const;
    if (check.paused.includes(name)) return "paused" as const;
    return check.missing.includes(name) ? ("missing" as const) : null;
  };
  return {
    schedules: runs.map((r) => ({
      ...r,
      lastSuccessAt: r.lastSuccessAt?.toISOString() ?? null,
      inQStash: inQStash(r.name),
    })),
    qstash: {
      checked: check.checked && !("error" in check),
      error: !check.checked ? check.reason : "error" in check ? check.error : null,
    },
  };
}

/** GET /api/admin/status. Lists failed jobs as seen: the prune deletes a failed job only once it was listed here. */
export async function operatorStatus(jobs: JobRegistry): Promise<OperatorStatus> {
  const [progress, schedules, failed, quarantinedEvents, backlog] = await Promise.all([
    streamProgress(),
    scheduleStatus(jobs),
    listFailedJobsAsSeen(MAX_FAILED_JOBS),
    countOpenQuarantinedEvents(),
    laneBacklog("webhooks"),
  ]);
  // After the listing: failures it just marked seen no longer degrade the health check.
  const reasons = await degradedReasons({ jobs, indexers: INDEXER_JOBS }, quarantinedEvents);
  return {
    checkedAt: new Date().toISOString(),
    health: { status: reasons.length ? "degraded" : "ok", reasons },
    ...progress,
    ...schedules,
    failedJobs: failed.map((f) => ({ ...f, failedAt: f.failedAt.toISOString() })),
    quarantinedEvents,
    webhookBacklog: { ...backlog, oldestDueAt: backlog.oldestDueAt?.toISOString() ?? null },
  };
}
