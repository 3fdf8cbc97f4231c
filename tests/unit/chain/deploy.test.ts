// Deploying through the local factory: simulation, CREATE2 prediction, sending, decoding TokenCreated.
import { describe, expect, it } from "vitest";
import { encodeAbiParameters, keccak256, toHex, type Address, type Hash } from "viem";
import {
  ChainRevertError,
  TOKEN_CREATED_TOPIC,
  TOKEN_SUPPLY,
  decodeTokenCreated,
  findTokenCreated,
  getTokenCreatedLogs,
  predictTokenAddress,
  readTokenInfo,
  sendDeployToken,
  simulateDeployToken,
  tokenCreate2Salt,
  waitForReceipt,
} from "@/lib/platform/chain";
import { localTokenInitCodeHash } from "@/dev/chain/token-address";
import { erc20ReadAbi } from "@/lib/platform/chain/abis";
import { CLANKERS } from "clanker-sdk";
import { PLATFORM_BASE_ADDRESSES } from "@/dev/chain/local";
import { defaultDeploymentConfig, useTestChain } from "@/tests/helpers/chain";

const CHAIN = 8453;

describe("deployToken through the local factory", () => {
  const chain = useTestChain();

  it("simulation, CREATE2 prediction and the deployed address agree", async () => {
    const config = defaultDeploymentConfig(chain());
    const simulated = await simulateDeployToken(CHAIN, config);
    const predicted = predictTokenAddress(
      chain().contracts.factory,
      config.tokenConfig.tokenAdmin,
      config.tokenConfig.salt,
      localTokenInitCodeHash(config.tokenConfig),
    );
    expect(simulated).toBe(predicted);

    const receipt = await waitForReceipt(CHAIN, await sendDeployToken(CHAIN, config));
    expect(receipt.status).toBe("success");
    const [created] = findTokenCreated(receipt);
    expect(created?.tokenAddress).toBe(predicted.toLowerCase());
    expect(await chain().publicClient.getCode({ address: predicted })).toMatch(/^0x[0-9a-f]{100,}$/);
  });

  it("the platform's contracts are installed at the platform SDK's Base addresses", async () => {
    const { address, related } = CLANKERS.clanker_v4;
    expect(PLATFORM_BASE_ADDRESSES).toEqual({
      factory: address,
      feeLocker: related.feeLocker,
      locker: related.locker,
      vault: related.vault,
      airdrop: related.airdrop,
      presale: related.presale,
      staticFeeHook: related.feeStaticHookV2,
      dynamicFeeHook: related.feeDynamicHookV2,
      mevModule: related.mevModuleV2,
    });
    for (const at of Object.values(PLATFORM_BASE_ADDRESSES)) {
      expect(await chain().publicClient.getCode({ address: at }), at).toMatch(/^0x[0-9a-f]{100,}$/);
    }
  });

  it("the salt rule is keccak256(abi.encode(tokenAdmin, salt))", () => {
    const admin = "0x000000000000000000000000000000000000dEaD" as Address;
    const salt = keccak256(toHex("x"));
    expect(tokenCreate2Salt(admin, salt)).toBe(
      keccak256(encodeAbiParameters([{ type: "address" }, { type: "bytes32" }], [admin, salt])),
    );
  });

  it("TokenCreated carries the config, decodes from raw logs and is found by range queries", async () => {
    const c = chain();
    const config = defaultDeploymentConfig(c, { name: "Decoded" });
    const hash = await sendDeployToken(CHAIN, config);
    const receipt = await waitForReceipt(CHAIN, hash);
    const raw = receipt.logs.find((log) => log.topics[0] === TOKEN_CREATED_TOPIC)!;
    const event = decodeTokenCreated(raw)!;

    // The decoder answers lowercase addresses but for the emitter's (abi-decode.ts).
    expect(event).toMatchObject({
      address: c.contracts.factory,
      transactionHash: hash,
      msgSender: c.deployment.deployer.toLowerCase(),
      tokenAdmin: config.tokenConfig.tokenAdmin.toLowerCase(),
      tokenName: "Decoded",
      tokenSymbol: "TEST",
      tokenImage: config.tokenConfig.image,
      tokenMetadata: config.tokenConfig.metadata,
      tokenContext: config.tokenConfig.context,
      startingTick: -230_400,
      poolHook: c.contracts.staticFeeHook.toLowerCase(),
      pairedToken: c.contracts.weth.toLowerCase(),
      locker: c.contracts.locker.toLowerCase(),
      mevModule: c.contracts.mevModule.toLowerCase(),
      extensionsSupply: 0n,
      extensions: [],
    });
    expect(event.poolId).toMatch(/^0x[0-9a-f]{64}$/);
    expect(decodeTokenCreated({ ...raw, topics: [keccak256(toHex("Other()"))] })).toBeNull();

    const found = await getTokenCreatedLogs(CHAIN, {
      factories: [c.contracts.factory],
      fromBlock: 0n,
      toBlock: receipt.blockNumber,
    });
    expect(found.map((e) => e.tokenAddress)).toEqual([event.tokenAddress]);
    const byToken = await getTokenCreatedLogs(CHAIN, {
      factories: [c.contracts.factory],
      fromBlock: 0,
      toBlock: receipt.blockNumber,
      tokenAddress: event.tokenAddress,
    });
    expect(byToken).toHaveLength(1);
    const otherAdmin = await getTokenCreatedLogs(CHAIN, {
      factories: [c.contracts.factory],
      fromBlock: 0,
      toBlock: receipt.blockNumber,
      tokenAdmin: c.accounts[9],
    });
    expect(otherAdmin).toHaveLength(0);
  });

  it("mints 100 billion tokens, sends extension shares to the extensions and the rest to the pool", async () => {
    const c = chain();
    const config = defaultDeploymentConfig(c);
    config.extensionConfigs = [
      {
        extension: c.contracts.vault,
        msgValue: 0n,
        extensionBps: 1_000,
        extensionData: encodeAbiParameters(
          [{ type: "address" }, { type: "uint256" }, { type: "uint256" }],
          [config.tokenConfig.tokenAdmin, 7n * 86_400n, 0n],
        ),
      },
    ];
    const receipt = await waitForReceipt(CHAIN, await sendDeployToken(CHAIN, config));
    const [event] = findTokenCreated(receipt);
    const token = event!.tokenAddress;
    expect(event!.extensions).toEqual([c.contracts.vault.toLowerCase()]);
    expect(event!.extensionsSupply).toBe(TOKEN_SUPPLY / 10n);

    const info = await readTokenInfo(CHAIN, token);
    expect(info).toMatchObject({
      name: "Test Token",
      symbol: "TEST",
      decimals: 18,
      totalSupply: TOKEN_SUPPLY,
      admin: config.tokenConfig.tokenAdmin,
    });
    expect(JSON.parse(info!.metadata!)).toEqual({ description: "a test token", socialMediaUrls: [], auditUrls: [] });

    const balance = (account: Address) =>
      c.publicClient.readContract({ address: token, abi: erc20ReadAbi, functionName: "balanceOf", args: [account] });
    const [pool] = (await c.publicClient.readContract({
      address: c.contracts.factory,
      abi: (await import("@/dev/chain/artifacts")).factoryAbi,
      functionName: "deploymentInfo",
      args: [token],
    })) as readonly [Address, ...unknown[]];
    expect(await balance(c.contracts.vault)).toBe(TOKEN_SUPPLY / 10n);
    expect(await balance(pool)).toBe((TOKEN_SUPPLY * 9n) / 10n);
  });

  it("concurrent sends from one process get distinct nonces and all land", async () => {
    const c = chain();
    const configs = [1, 2, 3, 4].map((i) => defaultDeploymentConfig(c, { salt: keccak256(toHex(`concurrent-${i}`)) }));
    const hashes: Hash[] = await Promise.all(configs.map((config) => sendDeployToken(CHAIN, config)));
    const receipts = await Promise.all(hashes.map((hash) => waitForReceipt(CHAIN, hash)));
    expect(receipts.every((r) => r.status === "success")).toBe(true);
    const nonces = await Promise.all(hashes.map(async (hash) => (await c.publicClient.getTransaction({ hash })).nonce));
    expect(new Set(nonces).size).toBe(4);
  });

  it("the same admin and salt cannot deploy twice", async () => {
    const config = defaultDeploymentConfig(chain());
    await waitForReceipt(CHAIN, await sendDeployToken(CHAIN, config));
    const error = await simulateDeployToken(CHAIN, config).catch((e) => e);
    expect(error).toBeInstanceOf(ChainRevertError);
    expect(error.errorName).toBe("TokenAlreadyDeployed");
    // Sending surfaces the same decoded error (gas estimation runs the call first).
    await expect(sendDeployToken(CHAIN, config)).rejects.toMatchObject({
      name: "ChainRevertError",
      errorName: "TokenAlreadyDeployed",
    });
  });
});
