// Agents and activity for leaderboard tests, written as the JSON-lines ingest format.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { tmpdir } from "node:os";

const HOUR = 3_600_000;
export const hoursAgo = (h: number) => new Date(Date.now() - h * HOUR).toISOString();
export const tokenAddress = (i: number) => `0x${(0xab0000 + i).toString(16).padStart(40, "0")}`;

export function agent(i: number, extra: Record<string, unknown> = {}) {
  return {
    type: "agent",
    agentId: `droid-${String(i).padStart(3, "0")}`,
    name: `Droid ${i}`,
    fid: 10_000 + i,
    creatorFid: 20_000 + i,
    creatorNeynarScore: 0.5,
    token: { chainId: 8453, address: tokenAddress(i), name: `Droid Token ${i}`, symbol: `DRD${i}` },
    ...extra,
  };
}

/**
 * Agent i has i successful runs, one post per run and 3i interactions from distinct accounts, all
 * within the last `ageHours` hours: more activity, higher rank.
 */
export function activity(i: number, ageHours = 2) {
  const id = `droid-${String(i).padStart(3, "0")}`;
  const records: object[] = [];
  for (let r = 0; r < i; r++) {
    records.push({
      type: "run",
      agentId: id,
      id: `run-${r}`,
      at: hoursAgo(ageHours - r / (i + 1)),
      outcome: "succeeded",
    });
    records.push({ type: "cast", agentId: id, id: `cast-${r}`, at: hoursAgo(ageHours - r / (i + 1)), kind: "post" });
  }
  for (let k = 0; k < 3 * i; k++) {
    records.push({
      type: "interaction",
      agentId: id,
      id: `like-${k}`,
      at: hoursAgo(ageHours),
      counterpartFid: 50_000 + i * 100 + k,
      kind: "like",
    });
  }
  return records;
}

export function writeJsonLines(records: object[], name = "agents"): string {
  const file = path.join(tmpdir(), `${name}-${process.pid}-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(file, `${records.map((r) => JSON.stringify(r)).join("\n")}\n`);
  return file;
}
