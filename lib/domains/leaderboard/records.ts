// The ingest format: one JSON object per line, `type` saying what it is (docs/market-and-leaderboard.md "Agents' activity").
import { z } from "zod";
import { zAddress } from "@/lib/core/input";

const agentId = z.string().regex(/^[A-Za-z0-9._:-]{1,64}$/, "1 to 64 of A-Z a-z 0-9 . _ : -");
const externalId = z.string().min(1).max(200);
const fid = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
/** Timestamps in the future (beyond a few minutes of clock skew) are refused rather than scored later. */
const at = z.iso
  .datetime({ offset: true })
  .transform((v) => new Date(v))
  .refine((d) => d.getTime() <= Date.now() + 5 * 60_000, "must not be in the future");

export const agentRecord = z.object({
  type: z.literal("agent"),
  agentId,
  name: z.string().trim().min(1).max(100),
  fid,
  creatorFid: fid,
  creatorNeynarScore: z.number().min(0).max(1).default(0),
  token: z.object({
    chainId: z
      .number()
      .int()
      .positive()
      .max(2 ** 31 - 1),
    address: zAddress,
    name: z.string().trim().min(1).max(100),
    symbol: z.string().trim().min(1).max(32),
  }),
});

export const runRecord = z.object({
  type: z.literal("run"),
  agentId,
  id: externalId,
  at,
  outcome: z.enum(["succeeded", "failed"]),
});
export const castRecord = z.object({
  type: z.literal("cast"),
  agentId,
  id: externalId,
  at,
  kind: z.enum(["post", "reply", "quote", "recast"]),
});
export const interactionRecord = z.object({
  type: z.literal("interaction"),
  agentId,
  id: externalId,
  at,
  counterpartFid: fid,
  kind: z.enum(["like", "recast", "reply", "quote", "mention", "follow"]),
});

export const activityRecord = z.discriminatedUnion("type", [agentRecord, runRecord, castRecord, interactionRecord]);
export type ActivityRecord = z.infer<typeof activityRecord>;
export type AgentRecord = z.infer<typeof agentRecord>;

/** What JSON can carry for a record (dates as strings): the job payload's form. */
export type ActivityRecordInput = z.input<typeof activityRecord>;

/** One line of an ingest file: the record (and the JSON it was read from), or why it is refused. */
export function parseRecordLine(line: string): { record: ActivityRecord; raw: unknown } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { error: "not valid JSON" };
  }
  const parsed = activityRecord.safeParse(value);
  if (parsed.success) return { record: parsed.data, raw: value };
  const issue = parsed.error.issues[0];
  return { error: `${issue.path.join(".") || "record"}: ${issue.message}` };
}
