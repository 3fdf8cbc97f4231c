// GET /images/users/{fid}: a creator's profile picture (its stored pfp_url) fetched by the service, as token pictures
// are (lib/http/image-proxy.ts): a viewer's address never reaches the picture's host. The explorer's, not an API route.
import { storedUserObjects } from "@/lib/domains/users/service";
import { proxiedImage, refusedImage } from "@/lib/http/image-proxy";

export async function GET(_request: Request, { params }: { params: Promise<{ fid: string }> }) {
  const { fid } = await params;
  if (!/^\d{1,10}$/.test(fid) || Number(fid) > 2_147_483_647) return refusedImage();
  return proxiedImage(async () => {
    const url = (await storedUserObjects([Number(fid)])).get(Number(fid))?.pfp_url;
    return typeof url === "string" && url ? url : null;
  });
}
