// npm run trust -- add-token <address> [--chain 8453] [--note text] | remove-token <address> [--chain 8453]
//                 | add-deployer <address> [--note text] | remove-deployer <address> | list
import type { z } from "zod";
import { zAddress, zChainId } from "@/lib/core/input";
import {
  addTrustedDeployer,
  addTrustedToken,
  listTrust,
  removeTrustedDeployer,
  removeTrustedToken,
} from "@/lib/domains/users/creators/trust";
import { parseArgs, runCommand } from "./args";

const usage =
  "usage: npm run trust -- add-token <address> [--chain 8453] [--note text] | remove-token <address> [--chain 8453]\n" +
  "                      | add-deployer <address> [--note text] | remove-deployer <address> | list";

function parse<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new Error(`${what}: ${result.error.issues[0]?.message}\n${usage}`);
  return result.data;
}

await runCommand(async () => {
  const { positionals, flags } = parseArgs();
  const [command, arg] = positionals;
  const note = typeof flags.note === "string" ? flags.note : undefined;
  const chainId = () => parse(zChainId, typeof flags.chain === "string" ? flags.chain : "8453", "--chain");
  const address = () => parse(zAddress, arg, "address");
  switch (command) {
    case "add-token":
      await addTrustedToken(address(), chainId(), note);
      return console.log(`trusted token ${arg} on chain ${chainId()}`);
    case "remove-token":
      if (!(await removeTrustedToken(address(), chainId())))
        throw new Error(`${arg} is not a trusted token on chain ${chainId()}`);
      return console.log(`removed trusted token ${arg} on chain ${chainId()}`);
    case "add-deployer":
      await addTrustedDeployer(address(), note);
      return console.log(`trusted deployer ${arg}`);
    case "remove-deployer":
      if (!(await removeTrustedDeployer(address()))) throw new Error(`${arg} is not a trusted deployer`);
      return console.log(`removed trusted deployer ${arg}`);
    case "list": {
      const { tokens, deployers } = await listTrust();
      console.log(`trusted tokens (${tokens.length}):`);
      for (const t of tokens) console.log(`  ${t.address}  chain ${t.chain_id}${t.note ? `  ${t.note}` : ""}`);
      console.log(`trusted deployers (${deployers.length}):`);
      for (const d of deployers) console.log(`  ${d.address}${d.note ? `  ${d.note}` : ""}`);
      return;
    }
    default:
      throw new Error(usage);
  }
});
