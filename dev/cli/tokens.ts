// npm run tokens -- block <address> [--chain N] [--reason …] | unblock <address> [--chain N]
import { blockToken, unblockToken } from "@/lib/domains/tokens/blocks";
import { parseArgs, runCommand } from "./args";
import { isEvmAddress } from "@/lib/core/evm";

const usage =
  "usage: npm run tokens -- block <address> [--chain <chainId>] [--reason <text>] | unblock <address> [--chain <chainId>]";

function chainOf(flag: string | true | undefined): number | null {
  if (flag === undefined) return null;
  if (typeof flag !== "string" || !/^\d{1,10}$/.test(flag) || Number(flag) < 1 || Number(flag) > 2 ** 31 - 1) {
    throw new Error(`--chain must be a chain id (a positive integer)\n${usage}`);
  }
  return Number(flag);
}

await runCommand(async () => {
  const { positionals, flags } = parseArgs();
  const [command, address] = positionals;
  if ((command !== "block" && command !== "unblock") || !address) throw new Error(usage);
  if (!isEvmAddress(address)) throw new Error(`not an address: ${address}\n${usage}`);
  const chainId = chainOf(flags.chain);
  const where = chainId === null ? "on every chain" : `on chain ${chainId}`;
  if (command === "block") {
    if (flags.reason === true) throw new Error(`--reason needs a text\n${usage}`);
    await blockToken(address.toLowerCase(), chainId, flags.reason ?? null);
    console.log(`blocked ${address} ${where}`);
  } else {
    const removed = await unblockToken(address.toLowerCase(), chainId);
    console.log(removed ? `unblocked ${address} ${where}` : `${address} was not blocked ${where}`);
  }
});
