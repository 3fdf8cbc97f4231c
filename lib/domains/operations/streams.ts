// The chain event streams the indexers follow: each one's job (run by a schedule of the same name) and its
// checkpoints. Light to import (no chain client): the health check reads the job names.
import { db } from "@/db";
import { listTokenIndexCheckpoints } from "@/lib/domains/launch/queries/token-index";
import { listFeeClaimCheckpoints } from "@/lib/domains/rewards/queries";
import { listAirdropClaimCheckpoints } from "@/lib/domains/airdrops/queries";

/** Checkpoints read per stream: the operator view stays one bounded page. */
const MAX_CHECKPOINTS = 100;

type Checkpoint = { chainId: number; contract: string; lastBlock: number | string; updatedAt: Date };

/** The chain event streams and their progress: each indexer's job (its schedule's name) and its checkpoints. */
export const EVENT_STREAMS: readonly {
  stream: string;
  job: string;
  checkpoints: () => Promise<Checkpoint[]>;
}[] = [
  { stream: "token-created", job: "token-index", checkpoints: () => listTokenIndexCheckpoints(db(), MAX_CHECKPOINTS) },
  { stream: "fee-claims", job: "earnings-index", checkpoints: () => listFeeClaimCheckpoints(db(), MAX_CHECKPOINTS) },
  {
    stream: "airdrop-claims",
    job: "airdrop-claims-index",
    checkpoints: () => listAirdropClaimCheckpoints(db(), MAX_CHECKPOINTS),
  },
];

/** The indexers' job names, which the health check holds to INDEXER_MAX_LAG_MINUTES. */
export const INDEXER_JOBS = EVENT_STREAMS.map((s) => s.job);
