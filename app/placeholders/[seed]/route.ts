// GET /placeholders/{seed}.svg?label=ABC: a generated token picture (two colours from the seed, the label's first
// letters), the demo data's img_url and the explorer's stand-in for a picture that does not load. Not an API route.
const PALETTE = ["#2f5bd3", "#0e7c66", "#b54708", "#6941c6", "#c11574", "#087443", "#175cd3", "#9e2a2b"];

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

const escapeXml = (text: string) =>
  text.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!);

export async function GET(request: Request, { params }: { params: Promise<{ seed: string }> }) {
  const seed = (await params).seed.replace(/\.svg$/, "").slice(0, 100);
  const label = escapeXml(
    [...(new URL(request.url).searchParams.get("label") ?? "")]
      .filter((c) => /[\p{L}\p{N}]/u.test(c))
      .slice(0, 2)
      .join("")
      .toUpperCase(),
  );
  const h = hash(seed);
  const [a, b] = [PALETTE[h % PALETTE.length], PALETTE[(h >>> 8) % PALETTE.length]];
  const angle = (h >>> 16) % 360;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">
<defs><linearGradient id="g" gradientTransform="rotate(${angle} .5 .5)"><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b === a ? "#1b1f24" : b}"/></linearGradient></defs>
<rect width="64" height="64" fill="url(#g)"/>
<text x="32" y="40" font-family="system-ui,sans-serif" font-size="22" font-weight="700" fill="#fff" text-anchor="middle">${label}</text>
</svg>`;
  return new Response(svg, {
    headers: {
      "content-type": "image/svg+xml; charset=utf-8",
      "cache-control": "public, max-age=86400, immutable",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
      "x-content-type-options": "nosniff",
    },
  });
}
