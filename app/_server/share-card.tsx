// The share cards of the token and creator pages (their opengraph-image routes): drawn with next/og's
// ImageResponse in its bundled font. Text is kept to what that font draws: a glyph it lacks would make it fetch
// a font from Google, and the service runs offline.
import { ImageResponse } from "next/og";

export const CARD_SIZE = { width: 1200, height: 630 };

const PALETTE = ["#2f5bd3", "#0e7c66", "#b54708", "#6941c6", "#c11574", "#087443", "#175cd3", "#9e2a2b"];

/** Latin letters, digits and punctuation only (no controls, bidi overrides, emoji or other scripts), clipped. */
export function drawable(text: string, max: number): string {
  const kept = text
    .normalize("NFKC")
    .replace(/[^\x20-\x7E\u00A0-\u017F\u2013\u2014\u2026\u00B7]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return kept.length > max ? `${kept.slice(0, max - 1)}…` : kept;
}

function colourOf(seed: string): string {
  let h = 2166136261;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 16777619);
  return PALETTE[(h >>> 0) % PALETTE.length];
}

export type Card = {
  seed: string;
  badge: string;
  title: string;
  subtitle: string;
  figures: { label: string; value: string }[];
};

export function shareCard(card: Card): ImageResponse {
  const colour = colourOf(card.seed);
  return new ImageResponse(
    <div
      style={{
        width: "100%",
        height: "100%",
        display: "flex",
        flexDirection: "column",
        justifyContent: "space-between",
        padding: 64,
        background: "#f7f8fa",
        color: "#1b1f24",
        borderTop: `16px solid ${colour}`,
      }}
    >
      <div style={{ display: "flex", alignItems: "center", gap: 32 }}>
        <div
          style={{
            width: 140,
            height: 140,
            borderRadius: 70,
            background: colour,
            color: "#fff",
            display: "flex",
            alignItems: "center",
            justifyContent: "center",
            fontSize: 56,
          }}
        >
          {drawable(card.badge, 40)
            .replace(/[^\p{L}\p{N}]/gu, "")
            .slice(0, 2)
            .toUpperCase() || "?"}
        </div>
        <div style={{ display: "flex", flexDirection: "column", maxWidth: 880 }}>
          <div style={{ fontSize: 68, lineHeight: 1.1 }}>{drawable(card.title, 40) || "Untitled"}</div>
          <div style={{ fontSize: 34, color: "#5b6470", marginTop: 8 }}>{drawable(card.subtitle, 60)}</div>
        </div>
      </div>
      <div style={{ display: "flex", gap: 24 }}>
        {card.figures.map((f) => (
          <div
            key={f.label}
            style={{
              display: "flex",
              flexDirection: "column",
              flex: 1,
              background: "#fff",
              border: "2px solid #d8dde3",
              borderRadius: 16,
              padding: "20px 28px",
            }}
          >
            <div style={{ fontSize: 26, color: "#5b6470" }}>{f.label}</div>
            <div style={{ fontSize: 48 }}>{drawable(f.value, 14)}</div>
          </div>
        ))}
      </div>
      <div style={{ fontSize: 26, color: "#5b6470" }}>Launch explorer</div>
    </div>,
    CARD_SIZE,
  );
}
