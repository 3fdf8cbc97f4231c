// GET /api/quotes: strategies over three fake aggregators (slow, failing, malformed), slippage, validation.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getAddress } from "viem";
import { GET } from "@/app/api/quotes/route";
import { resetConfig } from "@/lib/core/config";
import { minimumAfterSlippage } from "@/lib/domains/quotes/service";
import { call, expectError } from "@/tests/helpers/http";
import {
  kyberAnswer,
  odosAnswer,
  SWAPPER,
  startAggregators,
  USDC,
  WETH,
  zeroExAnswer,
  type Fakes,
} from "@/tests/unit/quotes/fakes";

let fakes: Fakes;
beforeAll(async () => {
  // A deadline a loaded machine's local answers meet; the slow provider below takes longer still.
  fakes = await startAggregators({ deadlineMs: 3000, timeoutMs: 5000 });
});
afterAll(() => fakes.close());
beforeEach(() => {
  fakes.zeroEx.handle(() => ({ json: zeroExAnswer("3000000000") }));
  fakes.kyber.handle(() => ({ json: kyberAnswer("3010000000") }));
  fakes.odos.handle(() => ({ json: odosAnswer("2990000000") }));
});

const base = {
  chainId: "8453",
  inputToken: WETH,
  outputToken: USDC,
  inputAmount: "1000000000000000000",
  swapperAccount: SWAPPER,
};
const quote = (extra: Record<string, string> = {}, headers: Record<string, string> = {}) =>
  call(GET, `/api/quotes?${new URLSearchParams({ ...base, ...extra })}`, {
    headers: { "x-forwarded-for": `10.0.0.${Math.floor(Math.random() * 250)}`, ...headers },
  });

describe("GET /api/quotes strategy=best", () => {
  it("asks every provider and answers the largest output with the minimum after slippage", async () => {
    const res = await quote();
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      chainId: 8453,
      inputToken: "0x4200000000000000000000000000000000000006",
      outputToken: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      inputAmount: "1000000000000000000",
      outputAmount: "3010000000",
      minOutputAmount: "2994950000",
      slippageBps: 50,
      strategy: "best",
      provider: "kyberswap",
      route: expect.arrayContaining([expect.objectContaining({ source: "uniswapv3", proportionBps: 7500 })]),
    });
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    // One leg per hop, checksummed; every hop of a path carries the path's share of the input.
    const middle = getAddress("0x50c5725949a6f0c72e6c4a641f24049a917db0cb");
    expect(res.body.route).toEqual([
      { source: "uniswapv3", tokenIn: res.body.inputToken, tokenOut: res.body.outputToken, proportionBps: 7500 },
      { source: "aerodrome", tokenIn: res.body.inputToken, tokenOut: middle, proportionBps: 2500 },
      { source: "curve", tokenIn: middle, tokenOut: res.body.outputToken, proportionBps: 2500 },
    ]);
  });

  it("leaves out a provider slower than the deadline, and failing or malformed ones", async () => {
    fakes.kyber.handle(() => ({ json: kyberAnswer("9999999999"), delayMs: 4000 }));
    fakes.odos.handle(() => ({ text: "{not json" }));
    const res = await quote();
    expect(res.status, res.text).toBe(200);
    expect(res.body.provider).toBe("0x");
    expect(res.body.outputAmount).toBe("3000000000");

    fakes.zeroEx.handle(() => ({ status: 500, text: "boom" }));
    fakes.kyber.handle(() => ({ json: { code: 0, data: { routeSummary: { amountOut: "12" } } } }));
    fakes.odos.handle(() => ({ json: odosAnswer("2990000000") }));
    const second = await quote();
    expect(second.body.provider).toBe("odos");
  });

  it("answers 503 provider_unavailable with Retry-After when every provider fails", async () => {
    fakes.zeroEx.handle(() => ({ status: 503, text: "down" }));
    fakes.kyber.handle(() => ({ hang: true }));
    fakes.odos.handle(() => ({ json: { outAmounts: ["x"] } }));
    const res = await quote();
    const error = expectError(res, 503, "provider_unavailable");
    expect(error.error).toMatch(/0x: HTTP 503/);
    expect(error.error).toMatch(/kyberswap: no answer within the deadline/);
    expect(error.error).toMatch(/odos: unexpected answer/);
    expect(res.headers.get("retry-after")).toBe("5");
  });
});

describe("GET /api/quotes strategy=fastest", () => {
  it("answers the first valid quote, skipping faster failures", async () => {
    fakes.odos.handle(() => ({ status: 500, text: "fails first" }));
    fakes.zeroEx.handle(() => ({ json: zeroExAnswer("3000000000"), delayMs: 50 }));
    fakes.kyber.handle(() => ({ json: kyberAnswer("9999999999"), delayMs: 1200 }));
    const res = await quote({ strategy: "fastest" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.provider).toBe("0x");
    expect(res.body.strategy).toBe("fastest");
  });
});

describe("GET /api/quotes slippage and validation", () => {
  it("computes the minimum with integer math at the bounds", async () => {
    expect((await quote({ slippageBps: "0" })).body.minOutputAmount).toBe("3010000000");
    expect((await quote({ slippageBps: "10000" })).body.minOutputAmount).toBe("0");
    expect(minimumAfterSlippage(10n ** 77n + 7n, 1)).toBe(((10n ** 77n + 7n) * 9999n) / 10_000n);
    expect(minimumAfterSlippage(19_999n, 50)).toBe(19_899n); // 19999 × 0.995 = 19899.005, rounded down
  });

  it.each([
    [{ slippageBps: "10001" }, "slippageBps"],
    [{ slippageBps: "-1" }, "slippageBps"],
    [{ slippageBps: "0.5" }, "slippageBps"],
    [{ inputAmount: "1.5" }, "inputAmount"],
    [{ inputAmount: "-1" }, "inputAmount"],
    [{ inputAmount: (2n ** 256n).toString() }, "inputAmount"],
    [{ inputAmount: "0" }, "inputAmount"],
    [{ inputToken: "0x123" }, "inputToken"],
    [{ outputToken: WETH.toUpperCase().replace("0X", "0x") }, "differ"],
    [{ swapperAccount: "vitalik.eth" }, "swapperAccount"],
    [{ strategy: "cheapest" }, "strategy"],
    [{ chainId: "base" }, "chainId"],
  ])("answers 400 for %o", async (extra, mentions) => {
    const error = expectError(await quote(extra), 400, "invalid_request");
    expect(error.error).toContain(mentions);
  });

  it("answers 400 for a missing or repeated parameter", async () => {
    const { swapperAccount: _omit, ...rest } = base;
    expectError(await call(GET, `/api/quotes?${new URLSearchParams(rest)}`), 400, "invalid_request");
    expectError(await call(GET, `/api/quotes?${new URLSearchParams(base)}&chainId=1`), 400, "invalid_request");
  });

  it("answers 503 when no provider serves the chain or none is configured", async () => {
    process.env.QUOTE_PROVIDERS = "kyberswap";
    resetConfig();
    expectError(await quote({ chainId: "31337" }), 503, "provider_unavailable");
    process.env.QUOTE_PROVIDERS = "";
    resetConfig();
    expectError(await quote(), 503, "provider_unavailable");
    process.env.QUOTE_PROVIDERS = "0x,kyberswap,odos";
    resetConfig();
  });
});
