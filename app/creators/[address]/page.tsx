// GET /creators/{address}: a creator wallet's page (client component reading the public API).
import { CreatorView } from "@/app/_components/creator-view";

export default async function CreatorPage({ params }: { params: Promise<{ address: string }> }) {
  return <CreatorView address={(await params).address} />;
}
