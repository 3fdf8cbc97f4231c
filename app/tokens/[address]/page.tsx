// GET /tokens/{address}: one token's page (client component reading the public API).
import { TokenView } from "@/app/_components/token-view";

export default async function TokenPage({ params }: { params: Promise<{ address: string }> }) {
  return <TokenView address={(await params).address} />;
}
