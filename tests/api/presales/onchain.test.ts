// Against the local chain: GET /api/presales/refresh indexes presales from their transactions (and fails
// unknown or unrelated ones with a reason), and the proofs the service serves verify on chain, both in
// the presale contract's buyIntoPresale and in OpenZeppelin's MerkleProof (MerkleProofVerifier).
import { beforeEach, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { encodeFunctionData, parseEther, type Address, type Hex } from "viem";
import { db } from "@/db";
import { GET as listGET } from "@/app/api/presales/route";
import { GET as refreshGET } from "@/app/api/presales/refresh/route";
import { POST as allowlistPOST } from "@/app/api/presales/allowlists/route";
import { GET as proofGET } from "@/app/api/presales/allowlists/proof/route";
import { POST as airdropPOST } from "@/app/api/airdrops/route";
import { GET as claimGET } from "@/app/api/airdrops/claim/route";
import { merkleProofVerifierAbi, presaleAbi } from "@/dev/chain/artifacts";
import { resetConfig } from "@/lib/core/config";
import { runDueJobs } from "@/lib/platform/jobs/runner";
import "@/lib/domains/jobs"; // every job definition, as the server registers them
import { buildStandardTree } from "@/lib/domains/merkle/build";
import { defaultDeploymentConfig, useTestChain, type TestChain } from "@/tests/helpers/chain";
import { call, expectError } from "@/tests/helpers/http";
import { address, postRaw, tokenWithAirdrop } from "@/tests/api/airdrops/trees";

const chain = useTestChain();
const DURATION = 3600n;

beforeEach(() => {
  delete process.env.PRESALE_REFRESH_PENDING_ATTEMPTS;
  resetConfig();
});

async function startPresale(c: TestChain, root: Hex) {
  const owner = c.wallet(2);
  const config = defaultDeploymentConfig(c);
  config.extensionConfigs = [{ extension: c.contracts.presale, msgValue: 0n, extensionBps: 1000, extensionData: "0x" }];
  const hash = await owner.writeContract({
    address: c.contracts.presale,
    abi: presaleAbi,
    functionName: "startPresale",
    args: [config, parseEther("1"), parseEther("10"), DURATION, owner.account.address, root, 86_400n, 0n],
  });
  await c.publicClient.waitForTransactionReceipt({ hash });
  return hash;
}

async function refresh(txHash: Hex) {
  const res = await call(refreshGET, `/api/presales/refresh?txHash=${txHash}&chainId=8453`);
  expect(res.status, res.text).toBe(200);
  expect(res.body).toEqual({
    enqueued: true,
    message: "Presale enqueued for refresh",
    data: { txHash: txHash.toLowerCase(), chainId: 8453 },
  });
  const outcomes = await runDueJobs();
  expect(outcomes).toHaveLength(1);
  const job = await sql<{
    status: string;
    last_error: string | null;
  }>`SELECT status, last_error FROM jobs WHERE id = ${outcomes[0].id}`.execute(db());
  return job.rows[0];
}

const presales = async () => (await call(listGET, "/api/presales")).body.presales as any[];

describe("presale refresh", () => {
  it("indexes a presale from its start, buys and end; the allowlist proofs buy on chain; replays change nothing", async () => {
    const c = chain();
    const [buyer, outsider] = [c.accounts[3]!, c.accounts[5]!];
    const tree = buildStandardTree([
      [buyer, parseEther("2")],
      ...Array.from({ length: 30 }, (_, i) => [address(i), parseEther("1")] as const),
    ]);
    const startTx = await startPresale(c, tree.root);
    // Not indexed yet: the upload is checked against the root the chain holds.
    const saved = await postRaw(
      allowlistPOST,
      "/api/presales/allowlists",
      JSON.stringify({ presaleId: 1, chainId: 8453, merkleRoot: tree.root, tree: tree.dump }),
    );
    expect(saved.status, saved.text).toBe(200);

    expect(await refresh(startTx)).toEqual({ status: "done", last_error: null });
    let [row] = await presales();
    expect(row).toMatchObject({
      presale_id: 1,
      chain_id: 8453,
      status: 1,
      status_name: "Active",
      allowlist_root: tree.root,
      min_eth_goal: parseEther("1").toString(),
      max_eth_goal: parseEther("10").toString(),
      eth_raised: "0",
      owner: c.accounts[2],
      lockup_duration: 86_400,
      start_tx_hash: startTx,
    });
    expect(row.deployment_config.tokenConfig.name).toBe("Test Token");

    const proof = (
      await call(
        proofGET,
        `/api/presales/allowlists/proof?presaleId=1&chainId=8453&buyerAddress=${buyer.toLowerCase()}`,
      )
    ).body;
    expect(proof).toMatchObject({
      isAllowed: true,
      allowedAmountWei: parseEther("2").toString(),
      allowedAmountEth: "2.0",
    });
    const buyTx = await c.wallet(3).writeContract({
      address: c.contracts.presale,
      abi: presaleAbi,
      functionName: "buyIntoPresale",
      args: [1n, BigInt(proof.allowedAmountWei), proof.proof],
      value: parseEther("1.5"),
    });
    await c.publicClient.waitForTransactionReceipt({ hash: buyTx });
    expect((await refresh(buyTx)).status).toBe("done");
    expect((await presales())[0].eth_raised).toBe(parseEther("1.5").toString());

    // Not on the list: the service says so, and the contract agrees.
    expect(
      (await call(proofGET, `/api/presales/allowlists/proof?presaleId=1&chainId=8453&buyerAddress=${outsider}`)).body
        .isAllowed,
    ).toBe(false);
    await expect(
      c.wallet(5).writeContract({
        address: c.contracts.presale,
        abi: presaleAbi,
        functionName: "buyIntoPresale",
        args: [1n, parseEther("1"), []],
        value: parseEther("1"),
      }),
    ).rejects.toThrow();

    // Re-reading the start (older than the buy) neither fails nor rolls eth_raised back.
    expect((await refresh(startTx)).status).toBe("done");
    expect((await presales())[0]).toMatchObject({ status: 1, eth_raised: parseEther("1.5").toString() });

    await c.increaseTime(Number(DURATION) + 1);
    const endTx = await c
      .wallet(4)
      .writeContract({ address: c.contracts.presale, abi: presaleAbi, functionName: "endPresale", args: [1n] });
    await c.publicClient.waitForTransactionReceipt({ hash: endTx });
    expect((await refresh(endTx)).status).toBe("done");
    [row] = await presales();
    expect(row).toMatchObject({ status: 5, status_name: "Claimable", eth_raised: parseEther("1.5").toString() });
    expect(row.token_address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(BigInt(row.token_supply)).toBeGreaterThan(0n);
    expect(Date.parse(row.lockup_end_time) - Date.parse(row.vesting_end_time)).toBe(0); // vesting 0
    expect((await call(listGET, "/api/presales?status=successful")).body.totalCount).toBe(1);
  });

  it("records unknown, unrelated and reverted transactions as failed jobs with the reason", async () => {
    const c = chain();
    process.env.PRESALE_REFRESH_PENDING_ATTEMPTS = "1";
    resetConfig();
    const unknown = await refresh(`0x${"ab".repeat(32)}`);
    expect(unknown.status).toBe("failed");
    expect(unknown.last_error).toMatch(/was not found on chain 8453/);

    const transfer = await c.wallet(5).sendTransaction({ to: c.accounts[6]! as Address, value: 1n });
    await c.publicClient.waitForTransactionReceipt({ hash: transfer });
    const unrelated = await refresh(transfer);
    expect(unrelated.status).toBe("failed");
    expect(unrelated.last_error).toMatch(/has no events of the presale contract/);

    // Hardhat mines a reverting transaction but answers the send with the revert: take it from the block.
    await c
      .wallet(5)
      .sendTransaction({
        to: c.contracts.presale,
        data: encodeFunctionData({ abi: presaleAbi, functionName: "buyIntoPresale", args: [42n, 1n, []] }),
        gas: 300_000n,
      })
      .catch(() => null);
    const reverting = (await c.publicClient.getBlock()).transactions.at(-1)!;
    expect((await c.publicClient.getTransactionReceipt({ hash: reverting })).status).toBe("reverted");
    const reverted = await refresh(reverting);
    expect(reverted.status).toBe("failed");
    expect(reverted.last_error).toMatch(/reverted/);
    expect((await presales()).some((p) => p.presale_id === 42)).toBe(false);
  });

  it("rejects a bad hash or a chain the service does not read", async () => {
    expectError(await call(refreshGET, "/api/presales/refresh?txHash=0x1234"), 400, "invalid_request");
    expectError(
      await call(refreshGET, `/api/presales/refresh?txHash=0x${"ab".repeat(32)}&chainId=1`),
      400,
      "invalid_request",
    );
    expectError(await call(refreshGET, "/api/presales/refresh"), 400, "invalid_request");
  });
});

describe("proofs on chain", () => {
  it("every airdrop proof the service serves verifies in MerkleProof (MerkleProofVerifier); a tampered one does not", async () => {
    const c = chain();
    const values = [
      ...Array.from({ length: 40 }, (_, i) => [address(i), BigInt(i) * 10n ** 18n] as const),
      [address(3), 1n] as const,
    ];
    const tree = buildStandardTree(values);
    const token = await tokenWithAirdrop(c, tree.root);
    const saved = await postRaw(
      airdropPOST,
      "/api/airdrops",
      JSON.stringify({ tokenAddress: token, merkleRoot: tree.root, tree: tree.dump }),
    );
    expect(saved.status, saved.text).toBe(200);
    const verify = (proof: Hex[], account: string, amount: string) =>
      c.publicClient.readContract({
        address: c.contracts.merkleVerifier,
        abi: merkleProofVerifierAbi,
        functionName: "verify",
        args: [proof, tree.root, account as Address, BigInt(amount)],
      });
    for (const i of [0, 3, 17, 39]) {
      const res = await call(claimGET, `/api/airdrops/claim?tokenAddress=${token}&claimerAddress=${address(i)}`);
      expect(res.body.proofs).toHaveLength(i === 3 ? 2 : 1);
      for (const { proof, entry } of res.body.proofs)
        expect(await verify(proof, entry.account, entry.amount)).toBe(true);
      const { proof, entry } = res.body.proofs[0];
      expect(await verify(proof, entry.account, (BigInt(entry.amount) + 1n).toString())).toBe(false);
    }
  });
});
