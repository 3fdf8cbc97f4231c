// POST /api/airdrops with enqueue: true: validated at once (a bad tree is still a 400/422), kept durably
// as a staged tree, published by a job after delaySeconds.
import { beforeEach, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { getAddress } from "viem";
import { db } from "@/db";
import { GET, POST } from "@/app/api/airdrops/route";
import { runDueJobs, runJobById } from "@/lib/platform/jobs/runner";
import { jobs } from "@/lib/domains/jobs";
import { useTestChain } from "@/tests/helpers/chain";
import { call, expectError } from "@/tests/helpers/http";
import { address, makeTree, postRaw, tokenWithAirdrop } from "./trees";

const chain = useTestChain();
const tree = makeTree(25);
// Each test saves for its own token: the same tree again for a token would be answered as unchanged.
let token: string;
beforeEach(async () => {
  token = await tokenWithAirdrop(chain(), tree.root);
});
const upload = (extra: Record<string, unknown>) =>
  postRaw(
    POST,
    "/api/airdrops",
    JSON.stringify({ tokenAddress: token, merkleRoot: tree.root, tree: tree.dump, ...extra }),
  );
const claims = async () => call(GET, `/api/airdrops?tokenAddress=${token}&claimerAddress=${address(3)}`);
const publishJobs = () =>
  sql<{ id: number; run_at: Date; status: string; payload: { treeId: number } }>`
    SELECT id, run_at, status, payload FROM jobs WHERE name = 'merkle-publish-tree' ORDER BY id`.execute(db());

describe("enqueued airdrop saves", () => {
  it("answer accepted, stay invisible until the job runs after the delay, then publish", async () => {
    const before = Date.now();
    // Through call(): the enqueued answer is also checked against the route's documented response schema.
    const res = await call(POST, "/api/airdrops", {
      body: { tokenAddress: token, merkleRoot: tree.root, tree: tree.dump, enqueue: true, delaySeconds: 30 },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      enqueued: true,
      delaySeconds: 30,
      leafCount: 25,
      merkleRoot: tree.root,
      tokenAddress: getAddress(token),
    });
    expect(res.body.message).toMatch(/accepted/);
    expectError(await claims(), 404, "not_found");
    const [job] = (await publishJobs()).rows;
    expect(job.run_at.getTime()).toBeGreaterThanOrEqual(before + 29_000);
    expect(await runDueJobs(jobs)).toEqual([]); // not due yet
    await sql`UPDATE jobs SET run_at = now() WHERE id = ${job.id}`.execute(db()); // what 30 seconds would do
    expect(await runJobById(jobs, job.id)).toMatchObject({ status: "done" });
    expect((await claims()).body).toEqual({ claims: ["400000000000000000"] });
  });

  it("default to a 10 second delay", async () => {
    const res = await upload({ enqueue: true });
    expect(res.body.delaySeconds).toBe(10);
  });

  it("reject a bad tree at once rather than in the job", async () => {
    const bad = { tokenAddress: token, merkleRoot: tree.root, tree: { ...tree.dump, format: "v2" }, enqueue: true };
    const jobs = (await publishJobs()).rows.length;
    expectError(
      await postRaw(POST, "/api/airdrops", JSON.stringify(bad)).then((r) => ({ ...r })),
      400,
      "invalid_request",
    );
    expect((await publishJobs()).rows.length).toBe(jobs);
  });

  it("fail permanently, with the reason, when the staged tree was deleted before publishing", async () => {
    const res = await upload({ enqueue: true, delaySeconds: 0 });
    expect(res.status).toBe(200);
    const job = (await publishJobs()).rows.at(-1)!;
    await sql`DELETE FROM merkle_trees WHERE id = ${job.payload.treeId}`.execute(db());
    const outcome = await runJobById(jobs, job.id);
    expect(outcome).toMatchObject({ status: "failed" });
    expect(outcome?.error).toMatch(/deleted before it was published/);
  });
});
