// npm run trust -- add-token <address> [--chain 8453] [--note text] | remove-token <address> [--chain 8453]
//                 | add-deployer <address> [--note text] | remove-deployer <address> | list
import type { z } from "zod";
import { type CliSpec, runCommand, UsageError } from "./args";

const cli = {
  command: "npm run trust",
  synopsis: [
    "add-token <address> [--chain 8453] [--note <text>]",
    "remove-token <address> [--chain 8453]",
    "add-deployer <address> [--note <text>]",
    "remove-deployer <address>",
    "list",
  ],
  description: "Edits the trusted-token and trusted-deployer lists behind each token's trustStatus, or lists them.",
  options: {
    chain: {
      type: "string",
      value: "chainId",
      description: "add-token, remove-token: the token's chain (default 8453)",
    },
    note: { type: "string", value: "text", description: "add-token, add-deployer: a note kept with the entry" },
  },
  positionals: 2,
} as const satisfies CliSpec;

/** Which options each subcommand takes, and how many words (the subcommand included). */
const FORMS: Record<string, { words: number; options: string[] }> = {
  "add-token": { words: 2, options: ["chain", "note"] },
  "remove-token": { words: 2, options: ["chain"] },
  "add-deployer": { words: 2, options: ["note"] },
  "remove-deployer": { words: 2, options: [] },
  list: { words: 1, options: [] },
};

function parse<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new UsageError(cli, `${what}: ${result.error.issues[0]?.message}`);
  return result.data;
}

await runCommand(cli, async ({ positionals, values }) => {
  const [command, arg] = positionals;
  const form = command === undefined ? undefined : FORMS[command];
  if (!form || positionals.length !== form.words)
    throw new UsageError(cli, command ? `unknown or incomplete command: ${positionals.join(" ")}` : "no command given");
  const stray = Object.keys(values).find((name) => !form.options.includes(name));
  if (stray) throw new UsageError(cli, `${command} takes no --${stray}`);
  const [{ zAddress, zChainId }, trust] = await Promise.all([
    import("@/lib/core/input"),
    import("@/lib/domains/users/trust"),
  ]);
  const note = values.note;
  const chainId = () => parse(zChainId, values.chain ?? "8453", "--chain");
  const address = () => parse(zAddress, arg, "address");
  switch (command) {
    case "add-token":
      await trust.addTrustedToken(address(), chainId(), note);
      return console.log(`trusted token ${arg} on chain ${chainId()}`);
    case "remove-token":
      if (!(await trust.removeTrustedToken(address(), chainId())))
        throw new Error(`${arg} is not a trusted token on chain ${chainId()}`);
      return console.log(`removed trusted token ${arg} on chain ${chainId()}`);
    case "add-deployer":
      await trust.addTrustedDeployer(address(), note);
      return console.log(`trusted deployer ${arg}`);
    case "remove-deployer":
      if (!(await trust.removeTrustedDeployer(address()))) throw new Error(`${arg} is not a trusted deployer`);
      return console.log(`removed trusted deployer ${arg}`);
    default: {
      const { tokens, deployers } = await trust.listTrust();
      console.log(`trusted tokens (${tokens.length}):`);
      for (const t of tokens) console.log(`  ${t.address}  chain ${t.chain_id}${t.note ? `  ${t.note}` : ""}`);
      console.log(`trusted deployers (${deployers.length}):`);
      for (const d of deployers) console.log(`  ${d.address}${d.note ? `  ${d.note}` : ""}`);
    }
  }
});
