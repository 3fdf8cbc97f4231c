// npm run tokens -- block <address> [--chain N] [--reason …] | unblock <address> [--chain N]
//                 | read-deployments [--chain N] [--from-id ID] [--limit N]
//                 | quarantine list [--all] [--from-id ID] [--limit N] | quarantine retry [--from-id ID] [--limit N]
//                 | backfill [--chain N] [--generation TYPE] [--from-block B] [--to-block B]
import { type CliSpec, runCommand, UsageError } from "./args";

const cli = {
  command: "npm run tokens",
  synopsis: [
    "block <address> [--chain <chainId>] [--reason <text>]",
    "unblock <address> [--chain <chainId>]",
    "read-deployments [--chain <chainId>] [--from-id <id>] [--limit <N>]",
    "quarantine list [--all] [--from-id <id>] [--limit <N>]",
    "quarantine retry [--from-id <id>] [--limit <N>]",
    "backfill [--chain <chainId>] [--generation <type>] [--from-block <B>] [--to-block <B>]",
  ],
  description:
    "block adds a token to the blocklist (what the partner endpoint is-blocked answers), unblock removes exactly that\n" +
    "block; blocking again updates the reason. read-deployments indexes again, from their TokenCreated, the tokens\n" +
    "whose extensions hold no fees or split (indexed before the deploying call was read), in id order, and prints\n" +
    "what each gave; a run stopped by a failed read says where to resume. quarantine list prints the chain events the\n" +
    "indexer set aside (open ones unless --all); quarantine retry reads each open one again from its block and stores\n" +
    "it, printing what each gave (indexed, refused, undecodable, gone, not_indexed). backfill imports a chain's\n" +
    "tokens from its factories' deployment blocks (or --from-block) to the head (or --to-block) with the minute\n" +
    "indexer's follower, a progress line on stderr; killed, it resumes where it stopped when run again.",
  options: {
    chain: {
      type: "string",
      value: "chainId",
      description:
        "the chain (block: default every chain; read-deployments, backfill: default every chain with an RPC)",
    },
    generation: {
      type: "string",
      value: "type",
      description: "backfill: only the factories of this generation (proxy, clanker, clanker_v2 … clanker_v4)",
    },
    "from-block": {
      type: "string",
      value: "B",
      description: "backfill: start at this block (default: where the index stops)",
    },
    "to-block": { type: "string", value: "B", description: "backfill: stop at this block (default: the head)" },
    reason: { type: "string", value: "text", description: "block: why, kept with the block" },
    "from-id": {
      type: "string",
      value: "id",
      description: "read-deployments, quarantine: start at this token or event id (default 1)",
    },
    limit: {
      type: "string",
      value: "N",
      description: "read-deployments, quarantine: at most N tokens or events (default 1000)",
    },
    all: { type: "boolean", description: "quarantine list: the resolved events too" },
  },
  positionals: 2,
} as const satisfies CliSpec;

/** A positive integer option (at most 2^31 − 1), or `fallback` when it is not given. */
function positiveOf<T>(flag: string | undefined, name: string, fallback: T): number | T {
  if (flag === undefined) return fallback;
  if (!/^\d{1,10}$/.test(flag) || Number(flag) < 1 || Number(flag) > 2 ** 31 - 1) {
    throw new UsageError(cli, `--${name} must be a positive integer`);
  }
  return Number(flag);
}

async function readDeployments(values: { chain?: string; "from-id"?: string; limit?: string }) {
  const { readUnreadDeployments, DeploymentReadStopped } = await import("@/lib/domains/launch/indexer/reread");
  const chainId = positiveOf(values.chain, "chain", undefined);
  const fromId = positiveOf(values["from-id"], "from-id", 1);
  const limit = positiveOf(values.limit, "limit", 1000);
  const counts = { split: 0, hook: 0, not_found: 0 };
  try {
    const { read, next } = await readUnreadDeployments({
      chainId,
      fromId,
      limit,
      onRead: ({ id, chainId, address, found }) => {
        counts[found] += 1;
        console.log(`${id}\t${chainId}\t${address}\t${found}`);
      },
    });
    console.log(
      `read ${read}: ${counts.split} with their split, ${counts.hook} hook only, ${counts.not_found} not found`,
    );
    console.log(next === null ? "no token left to read" : `more to read: --from-id ${next}`);
  } catch (error) {
    if (!(error instanceof DeploymentReadStopped)) throw error;
    console.error(`${error.message}\nresume with --from-id ${error.resumeFrom}`);
    process.exitCode = 1;
  }
}

async function quarantine(action: string | undefined, values: { "from-id"?: string; limit?: string; all?: boolean }) {
  const afterId = positiveOf(values["from-id"], "from-id", 1) - 1;
  const limit = positiveOf(values.limit, "limit", 1000);
  const line = (r: { id: number; chainId: number; blockNumber: number; logIndex: number; txHash: string }) =>
    `${r.id}\t${r.chainId}\t${r.blockNumber}:${r.logIndex}\t${r.txHash}`;
  if (action === "list") {
    const { listQuarantinedEvents } = await import("@/lib/platform/quarantine");
    const rows = await listQuarantinedEvents({ afterId, limit, all: values.all });
    for (const r of rows)
      console.log(`${line(r)}\t${r.reason}\t${r.attempts}\t${r.resolvedAt ? "resolved" : "open"}\t${r.lastError}`);
    console.log(`${rows.length} event${rows.length === 1 ? "" : "s"}${values.all ? "" : " open"}`);
    return;
  }
  if (action !== "retry") throw new UsageError(cli, "quarantine takes list or retry");
  if (values.all) throw new UsageError(cli, "--all is an option of quarantine list only");
  const { retryQuarantinedTokenEvents } = await import("@/lib/domains/launch/indexer/quarantine");
  const { tried, next } = await retryQuarantinedTokenEvents({
    afterId,
    limit,
    onResult: (row, result) => console.log(`${line(row)}\t${result}`),
  });
  console.log(`tried ${tried}`);
  if (next !== null) console.log(`more to try: --from-id ${next + 1}`);
}

/** A block number option (0 or more), or undefined when it is not given. */
function blockOf(flag: string | undefined, name: string): number | undefined {
  if (flag === undefined) return undefined;
  if (!/^\d{1,15}$/.test(flag)) throw new UsageError(cli, `--${name} must be a block number`);
  return Number(flag);
}

const duration = (seconds: number) => {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h ? `${h}h` : ""}${String(m).padStart(h ? 2 : 1, "0")}m${String(s % 60).padStart(2, "0")}s`;
};

async function backfill(values: { chain?: string; generation?: string; "from-block"?: string; "to-block"?: string }) {
  const [{ backfillTokenCreated, backfillFactories }, { configuredChainIds, TOKEN_GENERATIONS }] = await Promise.all([
    import("@/lib/domains/launch/indexer/backfill"),
    import("@/lib/platform/chain"),
  ]);
  const generation = values.generation as (typeof TOKEN_GENERATIONS)[number] | undefined;
  if (generation !== undefined && !TOKEN_GENERATIONS.includes(generation))
    throw new UsageError(cli, `--generation must be one of ${TOKEN_GENERATIONS.join(", ")}`);
  const fromBlock = blockOf(values["from-block"], "from-block");
  const toBlock = blockOf(values["to-block"], "to-block");
  if (fromBlock !== undefined && toBlock !== undefined && fromBlock > toBlock)
    throw new UsageError(cli, "--from-block must not be after --to-block");
  const chainId = positiveOf(values.chain, "chain", undefined);
  const chains = chainId !== undefined ? [chainId] : configuredChainIds();
  if (!chains.length) throw new UsageError(cli, "no chain to backfill: set RPC_URL_<chainId> or pass --chain");
  const tty = process.stderr.isTTY;
  for (const id of chains) {
    const factories = backfillFactories(id, generation);
    if (!factories.length) {
      console.log(`chain ${id}: no indexed factory${generation ? ` of ${generation}` : ""}`);
      continue;
    }
    let printed = 0;
    const result = await backfillTokenCreated(id, {
      generation,
      fromBlock,
      toBlock,
      onProgress: (p) => {
        const now = Date.now();
        const last = p.blocksDone >= p.blocksTotal;
        if (!tty && !last && now - printed < 2000) return;
        printed = now;
        const pct = p.blocksTotal ? ((100 * p.blocksDone) / p.blocksTotal).toFixed(1) : "100.0";
        const line =
          `chain ${id}: ${p.blocksDone.toLocaleString("en")}/${p.blocksTotal.toLocaleString("en")} blocks (${pct}%)` +
          `, ${p.events.toLocaleString("en")} tokens, ${Math.round(p.blocksPerSecond).toLocaleString("en")} blocks/s` +
          `, ${((p.events * 1000) / p.elapsedMs).toFixed(1)} tokens/s` +
          `, ETA ${p.etaSeconds === null ? "?" : duration(p.etaSeconds)}, range ${p.rangeSize}`;
        process.stderr.write(tty ? `\r${line}\x1b[K` : `${line}\n`);
      },
    });
    if (tty && printed) process.stderr.write("\n");
    console.log(
      `chain ${id}: ${result.events} tokens in ${result.ranges} ranges` +
        (result.fromBlock === null ? ", nothing to read" : `, blocks ${result.fromBlock}..${result.toBlock}`) +
        `, ${result.setAside} set aside; ${factories.length} factories, done to block ${result.target}`,
    );
  }
}

await runCommand(cli, async ({ positionals, values }) => {
  const [{ blockToken, unblockToken }, { isEvmAddress }] = await Promise.all([
    import("@/lib/domains/tokens/blocks"),
    import("@/lib/core/evm"),
  ]);
  const [command, address] = positionals;
  if (command === "backfill") {
    if (address !== undefined) throw new UsageError(cli, "backfill takes no address");
    if (values.reason !== undefined || values.all || values["from-id"] !== undefined || values.limit !== undefined)
      throw new UsageError(cli, "backfill takes --chain, --generation, --from-block and --to-block only");
    return backfill(values);
  }
  if (values.generation !== undefined || values["from-block"] !== undefined || values["to-block"] !== undefined)
    throw new UsageError(cli, "--generation, --from-block and --to-block are options of backfill only");
  if (command === "quarantine") {
    if (values.chain !== undefined || values.reason !== undefined)
      throw new UsageError(cli, "quarantine takes --from-id, --limit and --all only");
    return quarantine(address, values);
  }
  if (values.all) throw new UsageError(cli, "--all is an option of quarantine list only");
  if (command === "read-deployments") {
    if (address !== undefined) throw new UsageError(cli, "read-deployments takes no address");
    if (values.reason !== undefined) throw new UsageError(cli, "--reason is an option of block only");
    return readDeployments(values);
  }
  if (values["from-id"] !== undefined || values.limit !== undefined)
    throw new UsageError(cli, "--from-id and --limit are options of read-deployments only");
  if ((command !== "block" && command !== "unblock") || !address)
    throw new UsageError(cli, command ? `unknown or incomplete command: ${positionals.join(" ")}` : "no command given");
  if (!isEvmAddress(address)) throw new UsageError(cli, `not an address: ${address}`);
  const chainId = positiveOf(values.chain, "chain", null);
  const where = chainId === null ? "on every chain" : `on chain ${chainId}`;
  if (command === "block") {
    await blockToken(address.toLowerCase(), chainId, values.reason ?? null);
    console.log(`blocked ${address} ${where}`);
  } else {
    if (values.reason !== undefined) throw new UsageError(cli, "--reason is an option of block only");
    const removed = await unblockToken(address.toLowerCase(), chainId);
    console.log(removed ? `unblocked ${address} ${where}` : `${address} was not blocked ${where}`);
  }
});
