// RPC trouble surfaces as ChainUnavailableError (503 provider_unavailable), quickly; and the chain
// layer works the same over a real HTTP JSON-RPC endpoint as in process.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import { keccak256, toHex } from "viem";
import {
  ChainRevertError,
  ChainUnavailableError,
  findTokenCreated,
  getLatestBlockNumber,
  getPublicClient,
  readPoolState,
  sendDeployToken,
  simulateDeployToken,
  waitForReceipt,
  type DeploymentConfig,
} from "@/lib/platform/chain";
import { deployLocalContracts } from "@/dev/chain/local";
import { resetConfig } from "@/lib/core/config";
import { toHttpError } from "@/lib/core/errors";
import { defaultDeploymentConfig, useTestChain } from "@/tests/helpers/chain";

const CHAIN = 31_337;
const ANY = "0x00000000000000000000000000000000000000aa" as const;
const SOME_CONFIG: DeploymentConfig = {
  tokenConfig: {
    tokenAdmin: ANY,
    name: "N",
    symbol: "S",
    salt: `0x${"00".repeat(32)}`,
    image: "",
    metadata: "",
    context: "",
    originatingChainId: 1n,
  },
  poolConfig: { hook: ANY, pairedToken: ANY, tickIfToken0IsClanker: 0, tickSpacing: 200, poolData: "0x" },
  lockerConfig: {
    locker: ANY,
    rewardAdmins: [],
    rewardRecipients: [],
    rewardBps: [],
    tickLower: [],
    tickUpper: [],
    positionBps: [],
    lockerData: "0x",
  },
  mevModuleConfig: { mevModule: ANY, mevModuleData: "0x" },
  extensionConfigs: [],
};

const listen = <T extends Server | HttpServer>(server: T) =>
  new Promise<T>((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
const portOf = (server: Server | HttpServer) => (server.address() as AddressInfo).port;
const close = (server: Server | HttpServer) => new Promise((resolve) => server.close(resolve));

async function failure(operation: Promise<unknown>) {
  const started = Date.now();
  const error = await operation.then(
    () => undefined,
    (e: unknown) => e,
  );
  return { error: error as ChainUnavailableError, ms: Date.now() - started };
}

describe("an RPC that fails", () => {
  const saved = { ...process.env };
  let silent: Server;
  const silentSockets = new Set<import("node:net").Socket>();
  let failing: HttpServer;
  let refusedPort: number;

  beforeAll(async () => {
    // A port nobody listens on: connections are refused at once.
    const probe = await listen(createServer());
    refusedPort = portOf(probe);
    await close(probe);
    // Accepts connections and never answers.
    silent = await listen(createServer((socket) => silentSockets.add(socket)));
    // Answers every request with HTTP 503.
    failing = await listen(createHttpServer((_, res) => res.writeHead(503).end("overloaded")));
  });
  afterEach(() => {
    process.env = { ...saved };
  });
  afterAll(async () => {
    for (const socket of silentSockets) socket.destroy();
    await Promise.all([close(silent), close(failing)]);
  });

  it("refusing connections gives ChainUnavailableError quickly", async () => {
    process.env[`RPC_URL_${CHAIN}`] = `http://127.0.0.1:${refusedPort}`;
    const { error, ms } = await failure(getLatestBlockNumber(CHAIN));
    expect(error).toBeInstanceOf(ChainUnavailableError);
    expect(error).toMatchObject({ name: "ChainUnavailableError", reason: "unreachable", chainId: CHAIN });
    expect(error.retryAfterSeconds).toBeGreaterThan(0);
    expect(ms).toBeLessThan(3_000);

    process.env[`FACTORY_ADDRESS_${CHAIN}`] = ANY;
    const simulated = await failure(simulateDeployToken(CHAIN, SOME_CONFIG));
    expect(simulated.error).toBeInstanceOf(ChainUnavailableError);
  });

  it("never answering gives ChainUnavailableError after the configured timeout", async () => {
    process.env[`RPC_URL_${CHAIN}`] = `http://127.0.0.1:${portOf(silent)}`;
    process.env.CHAIN_TIMEOUT_MS = "300";
    const { error, ms } = await failure(getLatestBlockNumber(CHAIN));
    expect(error).toMatchObject({ name: "ChainUnavailableError", reason: "timeout" });
    // One attempt and one retry, each cut at 300 ms (slack for a loaded machine).
    expect(ms).toBeLessThan(5_000);

    const read = await failure(readPoolState(CHAIN, ANY, ANY));
    expect(read.error).toMatchObject({ name: "ChainUnavailableError", reason: "timeout" });
  });

  it("HTTP errors and an unconfigured chain are unavailable too, and map to 503", async () => {
    process.env[`RPC_URL_${CHAIN}`] = `http://127.0.0.1:${portOf(failing)}`;
    const http = await failure(getLatestBlockNumber(CHAIN));
    expect(http.error).toMatchObject({ name: "ChainUnavailableError", reason: "unreachable" });

    const missing = await failure(getLatestBlockNumber(99_999));
    expect(missing.error).toMatchObject({ name: "ChainUnavailableError", reason: "not_configured" });
    expect(missing.error.message).toContain("RPC_URL_99999");

    const mapped = toHttpError(http.error);
    expect(mapped.status).toBe(503);
    expect(mapped.code).toBe("provider_unavailable");
    expect(mapped.headers["Retry-After"]).toBe(String(http.error.retryAfterSeconds));
  });

  it("a malformed RPC URL is a configuration error naming the variable", async () => {
    process.env[`RPC_URL_${CHAIN}`] = "not a url";
    await expect(getLatestBlockNumber(CHAIN)).rejects.toThrow(`RPC_URL_${CHAIN}`);
  });
});

describe("over HTTP JSON-RPC (the production transport)", () => {
  const chain = useTestChain({ http: true });

  it("deploys, decodes and reports reverts through RPC_URL_8453", async () => {
    expect(process.env.RPC_URL_8453).toBe(chain().rpcUrl);
    const config = defaultDeploymentConfig(chain(), { salt: keccak256(toHex("over-http")) });
    const predicted = await simulateDeployToken(8453, config);
    const receipt = await waitForReceipt(8453, await sendDeployToken(8453, config));
    expect(findTokenCreated(receipt)[0]?.tokenAddress).toBe(predicted.toLowerCase());

    const error = await simulateDeployToken(8453, config).catch((e) => e);
    expect(error).toBeInstanceOf(ChainRevertError);
    expect(error.errorName).toBe("TokenAlreadyDeployed");
  });

  it("deploying the local contracts again finds them in place", async () => {
    const again = await deployLocalContracts(chain().rpcUrl!);
    expect(again.contracts).toEqual(chain().contracts);
    expect(again.env.RPC_URL_8453).toBe(chain().rpcUrl);
  });
});

describe("RPC_REQUESTS_PER_SECOND_<chainId>", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    resetConfig();
  });

  it("spaces the HTTP requests to the RPC at most that many a second, however many are made at once", async () => {
    const arrivals: number[] = [];
    const rpc = await listen(
      createHttpServer((req, res) => {
        arrivals.push(performance.now());
        req.resume().on("end", () => {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify({ jsonrpc: "2.0", id: 0, result: "0x2105" }));
        });
      }),
    );
    process.env[`RPC_URL_${CHAIN}`] = `http://127.0.0.1:${portOf(rpc)}`;
    process.env[`RPC_REQUESTS_PER_SECOND_${CHAIN}`] = "20";
    process.env.RPC_BATCH_SIZE = "0";
    resetConfig();
    const client = getPublicClient(CHAIN);
    await Promise.all(Array.from({ length: 6 }, () => client.request({ method: "eth_chainId" })));
    await close(rpc);
    expect(arrivals).toHaveLength(6);
    // Sent 50 ms apart at 20 a second: five gaps, whatever the sockets add to each one's arrival.
    expect(arrivals.at(-1)! - arrivals[0]!).toBeGreaterThan(240);
  });
});
