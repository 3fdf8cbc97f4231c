// Token events are kept STREAM_RETENTION_HOURS for resuming. The daily prune (jobs-prune) removes older ones, so
// they go even where no stream is open; the stream's reader also prunes every ten minutes while one is.
import type { JobSet } from "@/lib/platform/jobs/registry";
import { pruneTokenEvents } from "./service";

export const streamJobs: JobSet = {
  retentions: [{ name: "token-events", prune: async () => ({ deleted: await pruneTokenEvents() }) }],
};
