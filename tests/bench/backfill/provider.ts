// A JSON-RPC server over the synthetic history (history.ts) that behaves like a public provider: every HTTP
// request waits 25 ms, eth_getLogs answers at most 10,000 logs and 10,000 blocks, more than 25 requests a second
// get 429 with Retry-After, and a batch holds at most 100 calls. It counts requests and calls per method.
// eth_getLogs answers the logs its filter names (address and topics), the Uniswap V3 factory's PoolCreated included.
//   npx tsx tests/bench/backfill/provider.ts [--tokens 1000000] [--seed 1] [--port 8545]
import { createServer, type Server, type ServerResponse } from "node:http";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import type { Hex } from "viem";
import { BASE_CHAIN_ID, History, type RpcLog } from "./history";

export type ProviderLimits = {
  /** Added to every HTTP request before it is answered. */
  latencyMs: number;
  maxLogs: number;
  maxBlockRange: number;
  /** HTTP requests a second; past it 429 with Retry-After. */
  requestsPerSecond: number;
  maxBatch: number;
};

/** What public providers allow on a free or growth plan (Infura's log cap, QuickNode's range, Alchemy's rate). */
export const PUBLIC_PROVIDER: ProviderLimits = {
  latencyMs: 25,
  maxLogs: 10_000,
  maxBlockRange: 10_000,
  requestsPerSecond: 25,
  maxBatch: 100,
};

export type ProviderCounts = {
  /** HTTP requests answered, the refused ones included. */
  requests: number;
  /** Requests refused with 429. */
  rateLimited: number;
  batches: number;
  /** JSON-RPC calls per method (calls inside batches counted one by one). */
  calls: Record<string, number>;
  /** JSON-RPC errors per code. */
  errors: Record<string, number>;
  logsServed: number;
  /** The server's own CPU (user + system), ms: it shares the machine with what it serves. */
  cpuMs: number;
};

export type FakeProvider = {
  url: string;
  history: History;
  counts(): ProviderCounts;
  close(): Promise<void>;
};

type Call = { jsonrpc?: string; id?: unknown; method?: unknown; params?: unknown };
type Answer = { jsonrpc: "2.0"; id: unknown; result?: unknown; error?: { code: number; message: string } };

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const hex = (n: number) => `0x${n.toString(16)}`;

/** A result already serialised: spliced into the answer's text as JSON.stringify would have written it. */
class RawJson {
  constructor(readonly text: string) {}
}

/** An answer's or a batch's JSON text, results already serialised spliced in, byte for byte JSON.stringify's. */
const serialise = (body: unknown): string => {
  if (Array.isArray(body)) return `[${body.map(serialise).join(",")}]`;
  const { id, result } = body as Answer;
  if (result instanceof RawJson) return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result.text}}`;
  return JSON.stringify(body);
};

export async function startFakeProvider(options: {
  tokens: number;
  seed?: string;
  port?: number;
  limits?: Partial<ProviderLimits>;
}): Promise<FakeProvider> {
  const history = new History(options.tokens, options.seed ?? "1");
  const limits = { ...PUBLIC_PROVIDER, ...options.limits };
  const counts: ProviderCounts = {
    requests: 0,
    rateLimited: 0,
    batches: 0,
    calls: {},
    errors: {},
    logsServed: 0,
    cpuMs: 0,
  };
  const startCpu = process.cpuUsage();
  /** Times of the requests accepted in the last second (a sliding window). */
  const window: number[] = [];

  const blockParam = (value: unknown): number => {
    if (value === "latest" || value === "safe" || value === "finalized" || value === undefined) return history.head;
    if (value === "earliest") return 0;
    if (typeof value === "string" && /^0x[0-9a-f]+$/i.test(value)) return Number.parseInt(value, 16);
    throw new RpcError(-32602, `invalid block number: ${JSON.stringify(value)}`);
  };

  const getLogs = (filter: Record<string, unknown>): RpcLog[] => {
    if (filter.blockHash !== undefined) {
      const block = history.blockOfHash(String(filter.blockHash));
      if (block === null) throw new RpcError(-32000, "unknown block");
      return getLogs({ ...filter, blockHash: undefined, fromBlock: hex(block), toBlock: hex(block) });
    }
    const from = blockParam(filter.fromBlock ?? "latest");
    const to = Math.min(blockParam(filter.toBlock ?? "latest"), history.head);
    if (to - from + 1 > limits.maxBlockRange)
      throw new RpcError(-32614, `eth_getLogs is limited to a ${limits.maxBlockRange.toLocaleString("en-US")} range`);
    const addresses = filter.address === undefined ? null : [filter.address].flat().map((a) => String(a).toLowerCase());
    const topics = Array.isArray(filter.topics) ? filter.topics : [];
    const wants = (position: number, topic: string) => {
      const wanted = topics[position];
      if (wanted === null || wanted === undefined) return true;
      return [wanted].flat().some((t) => String(t).toLowerCase() === topic);
    };
    // Only the logs of the contracts and events the filter names are built.
    const named = (address: string, topic0: Hex) => (!addresses || addresses.includes(address)) && wants(0, topic0);
    const logs: RpcLog[] = [];
    for (const log of history.logsIn(from, to, named)) {
      if (topics.length > log.topics.length || !log.topics.every((t, i) => wants(i, t))) continue;
      logs.push(log);
      if (logs.length > limits.maxLogs) {
        // Infura's words and code; it names a range that would fit.
        const fits = Math.max(from, Number.parseInt(log.blockNumber, 16) - 1);
        throw new RpcError(
          -32005,
          `query returned more than ${limits.maxLogs} results. Try with this block range [${hex(from)}, ${hex(fits)}].`,
        );
      }
    }
    return logs;
  };

  const transactionAt = (blockHash: unknown, index: unknown) => {
    const block = history.blockOfHash(String(blockHash));
    if (block === null) return null;
    const position = Number.parseInt(String(index), 16);
    const transaction = history.transactionsOf(block).find((t) => t.index === position);
    return transaction ? new RawJson(transaction.json()) : null;
  };

  /** A transaction and its receipt by hash: a token's deployment or a noise pool's creation. */
  const byHash = (hash: unknown) => {
    const index = history.tokenOfTransaction(String(hash));
    if (index !== null) {
      const token = history.token(index);
      return { transaction: () => history.transaction(token), receipt: () => history.receipt(token) };
    }
    const j = history.noiseOfTransaction(String(hash));
    if (j === null) return null;
    const noise = history.noisePool(j);
    return { transaction: () => history.noiseTransaction(noise), receipt: () => history.noiseReceipt(noise) };
  };

  const methods: Record<string, (params: unknown[]) => unknown> = {
    eth_chainId: () => hex(BASE_CHAIN_ID),
    net_version: () => String(BASE_CHAIN_ID),
    eth_blockNumber: () => hex(history.head),
    eth_getBlockByNumber: ([number, full]) => {
      const block = blockParam(number);
      return block > history.head ? null : history.block(block, full === true);
    },
    eth_getBlockByHash: ([hash, full]) => {
      const block = history.blockOfHash(String(hash));
      return block === null ? null : history.block(block, full === true);
    },
    eth_getLogs: ([filter]) => {
      const logs = getLogs((filter ?? {}) as Record<string, unknown>);
      counts.logsServed += logs.length;
      return new RawJson(`[${logs.map((log) => history.logJson(log)).join(",")}]`);
    },
    eth_getTransactionByBlockHashAndIndex: ([hash, index]) => transactionAt(hash, index),
    eth_getTransactionByBlockNumberAndIndex: ([number, index]) =>
      transactionAt(history.blockHash(blockParam(number)), index),
    eth_getTransactionByHash: ([hash]) => byHash(hash)?.transaction() ?? null,
    eth_getTransactionReceipt: ([hash]) => byHash(hash)?.receipt() ?? null,
  };

  const answer = (call: Call): Answer => {
    const method = typeof call?.method === "string" ? call.method : "(none)";
    counts.calls[method] = (counts.calls[method] ?? 0) + 1;
    try {
      if (call?.jsonrpc !== "2.0" || typeof call.method !== "string")
        throw new RpcError(-32600, "invalid request: jsonrpc 2.0 and a method are required");
      const handler = methods[call.method];
      if (!handler) throw new RpcError(-32601, `the method ${call.method} does not exist/is not available`);
      return { jsonrpc: "2.0", id: call.id ?? null, result: handler(Array.isArray(call.params) ? call.params : []) };
    } catch (error) {
      const code = error instanceof RpcError ? error.code : -32603;
      counts.errors[code] = (counts.errors[code] ?? 0) + 1;
      const message = error instanceof Error ? error.message : String(error);
      return { jsonrpc: "2.0", id: call?.id ?? null, error: { code, message } };
    }
  };

  const reply = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
    setTimeout(() => {
      res.writeHead(status, { "content-type": "application/json", ...headers }).end(serialise(body));
    }, limits.latencyMs);

  const handle = (res: ServerResponse, text: string) => {
    counts.requests += 1;
    const now = Date.now();
    while (window.length && window[0]! <= now - 1000) window.shift();
    if (window.length >= limits.requestsPerSecond) {
      counts.rateLimited += 1;
      const error = { code: 429, message: "Your app has exceeded its requests per second capacity" };
      return reply(res, 429, { jsonrpc: "2.0", id: null, error }, { "retry-after": "1" });
    }
    window.push(now);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return reply(res, 200, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error" } });
    }
    if (!Array.isArray(body)) return reply(res, 200, answer(body as Call));
    counts.batches += 1;
    if (body.length === 0 || body.length > limits.maxBatch) {
      counts.errors["-32600"] = (counts.errors["-32600"] ?? 0) + 1;
      const message = `a batch holds 1 to ${limits.maxBatch} calls, not ${body.length}`;
      return reply(res, 200, { jsonrpc: "2.0", id: null, error: { code: -32600, message } });
    }
    return reply(
      res,
      200,
      body.map((call) => answer(call as Call)),
    );
  };

  const server: Server = createServer((req, res) => {
    if (req.method !== "POST") return void res.writeHead(405).end();
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => handle(res, Buffer.concat(chunks).toString("utf8")));
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    history,
    counts: () => {
      const cpu = process.cpuUsage(startCpu);
      return {
        ...counts,
        calls: { ...counts.calls },
        errors: { ...counts.errors },
        cpuMs: (cpu.user + cpu.system) / 1000,
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { values } = parseArgs({
    options: {
      tokens: { type: "string", default: "1000000" },
      seed: { type: "string", default: "1" },
      port: { type: "string", default: "8545" },
    },
  });
  const provider = await startFakeProvider({
    tokens: Number(values.tokens),
    seed: values.seed,
    port: Number(values.port),
  });
  console.log(`fake provider at ${provider.url}: ${values.tokens} tokens, head ${provider.history.head}`);
  process.on("SIGINT", () => {
    console.log(JSON.stringify(provider.counts(), null, 2));
    void provider.close().then(() => process.exit(0));
  });
}
