// Each aggregator client against a local fake: request shape, answer mapping, and every way it fails.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { zeroExProvider } from "@/lib/domains/quotes/providers/zerox";
import { kyberSwapProvider } from "@/lib/domains/quotes/providers/kyberswap";
import { odosProvider } from "@/lib/domains/quotes/providers/odos";
import { QuoteProviderError, type QuoteProvider, type QuoteRequest } from "@/lib/domains/quotes/types";
import { resetConfig } from "@/lib/core/config";
import {
  hang,
  kyberAnswer,
  odosAnswer,
  SWAPPER,
  startAggregators,
  USDC,
  WETH,
  zeroExAnswer,
  type Fakes,
} from "./fakes";

let fakes: Fakes;
beforeAll(async () => {
  fakes = await startAggregators({ timeoutMs: 1000 });
});
afterAll(() => fakes.close());
beforeEach(() => {
  fakes.zeroEx.handle(() => ({ json: zeroExAnswer("3000000000") }));
  fakes.kyber.handle(() => ({ json: kyberAnswer("3010000000") }));
  fakes.odos.handle(() => ({ json: odosAnswer("2990000000") }));
});

const request: QuoteRequest = {
  chainId: 8453,
  inputToken: WETH,
  outputToken: USDC,
  inputAmount: 10n ** 18n,
  swapperAccount: SWAPPER,
  slippageBps: 50,
};
const run = (p: QuoteProvider, r: QuoteRequest = request) => p.quote(r, new AbortController().signal);

async function failure(p: QuoteProvider): Promise<QuoteProviderError> {
  const error = await run(p).then(
    () => null,
    (e) => e,
  );
  expect(error).toBeInstanceOf(QuoteProviderError);
  return error as QuoteProviderError;
}

describe("0x Swap API v2 client", () => {
  it("asks /swap/permit2/price with the key and version headers and maps the fills", async () => {
    const quote = await run(zeroExProvider);
    const sent = fakes.zeroEx.requests.at(-1)!;
    expect(sent.path).toBe("/swap/permit2/price");
    expect(sent.headers["0x-api-key"]).toBe("test-0x-key");
    expect(sent.headers["0x-version"]).toBe("v2");
    expect(Object.fromEntries(sent.query)).toEqual({
      chainId: "8453",
      sellToken: WETH,
      buyToken: USDC,
      sellAmount: "1000000000000000000",
      taker: SWAPPER,
      slippageBps: "50",
    });
    expect(quote.outputAmount).toBe(3_000_000_000n);
    expect(quote.route).toEqual([
      { source: "Uniswap_V3", tokenIn: WETH, tokenOut: USDC, proportionBps: 7000 },
      { source: "Aerodrome_V2", tokenIn: WETH, tokenOut: USDC, proportionBps: 3000 },
    ]);
  });

  it("is unavailable without an API key", () => {
    process.env.ZEROX_API_KEY = "";
    delete process.env.ZEROX_API_KEY;
    resetConfig();
    expect(zeroExProvider.supports(8453)).toBe(false);
    process.env.ZEROX_API_KEY = "test-0x-key";
    resetConfig();
    expect(zeroExProvider.supports(8453)).toBe(true);
  });

  it("treats liquidityAvailable false as no route", async () => {
    fakes.zeroEx.handle(() => ({ json: { liquidityAvailable: false, zid: "0x1" } }));
    expect((await failure(zeroExProvider)).kind).toBe("no_route");
  });

  it("rejects a quote for another token", async () => {
    fakes.zeroEx.handle(() => ({ json: zeroExAnswer("5", WETH) }));
    expect((await failure(zeroExProvider)).kind).toBe("malformed");
  });
});

describe("KyberSwap aggregator client", () => {
  it("asks /{chain}/api/v1/routes with the client id and turns paths into bps shares", async () => {
    const quote = await run(kyberSwapProvider);
    const sent = fakes.kyber.requests.at(-1)!;
    expect(sent.path).toBe("/base/api/v1/routes");
    expect(sent.headers["x-client-id"]).toBe("token-launch-tests");
    expect(sent.query.get("tokenIn")).toBe(WETH);
    expect(sent.query.get("amountIn")).toBe("1000000000000000000");
    expect(sent.query.get("origin")).toBe(SWAPPER);
    expect(quote.outputAmount).toBe(3_010_000_000n);
    expect(quote.route.map((l) => [l.source, l.proportionBps])).toEqual([
      ["uniswapv3", 7500],
      ["aerodrome", 2500],
      ["curve", 2500],
    ]);
  });

  it("supports only the chains it names and reports a non-zero code as no route", async () => {
    expect(kyberSwapProvider.supports(31337)).toBe(false);
    fakes.kyber.handle(() => ({ json: { code: 4008, message: "route not found" } }));
    expect((await failure(kyberSwapProvider)).kind).toBe("no_route");
  });
});

describe("Odos SOR client", () => {
  it("posts /sor/quote/v2 with checksummed addresses and slippage in percent", async () => {
    const quote = await run(odosProvider, {
      ...request,
      inputToken: "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee",
      slippageBps: 125,
    });
    const sent = fakes.odos.requests.at(-1)!;
    expect(sent.method).toBe("POST");
    expect(sent.path).toBe("/sor/quote/v2");
    expect(JSON.parse(sent.body)).toEqual({
      chainId: 8453,
      inputTokens: [{ tokenAddress: "0x0000000000000000000000000000000000000000", amount: "1000000000000000000" }],
      outputTokens: [{ tokenAddress: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", proportion: 1 }],
      userAddr: "0x1111111111111111111111111111111111111111",
      slippageLimitPercent: 1.25,
      compact: true,
    });
    expect(quote.outputAmount).toBe(2_990_000_000n);
    expect(quote.route).toEqual([
      { source: "Odos", tokenIn: "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee", tokenOut: USDC, proportionBps: 10_000 },
    ]);
  });
});

describe("failures every client reports the same way", () => {
  const clients = [
    ["0x", zeroExProvider, () => fakes.zeroEx],
    ["kyberswap", kyberSwapProvider, () => fakes.kyber],
    ["odos", odosProvider, () => fakes.odos],
  ] as const;

  for (const [name, client, server] of clients) {
    it(`${name}: 5xx is an outage, 400 is no route`, async () => {
      server().handle(() => ({ status: 502, text: "bad gateway" }));
      expect((await failure(client)).kind).toBe("http");
      server().handle(() => ({ status: 400, json: { message: "bad token" } }));
      expect((await failure(client)).kind).toBe("no_route");
    });

    it(`${name}: non-JSON, wrong shapes and non-integer amounts are malformed`, async () => {
      server().handle(() => ({ text: "<html>oops</html>" }));
      expect((await failure(client)).kind).toBe("malformed");
      server().handle(() => ({ json: { unexpected: true } }));
      expect((await failure(client)).kind).toBe("malformed");
      const bad = name === "0x" ? zeroExAnswer("1.5") : name === "kyberswap" ? kyberAnswer("-3") : odosAnswer("1e9");
      server().handle(() => ({ json: bad }));
      expect((await failure(client)).kind).toBe("malformed");
    });

    it(`${name}: a hanging server times out and a zero output is no route`, async () => {
      server().handle(() => hang);
      const error = await failure(client);
      expect(error.kind).toBe("timeout");
      expect(error.message).toContain(name);
      const zero = name === "0x" ? zeroExAnswer("0") : name === "kyberswap" ? kyberAnswer("0") : odosAnswer("0");
      server().handle(() => ({ json: zero }));
      expect((await failure(client)).kind).toBe("no_route");
    });
  }

  it("an unreachable server is reported as such", async () => {
    process.env.ODOS_BASE_URL = "http://127.0.0.1:9";
    resetConfig();
    expect((await failure(odosProvider)).kind).toBe("unreachable");
    process.env.ODOS_BASE_URL = fakes.odos.url;
    resetConfig();
  });

  it("an aborted signal stops the request at once", async () => {
    fakes.kyber.handle(() => hang);
    const controller = new AbortController();
    const pending = kyberSwapProvider.quote(request, controller.signal);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ kind: "timeout" });
  });
});
