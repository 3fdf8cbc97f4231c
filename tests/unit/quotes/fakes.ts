// Local stand-ins for the aggregators, answering in each one's documented response shape.
import { startFakeServer, type FakeReply, type FakeServer } from "@/tests/helpers/fake-server";
import { resetConfig } from "@/lib/core/config";

export const WETH = "0x4200000000000000000000000000000000000006";
export const USDC = "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913";
export const SWAPPER = "0x1111111111111111111111111111111111111111";

export const zeroExAnswer = (buyAmount: string, buyToken = USDC) => ({
  blockNumber: "21876249",
  buyAmount,
  buyToken,
  sellAmount: "1000000000000000000",
  sellToken: WETH,
  minBuyAmount: buyAmount,
  liquidityAvailable: true,
  fees: { integratorFee: null, zeroExFee: null, gasFee: null },
  issues: { allowance: null, balance: null, simulationIncomplete: false, invalidSourcesPassed: [] },
  route: {
    fills: [
      { from: WETH, to: USDC, source: "Uniswap_V3", proportionBps: "7000" },
      { from: WETH, to: USDC, source: "Aerodrome_V2", proportionBps: "3000" },
    ],
    tokens: [
      { address: WETH, symbol: "WETH" },
      { address: USDC, symbol: "USDC" },
    ],
  },
  totalNetworkFee: "1000000000000",
});

export const kyberAnswer = (amountOut: string, tokenOut = USDC) => ({
  code: 0,
  message: "successfully",
  data: {
    routeSummary: {
      tokenIn: WETH,
      amountIn: "1000000000000000000",
      amountInUsd: "3000",
      tokenOut,
      amountOut,
      amountOutUsd: "2999",
      gas: "200000",
      gasPrice: "1000000",
      gasUsd: "0.01",
      extraFee: { feeAmount: "", chargeFeeBy: "", isInBps: false, feeReceiver: "" },
      route: [
        [
          {
            pool: "0xpool1",
            tokenIn: WETH,
            tokenOut: USDC,
            swapAmount: "750000000000000000",
            amountOut: "1",
            exchange: "uniswapv3",
            poolType: "uniswapv3",
            extra: null,
          },
        ],
        [
          {
            pool: "0xpool2",
            tokenIn: WETH,
            tokenOut: "0x50c5725949a6f0c72e6c4a641f24049a917db0cb",
            swapAmount: "250000000000000000",
            amountOut: "1",
            exchange: "aerodrome",
            poolType: "velodrome",
            extra: null,
          },
          {
            pool: "0xpool3",
            tokenIn: "0x50c5725949a6f0c72e6c4a641f24049a917db0cb",
            tokenOut: USDC,
            swapAmount: "1",
            amountOut: "1",
            exchange: "curve",
            poolType: "curve",
            extra: null,
          },
        ],
      ],
    },
    routerAddress: "0x6131B5fae19EA4f9D964eAc0408E4408b66337b5",
  },
  requestId: "abc",
});

export const odosAnswer = (outAmount: string, outToken = USDC) => ({
  inTokens: [WETH],
  outTokens: [outToken],
  inAmounts: ["1000000000000000000"],
  outAmounts: [outAmount],
  gasEstimate: 180000,
  dataGasEstimate: 0,
  gweiPerGas: 0.01,
  gasEstimateValue: 0.005,
  inValues: [3000],
  outValues: [2999],
  netOutValue: 2998.99,
  priceImpact: -0.01,
  percentDiff: -0.03,
  partnerFeePercent: 0,
  pathId: "2c3b0e5b7c5f2a1d",
  pathViz: null,
  blockNumber: 21876249,
});

export type Fakes = { zeroEx: FakeServer; kyber: FakeServer; odos: FakeServer; close(): Promise<void> };

/** Starts the three fakes (all answering well) and points the configuration at them. */
export async function startAggregators(options: { deadlineMs?: number; timeoutMs?: number } = {}): Promise<Fakes> {
  const zeroEx = await startFakeServer(() => ({ json: zeroExAnswer("3000000000") }));
  const kyber = await startFakeServer(() => ({ json: kyberAnswer("3010000000") }));
  const odos = await startFakeServer(() => ({ json: odosAnswer("2990000000") }));
  Object.assign(process.env, {
    QUOTE_PROVIDERS: "0x,kyberswap,odos",
    ZEROX_BASE_URL: zeroEx.url,
    ZEROX_API_KEY: "test-0x-key",
    KYBERSWAP_BASE_URL: kyber.url,
    KYBERSWAP_CLIENT_ID: "token-launch-tests",
    ODOS_BASE_URL: odos.url,
    QUOTE_DEADLINE_MS: String(options.deadlineMs ?? 1500),
    PROVIDER_TIMEOUT_MS: String(options.timeoutMs ?? 5000),
  });
  resetConfig();
  return {
    zeroEx,
    kyber,
    odos,
    close: async () => void (await Promise.all([zeroEx.close(), kyber.close(), odos.close()])),
  };
}

export const hang: FakeReply = { hang: true };
