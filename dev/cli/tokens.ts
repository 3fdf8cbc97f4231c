// npm run tokens -- block <address> [--chain N] [--reason …] | unblock <address> [--chain N]
import { type CliSpec, runCommand, UsageError } from "./args";

const cli = {
  command: "npm run tokens",
  synopsis: ["block <address> [--chain <chainId>] [--reason <text>]", "unblock <address> [--chain <chainId>]"],
  description:
    "Adds a token to the blocklist (what the partner endpoint is-blocked answers) or removes exactly that block.\n" +
    "Blocking again updates the reason.",
  options: {
    chain: { type: "string", value: "chainId", description: "the block's chain (default: a block on every chain)" },
    reason: { type: "string", value: "text", description: "block: why, kept with the block" },
  },
  positionals: 2,
} as const satisfies CliSpec;

function chainOf(flag: string | undefined): number | null {
  if (flag === undefined) return null;
  if (!/^\d{1,10}$/.test(flag) || Number(flag) < 1 || Number(flag) > 2 ** 31 - 1) {
    throw new UsageError(cli, "--chain must be a chain id (a positive integer)");
  }
  return Number(flag);
}

await runCommand(cli, async ({ positionals, values }) => {
  const [{ blockToken, unblockToken }, { isEvmAddress }] = await Promise.all([
    import("@/lib/domains/tokens/blocks"),
    import("@/lib/core/evm"),
  ]);
  const [command, address] = positionals;
  if ((command !== "block" && command !== "unblock") || !address)
    throw new UsageError(cli, command ? `unknown or incomplete command: ${positionals.join(" ")}` : "no command given");
  if (!isEvmAddress(address)) throw new UsageError(cli, `not an address: ${address}`);
  const chainId = chainOf(values.chain);
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
