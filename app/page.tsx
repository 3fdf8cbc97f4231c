// GET /: the token explorer (client component over the public API; its filters are the URL's query).
import { Suspense } from "react";
import { Explorer } from "./_components/explorer";

export default function Home() {
  return (
    <>
      <h1>Launched tokens</h1>
      <Suspense fallback={<p>Loading…</p>}>
        <Explorer />
      </Suspense>
    </>
  );
}
