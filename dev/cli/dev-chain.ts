// Runs the local chain for development: npx tsx dev/cli/dev-chain.ts [--port 8545] [-- <command...>]
// Without a command it keeps the node running and prints the variables to point the service at it.
// With one (e.g. `-- next dev`) it runs the command with those variables set and stops with it.
// If RPC_URL_8453 is already set, no local chain is started: the command runs against that RPC.
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type CliSpec, readCli, refuse } from "./args";

const cli = {
  command: "npm run chain",
  synopsis: ["[--port N] [-- <command…>]"],
  description:
    "Starts a local hardhat chain (chain id 8453) with the project's contracts deployed and writes its variables\n" +
    "to DATA_DIR/dev-chain.env. Without a command it keeps running and prints them; with one (after --) it runs\n" +
    "the command with them set and stops with it. With RPC_URL_8453 set, no chain is started.",
  options: {
    port: {
      type: "string",
      value: "N",
      description: "the JSON-RPC port (default DEV_CHAIN_PORT, else 8545); a local chain already there is reused",
    },
  },
  rest: true,
} as const satisfies CliSpec;

function parseArgs() {
  const { values, rest: command } = readCli(cli);
  const port = Number(values.port ?? process.env.DEV_CHAIN_PORT ?? 8545);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) refuse(cli, `invalid --port: ${values.port}`);
  return { port, command };
}

function run(command: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command[0]!, command.slice(1), {
      stdio: "inherit",
      env: { ...process.env, ...env },
      shell: process.platform === "win32",
    });
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function main() {
  const { port, command } = parseArgs();
  if (process.env.RPC_URL_8453) {
    console.log(`RPC_URL_8453 is set (${process.env.RPC_URL_8453}); not starting a local chain`);
    process.exit(command.length ? await run(command, {}) : 0);
  }

  // A deployer key set in the environment is funded and kept; otherwise local account 1 deploys.
  const key = process.env.DEPLOYER_PRIVATE_KEY?.trim();
  const deployerPrivateKey = key && /^0x[0-9a-fA-F]{64}$/.test(key) ? (key as `0x${string}`) : undefined;
  const { startDevChain } = await import("@/dev/chain/dev-chain");
  const chain = await startDevChain({ port, deployerPrivateKey });
  const lines = Object.entries(chain.env).map(([name, value]) => `${name}=${value}`);
  // Written for tools that want to source it; the service itself gets the variables from this process.
  const envFile = path.join(process.env.DATA_DIR ?? ".data", "dev-chain.env");
  mkdirSync(path.dirname(envFile), { recursive: true });
  writeFileSync(envFile, `${lines.join("\n")}\n`);
  console.log(
    `local chain ${chain.reused ? "reused" : "started"} at ${chain.rpcUrl} (chain id 8453); variables in ${envFile}`,
  );

  if (command.length) {
    const code = await run(command, chain.env);
    await chain.close();
    process.exit(code);
  }
  console.log(lines.join("\n"));
  const stop = async () => {
    await chain.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
