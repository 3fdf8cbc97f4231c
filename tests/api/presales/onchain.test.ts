// Against the local chain (the platform's presale contract, events and getPresale): GET /api/presales/refresh
// indexes presales from their transactions over their whole life (and fails unknown or unrelated ones with a
// reason), and the proofs the service serves verify on chain, both in the presale contract's
// buyIntoPresaleWithProof and in OpenZeppelin's MerkleProof (MerkleProofVerifier).
import { beforeEach, describe, expect, it } from "vitest";
import { sql } from "kysely";
import {
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  keccak256,
  parseEther,
  toHex,
  zeroAddress,
  zeroHash,
  type Address,
  type ContractFunctionArgs,
  type ContractFunctionName,
  type Hex,
} from "viem";
import { db } from "@/db";
import { GET as listGET } from "@/app/api/presales/route";
import { GET as refreshGET } from "@/app/api/presales/refresh/route";
import { POST as allowlistPOST } from "@/app/api/presales/allowlists/route";
import { GET as proofGET } from "@/app/api/presales/allowlists/proof/route";
import { POST as airdropPOST } from "@/app/api/airdrops/route";
import { GET as claimGET } from "@/app/api/airdrops/claim/route";
import { merkleProofVerifierAbi, presaleAbi } from "@/dev/chain/artifacts";
import { resetConfig } from "@/lib/core/config";
import { findTokenCreated, TOKEN_SUPPLY } from "@/lib/platform/chain";
import { runDueJobs } from "@/lib/platform/jobs/runner";
import { jobs } from "@/lib/domains/jobs";
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

/** The platform's startPresale with the local presale's built-in allowlist (`root`), or none. */
async function startPresale(c: TestChain, root?: Hex, goals = { min: parseEther("1"), max: parseEther("10") }) {
  const owner = c.wallet(2);
  const config = defaultDeploymentConfig(c);
  config.extensionConfigs = [{ extension: c.contracts.presale, msgValue: 0n, extensionBps: 1000, extensionData: "0x" }];
  const hash = await owner.writeContract({
    address: c.contracts.presale,
    abi: presaleAbi,
    functionName: "startPresale",
    args: [
      config,
      goals.min,
      goals.max,
      DURATION,
      owner.account.address,
      86_400n,
      0n,
      root ? c.contracts.presale : zeroAddress,
      root ? encodeAbiParameters([{ type: "bytes32" }], [root]) : "0x",
    ],
  });
  await c.publicClient.waitForTransactionReceipt({ hash });
  return hash;
}

/** A presale call from `account`'s wallet; returns the transaction hash once mined. */
async function send<N extends ContractFunctionName<typeof presaleAbi, "nonpayable" | "payable">>(
  c: TestChain,
  account: number,
  functionName: N,
  args: ContractFunctionArgs<typeof presaleAbi, "nonpayable" | "payable", N>,
  value?: bigint,
): Promise<Hex> {
  const request = { address: c.contracts.presale, abi: presaleAbi, functionName, args, value };
  // Typed by the signature above; viem cannot narrow a generic function name itself.
  const hash = await c.wallet(account).writeContract(request as never);
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
  const outcomes = await runDueJobs(jobs);
  expect(outcomes).toHaveLength(1);
  const job = await sql<{
    status: string;
    last_error: string | null;
  }>`SELECT status, last_error FROM jobs WHERE id = ${outcomes[0].id}`.execute(db());
  return job.rows[0];
}

const presales = async () => (await call(listGET, "/api/presales")).body.presales as any[];

describe("presale refresh", () => {
  it("indexes a presale's whole life: start, buys, a withdrawal, the launch and the claims; replays change nothing", async () => {
    const c = chain();
    const [buyer, second, outsider] = [c.accounts[3]!, c.accounts[4]!, c.accounts[5]!];
    const tree = buildStandardTree([
      [buyer, parseEther("2")],
      [second, parseEther("5")],
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
    const startBlock = await c.publicClient.getBlock({
      blockNumber: (await c.publicClient.getTransactionReceipt({ hash: startTx })).blockNumber,
    });
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
      vesting_duration: 0,
      end_time: new Date(Number(startBlock.timestamp + DURATION) * 1000).toISOString(),
      token_address: null,
      start_tx_hash: startTx,
    });
    expect(row.deployment_config.tokenConfig.name).toBe("Test Token");

    const proofOf = async (account: Address) => {
      const res = await call(
        proofGET,
        `/api/presales/allowlists/proof?presaleId=1&chainId=8453&buyerAddress=${account.toLowerCase()}`,
      );
      return res.body;
    };
    const proof = await proofOf(buyer);
    expect(proof).toMatchObject({
      isAllowed: true,
      allowedAmountWei: parseEther("2").toString(),
      allowedAmountEth: "2.0",
    });
    const withProof = (p: { allowedAmountWei: string; proof: string[] }) =>
      encodeAbiParameters([{ type: "uint256" }, { type: "bytes32[]" }], [BigInt(p.allowedAmountWei), p.proof as Hex[]]);
    const buyTx = await send(c, 3, "buyIntoPresaleWithProof", [1n, withProof(proof)], parseEther("1.5"));
    expect((await refresh(buyTx)).status).toBe("done");
    expect((await presales())[0]).toMatchObject({ status: 1, eth_raised: parseEther("1.5").toString() });
    const secondTx = await send(
      c,
      4,
      "buyIntoPresaleWithProof",
      [1n, withProof(await proofOf(second))],
      parseEther("3"),
    );
    expect((await refresh(secondTx)).status).toBe("done");
    expect((await presales())[0].eth_raised).toBe(parseEther("4.5").toString());

    // Not on the list: the service says so, and the contract agrees.
    expect((await proofOf(outsider)).isAllowed).toBe(false);
    await expect(
      send(c, 5, "buyIntoPresaleWithProof", [1n, withProof({ ...proof, proof: proof.proof })], parseEther("1")),
    ).rejects.toThrow();

    const withdrawTx = await send(c, 4, "withdrawFromPresale", [1n, parseEther("1"), c.accounts[4]!]);
    expect((await refresh(withdrawTx)).status).toBe("done");
    expect((await presales())[0]).toMatchObject({ status: 1, eth_raised: parseEther("3.5").toString() });

    // Re-reading older transactions neither fails nor rolls eth_raised back.
    expect((await refresh(startTx)).status).toBe("done");
    expect((await refresh(buyTx)).status).toBe("done");
    expect((await presales())[0]).toMatchObject({ status: 1, eth_raised: parseEther("3.5").toString() });

    await c.increaseTime(Number(DURATION) + 1);
    const endTx = await send(c, 6, "endPresale", [1n, keccak256(toHex("presale-launch"))]);
    expect((await refresh(endTx)).status).toBe("done");
    [row] = await presales();
    const endBlock = await c.publicClient.getBlock({
      blockNumber: (await c.publicClient.getTransactionReceipt({ hash: endTx })).blockNumber,
    });
    expect(row).toMatchObject({
      status: 5,
      status_name: "Claimable",
      eth_raised: parseEther("3.5").toString(),
      token_supply: (TOKEN_SUPPLY / 10n).toString(), // the presale's extensionBps: 10%
      lockup_end_time: new Date(Number(endBlock.timestamp + 86_400n) * 1000).toISOString(),
      vesting_end_time: new Date(Number(endBlock.timestamp + 86_400n) * 1000).toISOString(), // no vesting
    });
    const [created] = findTokenCreated(await c.publicClient.getTransactionReceipt({ hash: endTx }));
    expect(row.token_address).toBe(getAddress(created!.tokenAddress));
    expect((await call(listGET, "/api/presales?status=successful")).body.totalCount).toBe(1);

    // Claims are the presale's events too: the refresh takes them and the row stays as it was.
    const claimEthTx = await send(c, 2, "claimEth", [1n, c.accounts[2]!]);
    expect((await refresh(claimEthTx)).status).toBe("done");
    await c.increaseTime(86_400);
    const claimTx = await send(c, 3, "claimTokens", [1n]);
    expect((await refresh(claimTx)).status).toBe("done");
    expect((await presales())[0]).toMatchObject({
      status: 5,
      eth_raised: parseEther("3.5").toString(),
      token_address: row.token_address,
      token_supply: row.token_supply,
    });
    // Replaying the launch changes nothing either.
    expect((await refresh(endTx)).status).toBe("done");
    expect((await presales())[0]).toMatchObject({ status: 5, lockup_end_time: row.lockup_end_time });
  });

  it("indexes a presale that fails below its minimum, and one that hits its maximum", async () => {
    const c = chain();
    // The chain was reverted after the last test (presale ids start again at 1); the rows it left are not.
    await sql`DELETE FROM presales`.execute(db());
    const failing = await startPresale(c, undefined, { min: parseEther("5"), max: parseEther("10") });
    expect((await refresh(failing)).status).toBe("done");
    const buyTx = await send(c, 3, "buyIntoPresale", [1n], parseEther("1"));
    expect((await refresh(buyTx)).status).toBe("done");
    expect((await presales())[0]).toMatchObject({ presale_id: 1, allowlist_root: null, status: 1 });

    const full = await startPresale(c, undefined, { min: parseEther("1"), max: parseEther("2") });
    const fullBuy = await send(c, 4, "buyIntoPresale", [2n], parseEther("3")); // 1 ETH refunded
    expect((await refresh(full)).status).toBe("done");
    expect((await refresh(fullBuy)).status).toBe("done");
    const byId = async () => Object.fromEntries((await presales()).map((p) => [p.presale_id, p]));
    expect((await byId())[2]).toMatchObject({
      status: 3,
      status_name: "SuccessfulMaximumHit",
      eth_raised: parseEther("2").toString(),
    });

    await c.increaseTime(Number(DURATION) + 1);
    const endTx = await send(c, 6, "endPresale", [1n, zeroHash]);
    expect((await refresh(endTx)).status).toBe("done");
    expect((await byId())[1]).toMatchObject({
      status: 4,
      status_name: "Failed",
      eth_raised: parseEther("1").toString(),
    });
    const withdrawTx = await send(c, 3, "withdrawFromPresale", [1n, parseEther("1"), c.accounts[3]!]);
    expect((await refresh(withdrawTx)).status).toBe("done");
    expect((await byId())[1]).toMatchObject({ status: 4, eth_raised: "0", token_address: null });
    expect((await call(listGET, "/api/presales?status=4")).body.totalCount).toBe(1);
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
        data: encodeFunctionData({ abi: presaleAbi, functionName: "buyIntoPresale", args: [42n] }),
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
    const verify = (proof: string[], account: string, amount: string) =>
      c.publicClient.readContract({
        address: c.contracts.merkleVerifier,
        abi: merkleProofVerifierAbi,
        functionName: "verify",
        args: [proof as Hex[], tree.root, account as Address, BigInt(amount)],
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
