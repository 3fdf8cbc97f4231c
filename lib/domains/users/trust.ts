// The trust lists (trusted tokens per chain, trusted deployers): kept here because their statements read the
// users table too (a requester's verified addresses). The creators domain turns their facts into trustStatus.
import { db } from "@/db";
import {
  deleteTrustedDeployer,
  deleteTrustedToken,
  listTrustedDeployers,
  listTrustedTokens,
  upsertTrustedDeployer,
  upsertTrustedToken,
} from "./queries/trust";

export { trustedTokenCondition, trustFactColumns } from "./queries/trust";

/** Adding an entry again only replaces its note. */
export async function addTrustedToken(address: string, chainId: number, note?: string): Promise<void> {
  await upsertTrustedToken(db(), address.toLowerCase(), chainId, note ?? null);
}

export function removeTrustedToken(address: string, chainId: number): Promise<boolean> {
  return deleteTrustedToken(db(), address.toLowerCase(), chainId);
}

export async function addTrustedDeployer(address: string, note?: string): Promise<void> {
  await upsertTrustedDeployer(db(), address.toLowerCase(), note ?? null);
}

export function removeTrustedDeployer(address: string): Promise<boolean> {
  return deleteTrustedDeployer(db(), address.toLowerCase());
}

export async function listTrust() {
  const [tokens, deployers] = await Promise.all([listTrustedTokens(db()), listTrustedDeployers(db())]);
  return { tokens, deployers };
}
