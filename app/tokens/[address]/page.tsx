// GET /tokens/{address}?chainId=: one token's page (client component reading the public API); chainId picks one
// when the address is deployed on several chains.
import { TokenView } from "@/app/_components/token-view";

export default async function TokenPage({
  params,
  searchParams,
}: {
  params: Promise<{ address: string }>;
  searchParams: Promise<{ chainId?: string | string[] }>;
}) {
  const chainId = (await searchParams).chainId;
  const chain = typeof chainId === "string" && /^\d{1,10}$/.test(chainId) ? Number(chainId) : undefined;
  return <TokenView address={(await params).address} chainId={chain} />;
}
