// Deployments straight at the local factory from a user's wallet, not through the service: what the TokenCreated
// indexer and the head follower must find on their own.
import { keccak256, parseEventLogs, toHex, type Address, type Hash } from "viem";
import { tokenFactoryAbi } from "@/lib/platform/chain";
import { defaultDeploymentConfig, type TestChain } from "./chain";

/** Sends deployToken(label) from local account `account` (default 4); resolves once the node accepted it. */
export async function sendDirectDeploy(c: TestChain, label: string, account = 4): Promise<Hash> {
  const config = defaultDeploymentConfig(c, { salt: keccak256(toHex(label)), name: label });
  return c.wallet(account).writeContract({
    address: c.contracts.factory,
    abi: tokenFactoryAbi,
    functionName: "deployToken",
    args: [config],
  });
}

/** Deploys and waits for the receipt: the token's address and block. */
export async function deployDirect(
  c: TestChain,
  label: string,
  account = 4,
): Promise<{ token: Address; block: number }> {
  const hash = await sendDirectDeploy(c, label, account);
  const receipt = await c.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  const [created] = parseEventLogs({ abi: tokenFactoryAbi, eventName: "TokenCreated", logs: receipt.logs });
  if (!created) throw new Error(`no TokenCreated in ${hash}`);
  return { token: created.args.tokenAddress, block: Number(receipt.blockNumber) };
}
