// GET /api/marketcap against pools on the local chain: both token orders, WETH through the ETH/USD feed,
// a stablecoin pair, a pair priced through its configured WETH pool, the round trips a cold answer costs,
// and every refusal (wrong pool, unknown paired token, misconfigured WETH pool, RPC down, stale feed).
import { afterEach, describe, expect, it } from "vitest";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { custom, keccak256, toHex, type Address, type EIP1193Provider } from "viem";
import { GET } from "@/app/api/marketcap/route";
import { findTokenCreated, sendDeployToken, setChainTransport, waitForReceipt } from "@/lib/platform/chain";
import { factoryAbi, mockAggregatorV3Abi } from "@/dev/chain/artifacts";
import { resetConfig } from "@/lib/core/config";
import { kv } from "@/lib/platform/kv";
import { ethUsdCacheKey } from "@/lib/domains/tokens/market/marketcap";
import { defaultDeploymentConfig, useTestChain, type TestChain } from "@/tests/helpers/chain";
import { call, expectError } from "@/tests/helpers/http";

const CHAIN = 8453;
const chain = useTestChain();
/** Whole supply (1e11 tokens) × 1.0001^-230400 WETH per token × ETH price: the default pool's cap. */
const defaultCap = (ethUsd: number) => 1e11 * 1.0001 ** -230_400 * ethUsd;

afterEach(() => {
  for (const name of [
    "ETH_USD_CACHE_SECONDS",
    "ETH_USD_FEED_MAX_AGE_SECONDS",
    "USD_STABLECOINS",
    "PAIRED_TOKEN_WETH_POOLS_8453",
  ]) {
    delete process.env[name];
  }
  resetConfig();
});

async function launch(c: TestChain, salt: string, pairedToken?: Address) {
  const config = defaultDeploymentConfig(c, { salt: keccak256(toHex(salt)) });
  if (pairedToken) config.poolConfig.pairedToken = pairedToken;
  const token = findTokenCreated(await waitForReceipt(CHAIN, await sendDeployToken(CHAIN, config)))[0]!.tokenAddress;
  const [pool] = (await c.publicClient.readContract({
    address: c.contracts.factory,
    abi: factoryAbi,
    functionName: "deploymentInfo",
    args: [token],
  })) as readonly [Address, ...unknown[]];
  return { token, pool };
}

const marketcap = (params: Record<string, string>) => call(GET, `/api/marketcap?${new URLSearchParams(params)}`);
const relative = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);

async function setEthUsd(c: TestChain, answer: bigint) {
  const hash = await c.wallet(0).writeContract({
    address: c.contracts.ethUsdFeed,
    abi: mockAggregatorV3Abi,
    functionName: "setAnswer",
    args: [answer],
  });
  await c.publicClient.waitForTransactionReceipt({ hash });
}

describe("GET /api/marketcap", () => {
  it("prices a WETH pool in USD through the feed, whichever side the token sorts to", async () => {
    const weth = chain().contracts.weth.toLowerCase();
    const sides = new Map<boolean, { token: Address; pool: Address }>();
    // The salts are fixed, so the sides are too: side-7 sorts after WETH and side-8 before it (each further
    // salt tried costs a launch, about two seconds under load).
    for (let i = 7; i < 40 && sides.size < 2; i++) {
      const launched = await launch(chain(), `side-${i}`);
      const isToken0 = launched.token.toLowerCase() < weth;
      if (!sides.has(isToken0)) sides.set(isToken0, launched);
    }
    expect([...sides.keys()].sort()).toEqual([false, true]);
    for (const { token, pool } of sides.values()) {
      const res = await marketcap({ poolAddress: pool, tokenAddress: token });
      expect(res.status, res.text).toBe(200);
      expect(Object.keys(res.body)).toEqual(["marketCap"]);
      expect(typeof res.body.marketCap).toBe("number");
      expect(relative(res.body.marketCap, defaultCap(3000))).toBeLessThan(1e-9);
      expect(res.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=5, stale-while-revalidate=5");
      // Addresses in any case, and the default chain id spelled out, give the same answer.
      const again = await marketcap({
        poolAddress: pool.toLowerCase(),
        tokenAddress: token.toUpperCase().replace("0X", "0x"),
        chainId: "8453",
      });
      expect(again.body.marketCap).toBe(res.body.marketCap);
    }
  });

  it("follows the feed, reusing one reading for ETH_USD_CACHE_SECONDS", async () => {
    const { token, pool } = await launch(chain(), "feed");
    process.env.ETH_USD_CACHE_SECONDS = "0";
    resetConfig();
    await setEthUsd(chain(), 4_500n * 10n ** 8n);
    expect(
      relative((await marketcap({ poolAddress: pool, tokenAddress: token })).body.marketCap, defaultCap(4500)),
    ).toBeLessThan(1e-9);

    process.env.ETH_USD_CACHE_SECONDS = "60";
    resetConfig();
    await (await kv()).delete(ethUsdCacheKey(CHAIN)); // an earlier test's reading
    await marketcap({ poolAddress: pool, tokenAddress: token }); // fills the cache at 4500
    await setEthUsd(chain(), 1_000n * 10n ** 8n);
    expect(
      relative((await marketcap({ poolAddress: pool, tokenAddress: token })).body.marketCap, defaultCap(4500)),
    ).toBeLessThan(1e-9);
  });

  it("prices a pool paired with a configured stablecoin at 1 USD, reading its decimals", async () => {
    const stable = await launch(chain(), "stable");
    const { token, pool } = await launch(chain(), "on-stable", stable.token);
    process.env.USD_STABLECOINS = `8453:${stable.token}`;
    resetConfig();
    const res = await marketcap({ poolAddress: pool, tokenAddress: token });
    expect(res.status, res.text).toBe(200);
    expect(relative(res.body.marketCap, defaultCap(1))).toBeLessThan(1e-9);
  });

  it("answers 422 for a paired token without a USD price source", async () => {
    const stable = await launch(chain(), "not-configured");
    const { token, pool } = await launch(chain(), "on-unknown", stable.token);
    const error = expectError(await marketcap({ poolAddress: pool, tokenAddress: token }), 422, "unprocessable");
    expect(error.error).toContain("no USD price source");
  });

  it("prices a pool paired with a token through that token's configured WETH pool and the ETH/USD feed", async () => {
    // The paired token is itself launched on WETH at the default price, so the cap is the default cap
    // scaled once more by that price (1.0001^-230400 WETH per paired token).
    const paired = await launch(chain(), "paired");
    const { token, pool } = await launch(chain(), "on-paired", paired.token);
    process.env.PAIRED_TOKEN_WETH_POOLS_8453 = `${chain().accounts[6]}:${chain().accounts[7]}, ${paired.token.toLowerCase()}:${paired.pool}`;
    process.env.ETH_USD_CACHE_SECONDS = "0"; // an earlier test's cached reading is not this chain's 3000
    resetConfig();
    const res = await marketcap({ poolAddress: pool, tokenAddress: token });
    expect(res.status, res.text).toBe(200);
    expect(relative(res.body.marketCap, defaultCap(3000) * 1.0001 ** -230_400)).toBeLessThan(1e-9);
  });

  it("answers 503 naming the variable when a paired token's configured pool does not price it in WETH", async () => {
    const paired = await launch(chain(), "paired-wrong");
    const other = await launch(chain(), "other-pool");
    const { token, pool } = await launch(chain(), "on-paired-wrong", paired.token);
    process.env.PAIRED_TOKEN_WETH_POOLS_8453 = `${paired.token}:${other.pool}`;
    resetConfig();
    const error = expectError(await marketcap({ poolAddress: pool, tokenAddress: token }), 503, "provider_unavailable");
    expect(error.error).toContain("PAIRED_TOKEN_WETH_POOLS_8453");
  });

  it("costs one RPC request for a WETH pair (feed and chain time ride in the pool's multicall), two for a configured pair", async () => {
    const paired = await launch(chain(), "count-paired");
    const onPaired = await launch(chain(), "count-on-paired", paired.token);
    Object.assign(process.env, {
      ETH_USD_CACHE_SECONDS: "0",
      ETH_USD_FEED_MAX_AGE_SECONDS: "3600",
      PAIRED_TOKEN_WETH_POOLS_8453: `${paired.token}:${paired.pool}`,
    });
    resetConfig();
    const provider = chain().provider;
    const methods: string[] = [];
    const counting = {
      request: (args: { method: string }) => {
        methods.push(args.method);
        return provider.request(args as never);
      },
    } as EIP1193Provider;
    setChainTransport(CHAIN, custom(counting, { retryCount: 0 }));
    try {
      expect((await marketcap({ poolAddress: paired.pool, tokenAddress: paired.token })).status).toBe(200);
      expect(methods).toEqual(["eth_call"]);
      methods.length = 0;
      expect((await marketcap({ poolAddress: onPaired.pool, tokenAddress: onPaired.token })).status).toBe(200);
      expect(methods).toEqual(["eth_call", "eth_call"]);
    } finally {
      setChainTransport(CHAIN, custom(provider, { retryCount: 0 }));
    }
  });

  it("answers 400 for a pool that does not hold the token, or an address that is no pool", async () => {
    const a = await launch(chain(), "a");
    const b = await launch(chain(), "b");
    expect(
      expectError(await marketcap({ poolAddress: a.pool, tokenAddress: b.token }), 400, "invalid_request").error,
    ).toContain("poolAddress");
    expectError(await marketcap({ poolAddress: chain().accounts[5]!, tokenAddress: a.token }), 400, "invalid_request");
    expectError(await marketcap({ poolAddress: a.token, tokenAddress: a.token }), 400, "invalid_request");
  });

  it("answers 503 for a stale feed when a maximum age is set", async () => {
    const { token, pool } = await launch(chain(), "stale");
    await setEthUsd(chain(), 3_000n * 10n ** 8n); // a fresh round, stamped now
    Object.assign(process.env, { ETH_USD_CACHE_SECONDS: "0", ETH_USD_FEED_MAX_AGE_SECONDS: "3600" });
    resetConfig();
    expect((await marketcap({ poolAddress: pool, tokenAddress: token })).status).toBe(200);
    await chain().increaseTime(3601); // an hour passes on chain without a new round
    const error = expectError(await marketcap({ poolAddress: pool, tokenAddress: token }), 503, "provider_unavailable");
    expect(error.error).toContain("stale");
  });

  it("answers 503 with Retry-After when the chain's RPC refuses connections", async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    process.env.RPC_URL_31337 = `http://127.0.0.1:${port}`;
    try {
      const res = await marketcap({
        poolAddress: chain().accounts[3]!,
        tokenAddress: chain().accounts[4]!,
        chainId: "31337",
      });
      expectError(res, 503, "provider_unavailable");
      expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
    } finally {
      delete process.env.RPC_URL_31337;
    }
  });

  it.each([
    [{}, "poolAddress"],
    [{ poolAddress: "0x12" }, "poolAddress"],
    [{ poolAddress: `0x${"ab".repeat(32)}` }, "poolAddress: is a v4 pool id, not a pool contract"],
    [{ poolAddress: `0x${"ab".repeat(20)}`, tokenAddress: "nope" }, "tokenAddress"],
    [{ poolAddress: `0x${"ab".repeat(20)}`, tokenAddress: `0x${"cd".repeat(20)}`, chainId: "999" }, "chainId"],
    [{ poolAddress: `0x${"ab".repeat(20)}`, tokenAddress: `0x${"cd".repeat(20)}`, chainId: "x" }, "chainId"],
  ])("answers 400 for %o", async (params, mentions) => {
    expect(expectError(await marketcap(params as Record<string, string>), 400, "invalid_request").error).toContain(
      mentions,
    );
  });
});
