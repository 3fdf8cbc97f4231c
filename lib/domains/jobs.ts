// Every job the server runs, as one list: the platform's daily prune (of settled rows and of the domains' history)
// and each domain's set, in the order their schedules are listed. Handed to the worker (lib/http/startup.ts), the
// QStash delivery and cron routes, the health check and the operator view; nothing registers itself on import.
import { jobRegistry, type JobRegistry, type JobSet } from "@/lib/platform/jobs/registry";
import { pruneJobs } from "@/lib/platform/jobs/retention";
import { airdropsJobs } from "./airdrops/jobs";
import { deployJobs } from "./launch/deploy/jobs";
import { indexerJobs } from "./launch/indexer/jobs";
import { leaderboardJobs } from "./leaderboard/jobs";
import { merkleJobs } from "./merkle/jobs";
import { presalesJobs } from "./presales/jobs";
import { earningsJobs } from "./rewards/earnings/jobs";
import { legacyClaimsJobs } from "./rewards/legacy/jobs";
import { streamJobs } from "./stream/jobs";
import { marketJobs } from "./tokens/market/jobs";
import { webhooksJobs } from "./webhooks/jobs";

export const domainJobSets: readonly JobSet[] = [
  leaderboardJobs,
  marketJobs,
  earningsJobs,
  merkleJobs,
  presalesJobs,
  indexerJobs,
  deployJobs,
  webhooksJobs,
  streamJobs,
  airdropsJobs,
  legacyClaimsJobs,
];

export const jobs: JobRegistry = jobRegistry([pruneJobs(domainJobSets), ...domainJobSets]);
