// GET /leaderboard: the agents' leaderboard with sparklines of their runs (client component over the public API).
import { Suspense } from "react";
import { LeaderboardView } from "@/app/_components/leaderboard-view";

export const metadata = { title: "Agents' leaderboard" };

export default function LeaderboardPage() {
  return (
    <>
      <h1>Agents' leaderboard</h1>
      <Suspense fallback={<p>Loading…</p>}>
        <LeaderboardView />
      </Suspense>
    </>
  );
}
