// The presale object of GET /api/presales (snake_case like the token object; wei as decimal strings).
import type { Selectable } from "kysely";
import type { z } from "zod";
import type { PresalesTable } from "@/db/tables/presales";
import { PRESALE_STATUS } from "@/lib/platform/chain";
import { checksum } from "@/lib/core/evm";
import type { StoredDeploymentConfig } from "@/lib/domains/launch/deploy/stored";
import type { presaleObject } from "./responses";

const STATUS_NAMES = Object.fromEntries(Object.entries(PRESALE_STATUS).map(([name, n]) => [n, name])) as Record<
  number,
  string
>;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toPresaleObject(row: Selectable<PresalesTable>): z.input<typeof presaleObject> {
  return {
    id: Number(row.id),
    presale_id: Number(row.presale_id),
    chain_id: row.chain_id,
    presale_address: checksum(row.presale_address),
    status: row.status,
    status_name: STATUS_NAMES[row.status] ?? "Unknown",
    owner: checksum(row.owner),
    allowlist_root: row.allowlist_root,
    min_eth_goal: row.min_eth_goal,
    max_eth_goal: row.max_eth_goal,
    eth_raised: row.eth_raised,
    end_time: iso(row.end_time),
    lockup_duration: row.lockup_duration === null ? null : Number(row.lockup_duration),
    vesting_duration: row.vesting_duration === null ? null : Number(row.vesting_duration),
    lockup_end_time: iso(row.lockup_end_time),
    vesting_end_time: iso(row.vesting_end_time),
    token_address: checksum(row.token_address),
    token_supply: row.token_supply,
    // The event's DeploymentConfig through toJson (lib/domains/presales/indexer.ts).
    deployment_config: row.deployment_config as StoredDeploymentConfig | null,
    started_at: iso(row.started_at),
    start_tx_hash: row.start_tx_hash,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
