// The extensions on the local chain: presale events as the service indexes them (and the token a
// successful presale launches), airdrop claims against standard-v1 proofs, the creator vault.
import { describe, expect, it } from "vitest";
import { StandardMerkleTree } from "@openzeppelin/merkle-tree";
import {
  encodeAbiParameters,
  getAddress,
  keccak256,
  parseEther,
  toHex,
  zeroAddress,
  type Address,
  type ContractFunctionArgs,
  type ContractFunctionName,
  type Hex,
} from "viem";
import {
  PRESALE_STATUS,
  TOKEN_SUPPLY,
  findTokenCreated,
  getPresaleEventLogs,
  getPresaleLogs,
  readPresale,
  readPresaleAllowlistRoot,
  sendDeployToken,
  waitForReceipt,
} from "@/lib/platform/chain";
import { erc20ReadAbi } from "@/lib/platform/chain/abis";
import { merkleProofVerifierAbi, presaleAbi, tokenAirdropAbi, tokenVaultAbi } from "@/dev/chain/artifacts";
import { defaultDeploymentConfig, useTestChain, type TestChain } from "@/tests/helpers/chain";

const HOUR = 3_600n;
const NO_SALT = `0x${"00".repeat(32)}` as const;

function presaleConfig(chain: TestChain, salt: string) {
  const config = defaultDeploymentConfig(chain, { salt: keccak256(toHex(salt)) });
  config.extensionConfigs = [
    { extension: chain.contracts.presale, msgValue: 0n, extensionBps: 5_000, extensionData: "0x" },
  ];
  return config;
}

/** The platform's startPresale; with `root`, the presale's allowlist is the local presale's built-in one. */
async function startPresale(chain: TestChain, opts: { salt: string; minEth: string; maxEth: string; root?: Hex }) {
  const owner = chain.wallet(2);
  const hash = await owner.writeContract({
    address: chain.contracts.presale,
    abi: presaleAbi,
    functionName: "startPresale",
    args: [
      presaleConfig(chain, opts.salt),
      parseEther(opts.minEth),
      parseEther(opts.maxEth),
      HOUR,
      chain.accounts[2]!,
      0n,
      0n,
      opts.root ? chain.contracts.presale : zeroAddress,
      opts.root ? encodeAbiParameters([{ type: "bytes32" }], [opts.root]) : "0x",
    ],
  });
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  const started = getPresaleLogs(receipt).find((e) => e.eventName === "PresaleStarted")!;
  return { receipt, presaleId: started.eventName === "PresaleStarted" ? started.args.presaleId : 0n };
}

/** The allowlist's proof bytes: abi.encode(allowedAmount, proof). */
const proofBytes = (allowed: bigint, proof: Hex[]) =>
  encodeAbiParameters([{ type: "uint256" }, { type: "bytes32[]" }], [allowed, proof]);

async function buy(chain: TestChain, account: number, presaleId: bigint, eth: string, proof?: Hex) {
  const wallet = chain.wallet(account);
  const target = { address: chain.contracts.presale, abi: presaleAbi, value: parseEther(eth) } as const;
  const hash = proof
    ? await wallet.writeContract({ ...target, functionName: "buyIntoPresaleWithProof", args: [presaleId, proof] })
    : await wallet.writeContract({ ...target, functionName: "buyIntoPresale", args: [presaleId] });
  return chain.publicClient.waitForTransactionReceipt({ hash });
}

type Nonpayable = ContractFunctionName<typeof presaleAbi, "nonpayable">;

async function send<N extends Nonpayable>(
  chain: TestChain,
  account: number,
  functionName: N,
  args: ContractFunctionArgs<typeof presaleAbi, "nonpayable", N>,
) {
  const request = { address: chain.contracts.presale, abi: presaleAbi, functionName, args };
  // Typed by the signature above; viem cannot narrow a generic function name itself.
  const hash = await chain.wallet(account).writeContract(request as never);
  return chain.publicClient.waitForTransactionReceipt({ hash });
}

describe("presale", () => {
  const chain = useTestChain();

  it("an allowlisted presale that reaches its minimum launches the token and becomes claimable", async () => {
    const c = chain();
    const [a, b] = [c.accounts[3]!, c.accounts[4]!];
    const tree = StandardMerkleTree.of<[string, string]>(
      [
        [a, parseEther("2").toString()],
        [b, parseEther("5").toString()],
      ],
      ["address", "uint256"],
    );
    const proofOf = (account: Address) => {
      for (const [i, [who]] of tree.entries()) if (who === account) return tree.getProof(i) as Hex[];
      throw new Error("not in tree");
    };
    // The verifier contract checks proofs exactly as the presale does.
    const verify = (account: Address, amount: bigint, proof: Hex[]) =>
      c.publicClient.readContract({
        address: c.contracts.merkleVerifier,
        abi: merkleProofVerifierAbi,
        functionName: "verify",
        args: [proof, tree.root as Hex, account, amount],
      });
    expect(await verify(a, parseEther("2"), proofOf(a))).toBe(true);
    expect(await verify(a, parseEther("3"), proofOf(a))).toBe(false);

    const { presaleId, receipt: startReceipt } = await startPresale(c, {
      salt: "presale-1",
      minEth: "1",
      maxEth: "6",
      root: tree.root as Hex,
    });
    const started = getPresaleLogs(startReceipt, c.contracts.presale);
    expect(started.map((e) => e.eventName)).toEqual(["PresaleStarted"]);
    const first = started[0]!;
    if (first.eventName !== "PresaleStarted") throw new Error("unreachable");
    expect(first.args).toMatchObject({
      presaleId,
      allowlist: c.contracts.presale,
      presaleOwner: c.accounts[2],
      minEthGoal: parseEther("1"),
      maxEthGoal: parseEther("6"),
      presaleDuration: HOUR,
      clankerFeeBps: 0n,
    });
    expect(first.args.deploymentConfig.tokenConfig.name).toBe("Test Token");
    expect(await readPresaleAllowlistRoot(8453, presaleId)).toBe(tree.root);

    const bought = getPresaleLogs(await buy(c, 3, presaleId, "1", proofBytes(parseEther("2"), proofOf(a))));
    expect(bought).toMatchObject([
      {
        eventName: "PresaleBuy",
        args: { presaleId, buyer: a, ethToUse: parseEther("1"), ethRaised: parseEther("1") },
      },
    ]);
    await buy(c, 4, presaleId, "3", proofBytes(parseEther("5"), proofOf(b)));

    const simulateBuy = (account: number, eth: string, proof: Hex) =>
      c.publicClient.simulateContract({
        account: c.accounts[account]!,
        address: c.contracts.presale,
        abi: presaleAbi,
        functionName: "buyIntoPresaleWithProof",
        args: [presaleId, proof],
        value: parseEther(eth),
      });
    await expect(simulateBuy(3, "1.5", proofBytes(parseEther("2"), proofOf(a)))).rejects.toThrow(
      /AllowlistAmountExceeded/,
    );
    await expect(simulateBuy(5, "1", proofBytes(parseEther("2"), proofOf(a)))).rejects.toThrow(/NotAllowlisted/);

    await c.increaseTime(Number(HOUR) + 1);
    const salt = keccak256(toHex("presale-1-launch"));
    const endReceipt = await send(c, 8, "endPresale", [presaleId, salt]);
    const ended = getPresaleLogs(endReceipt, c.contracts.presale);
    const [created] = findTokenCreated(endReceipt);
    expect(created).toMatchObject({
      msgSender: c.contracts.presale.toLowerCase(),
      extensions: [c.contracts.presale.toLowerCase()],
      extensionsSupply: TOKEN_SUPPLY / 2n,
    });
    expect(ended).toMatchObject([
      { eventName: "PresaleDeployed", args: { presaleId, token: getAddress(created!.tokenAddress) } },
    ]);
    const record = await readPresale(8453, presaleId);
    expect(record).toMatchObject({
      status: PRESALE_STATUS.Claimable,
      deployedToken: getAddress(created!.tokenAddress),
      tokenSupply: TOKEN_SUPPLY / 2n,
      ethRaised: parseEther("4"),
      ethClaimed: false,
    });
    expect(record.deploymentConfig.tokenConfig.salt).toBe(salt);

    const ethClaimed = getPresaleLogs(await send(c, 2, "claimEth", [presaleId, c.accounts[6]!]));
    expect(ethClaimed).toMatchObject([
      { eventName: "ClaimEth", args: { presaleId, recipient: c.accounts[6], ethAmount: parseEther("4"), fee: 0n } },
    ]);

    const claimed = getPresaleLogs(await send(c, 3, "claimTokens", [presaleId]));
    // Buyer A put in 1 of 4 ETH: a quarter of the presale's half of the supply.
    expect(claimed).toMatchObject([
      { eventName: "ClaimTokens", args: { presaleId, claimer: a, tokenAmount: TOKEN_SUPPLY / 8n } },
    ]);

    const all = await getPresaleEventLogs(8453, {
      presale: c.contracts.presale,
      fromBlock: 0n,
      toBlock: await c.publicClient.getBlockNumber(),
    });
    expect(all.filter((e) => e.eventName === "PresaleBuy")).toHaveLength(2);
  });

  it("a presale below its minimum fails and buyers withdraw", async () => {
    const c = chain();
    const { presaleId } = await startPresale(c, { salt: "presale-2", minEth: "10", maxEth: "20" });
    await buy(c, 3, presaleId, "1");
    await c.increaseTime(Number(HOUR) + 1);
    const ended = getPresaleLogs(await send(c, 8, "endPresale", [presaleId, NO_SALT]));
    expect(ended).toMatchObject([{ eventName: "PresaleFailed", args: { presaleId } }]);
    expect((await readPresale(8453, presaleId)).status).toBe(PRESALE_STATUS.Failed);

    const withdrawn = getPresaleLogs(
      await send(c, 3, "withdrawFromPresale", [presaleId, parseEther("1"), c.accounts[7]!]),
    );
    expect(withdrawn).toMatchObject([
      {
        eventName: "WithdrawFromPresale",
        args: { withdrawer: c.accounts[3], amount: parseEther("1"), ethRaised: 0n },
      },
    ]);
  });

  it("hitting the maximum ends the presale early and refunds the excess", async () => {
    const c = chain();
    const { presaleId } = await startPresale(c, { salt: "presale-3", minEth: "1", maxEth: "2" });
    const logs = getPresaleLogs(await buy(c, 3, presaleId, "3"));
    expect(logs).toMatchObject([
      { eventName: "PresaleBuy", args: { ethToUse: parseEther("2"), ethRaised: parseEther("2") } },
    ]);
    expect((await readPresale(8453, presaleId)).status).toBe(PRESALE_STATUS.SuccessfulMaximumHit);
    // No need to wait for the deadline once the maximum is hit.
    const ended = getPresaleLogs(await send(c, 8, "endPresale", [presaleId, keccak256(toHex("presale-3-launch"))]));
    expect(ended.map((e) => e.eventName)).toEqual(["PresaleDeployed"]);
  });
});

describe("airdrop and vault", () => {
  const chain = useTestChain();
  const DAY = 86_400;

  it("an account listed in several leaves claims the largest amount once lockup ends, never the sum", async () => {
    const c = chain();
    const [alice, bob] = [c.accounts[3]!, c.accounts[4]!];
    const amounts = { small: 1_000n * 10n ** 18n, large: 5_000n * 10n ** 18n };
    const tree = StandardMerkleTree.of<[string, string]>(
      [
        [alice, amounts.small.toString()],
        [alice, amounts.large.toString()],
        [bob, amounts.small.toString()],
      ],
      ["address", "uint256"],
    );
    const config = defaultDeploymentConfig(c, { salt: keccak256(toHex("airdrop")) });
    config.extensionConfigs = [
      {
        extension: c.contracts.airdrop,
        msgValue: 0n,
        extensionBps: 1_000,
        extensionData: encodeAbiParameters(
          [{ type: "address" }, { type: "bytes32" }, { type: "uint256" }, { type: "uint256" }],
          [c.accounts[2]!, tree.root as Hex, BigInt(DAY), 0n],
        ),
      },
      {
        extension: c.contracts.vault,
        msgValue: 0n,
        extensionBps: 2_000,
        extensionData: encodeAbiParameters(
          [{ type: "address" }, { type: "uint256" }, { type: "uint256" }],
          [c.accounts[2]!, BigInt(7 * DAY), 0n],
        ),
      },
    ];
    const token = findTokenCreated(await waitForReceipt(8453, await sendDeployToken(8453, config)))[0]!.tokenAddress;

    const claim = async (index: number) => {
      const [account, amount] = tree.at(index)!;
      const hash = await c.wallet(9).writeContract({
        address: c.contracts.airdrop,
        abi: tokenAirdropAbi,
        functionName: "claim",
        args: [token, account as Address, BigInt(amount), tree.getProof(index) as Hex[]],
      });
      return c.publicClient.waitForTransactionReceipt({ hash });
    };
    const leafOf = (account: Address, amount: bigint) =>
      [...tree.entries()].find(([, [who, value]]) => who === account && BigInt(value) === amount)![0];
    const balance = (account: Address) =>
      c.publicClient.readContract({ address: token, abi: erc20ReadAbi, functionName: "balanceOf", args: [account] });

    await expect(claim(leafOf(alice, amounts.large))).rejects.toThrow(/NothingToClaim/);
    await c.increaseTime(DAY);
    await claim(leafOf(alice, amounts.small));
    await claim(leafOf(alice, amounts.large));
    await expect(claim(leafOf(alice, amounts.small))).rejects.toThrow(/NothingToClaim/);
    expect(await balance(alice)).toBe(amounts.large);
    await claim(leafOf(bob, amounts.small));
    expect(await balance(bob)).toBe(amounts.small);

    // The vault's 20% stays locked for 7 days, then goes to its admin.
    const vaultClaim = () =>
      c
        .wallet(2)
        .writeContract({ address: c.contracts.vault, abi: tokenVaultAbi, functionName: "claim", args: [token] });
    await expect(vaultClaim()).rejects.toThrow(/NothingToClaim/);
    await c.increaseTime(6 * DAY);
    await c.publicClient.waitForTransactionReceipt({ hash: await vaultClaim() });
    expect(await balance(c.accounts[2]!)).toBe(TOKEN_SUPPLY / 5n);
  });
});
