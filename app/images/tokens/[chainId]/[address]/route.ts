// GET /images/tokens/{chainId}/{address}: the token's picture (its img_url) fetched by the service, so a viewer's
// address never reaches the host its deployer chose (lib/http/image-proxy.ts). The explorer's, not an API route.
import { tokenImageUrl } from "@/lib/domains/tokens/images";
import { proxiedImage, refusedImage } from "@/lib/http/image-proxy";

const ADDRESS = /^(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})$/;

export async function GET(_request: Request, { params }: { params: Promise<{ chainId: string; address: string }> }) {
  const { chainId, address } = await params;
  if (!/^\d{1,10}$/.test(chainId) || Number(chainId) > 2_147_483_647 || !ADDRESS.test(address)) return refusedImage();
  return proxiedImage(() => tokenImageUrl(Number(chainId), address));
}
