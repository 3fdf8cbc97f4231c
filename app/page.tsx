// GET /: the token explorer (client component over the public API).
import { Explorer } from "./_components/explorer";

export default function Home() {
  return (
    <>
      <h1>Launched tokens</h1>
      <Explorer />
    </>
  );
}
