// The chain event streams the indexers follow: each one's job (run by a schedule of the same name). Their progress
// is the checkpoint store (lib/platform/checkpoints.ts). Light to import (no chain client): the health check reads
// the job names.
import { type CheckpointRow, listCheckpoints } from "@/lib/platform/checkpoints";

/** Checkpoints read at most: the operator view stays one bounded page. */
const MAX_CHECKPOINTS = 400;

/** The chain event streams, in the operator view's order, and each indexer's job (its schedule's name). */
export const EVENT_STREAMS: readonly { stream: string; job: string }[] = [
  { stream: "token-created", job: "token-index" },
  { stream: "fee-claims", job: "earnings-index" },
  { stream: "legacy-fee-claims", job: "legacy-claims-index" },
  { stream: "airdrop-claims", job: "airdrop-claims-index" },
  { stream: "presales", job: "presale-index" },
];

/** The indexers' job names, which the health check holds to INDEXER_MAX_LAG_MINUTES. */
export const INDEXER_JOBS = EVENT_STREAMS.map((s) => s.job);

const rank = (stream: string) => {
  const i = EVENT_STREAMS.findIndex((s) => stream === s.stream || stream.startsWith(`${s.stream}:`));
  return i < 0 ? EVENT_STREAMS.length : i;
};

/** Every checkpoint (a backfill's progress, `<stream>:backfill`, beside its stream's), in EVENT_STREAMS order. */
export async function streamCheckpoints(): Promise<CheckpointRow[]> {
  const rows = await listCheckpoints({ limit: MAX_CHECKPOINTS });
  return rows.sort(
    (a, b) => rank(a.stream) - rank(b.stream) || (a.stream < b.stream ? -1 : a.stream > b.stream ? 1 : 0),
  );
}
