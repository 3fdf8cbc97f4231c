// GET /live: the token stream's live feed, as a client of GET /api/tokens/stream sees it.
import { Suspense } from "react";
import { LiveFeed } from "@/app/_components/live-feed";

export const metadata = { title: "Live launches" };

export default function LivePage() {
  return (
    <>
      <h1>Live launches</h1>
      <Suspense fallback={<p>Loading…</p>}>
        <LiveFeed />
      </Suspense>
    </>
  );
}
