// The routes run the server's job list (lib/domains/jobs.ts). A test whose own jobs go through a route mocks that
// module with serverJobsAnd() and lists its jobs with addTestJobs(): the routes then see both.
import { vi } from "vitest";
import { jobRegistry, type JobRegistry, type JobSet } from "@/lib/platform/jobs/registry";

const added: JobSet[] = [];

/** Adds a test's jobs to the list the mocked module gives the routes. */
export function addTestJobs(set: JobSet): void {
  added.push(set);
}

/** The factory of `vi.mock("@/lib/domains/jobs", ...)`: the module as it is, its `jobs` with the test's added. */
export async function serverJobsAnd() {
  const actual = await vi.importActual<typeof import("@/lib/domains/jobs")>("@/lib/domains/jobs");
  let built: { count: number; registry: JobRegistry } | undefined;
  return {
    ...actual,
    get jobs(): JobRegistry {
      if (built?.count !== added.length)
        built = { count: added.length, registry: jobRegistry([actual.jobs, ...added]) };
      return built.registry;
    },
  };
}
