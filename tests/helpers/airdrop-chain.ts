// A local chain served on 127.0.0.1 for a built server (`next start`) to read Merkle roots from, and indexed
// tokens whose airdrop holds a given root. Tree uploads are admitted only when the chain holds their root, so the
// bench's merkle scenarios, the soak and `npm run reliability -- --hostile` upload against this. Tokens rows go
// into this process's db(): point it at the server's database before launching.
import { sql } from "kysely";
import type { Address, Hex } from "viem";
import { db } from "@/db";
import { airdropOwner } from "@/lib/domains/airdrops/service";
import { readAirdropRoot, resetChainClients } from "@/lib/platform/chain";
import { LOCAL_CHAIN_ID } from "@/dev/chain/local";
import { resetConfig } from "@/lib/core/config";
import { deleteTree } from "@/lib/domains/merkle/jobs";
import { presaleWithAllowlist, tokenWithAirdrop, updateAirdropRoot } from "@/tests/api/airdrops/trees";
import { startTestChain, type TestChain } from "./chain";

export type AirdropChain = {
  chain: TestChain;
  /** RPC_URL_8453, the contract addresses and the deployer key: what a server needs to read this chain. */
  env: Record<string, string>;
  /** Deploys a token whose airdrop (admin: account 2) holds `root`, and inserts its tokens row. */
  launch(root: Hex): Promise<Address>;
  /** The airdrop's admin replaces the token's root on chain. */
  setRoot(token: Address, root: Hex): Promise<void>;
  /** The root the token's airdrop holds on chain now. */
  root(token: Address): Promise<Hex | null>;
  /** Starts a presale whose allowlist holds `root` (not indexed: the server reads it from the chain); its id. */
  presale(root: Hex): Promise<number>;
  /** Removes the tokens rows and every stored tree of these tokens, so runs on a shared database leave nothing. */
  forget(tokens: readonly string[]): Promise<void>;
  close(): Promise<void>;
};

export async function startAirdropChain(): Promise<AirdropChain> {
  const chain = await startTestChain({ http: true });
  // Outside vitest nothing resets the configuration per file: a config() read before the chain's variables
  // were set would keep pointing the chain layer nowhere.
  resetConfig();
  resetChainClients();
  // The deployer's and the admin's transactions pick their nonce from the chain: one at a time, or two
  // concurrent ones take the same nonce.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => {});
    return next;
  };
  return {
    chain,
    env: { ...chain.deployment.env },
    launch: (root) => serial(() => tokenWithAirdrop(chain, root)),
    setRoot: (token, root) => serial(() => updateAirdropRoot(chain, token, root)),
    root: (token) => readAirdropRoot(LOCAL_CHAIN_ID, token),
    presale: (root) => serial(() => presaleWithAllowlist(chain, root)),
    async forget(tokens) {
      if (!tokens.length) return;
      const owners = tokens.map(airdropOwner);
      // deleteTree keeps a current tree: retire them first.
      const trees = await db()
        .updateTable("merkle_trees")
        .set({ state: "retired" })
        .where("owner", "in", owners)
        .returning("id")
        .execute();
      for (const { id } of trees) await deleteTree(id);
      await sql`DELETE FROM tokens WHERE contract_address = ANY(${tokens.map((t) => t.toLowerCase())})`.execute(db());
    },
    async close() {
      await chain.close();
      resetConfig();
      resetChainClients();
    },
  };
}
