// The pages' Content-Security-Policy (explorer, token, creator and leaderboard pages, the API reference at /docs).
// proxy.ts sets it with a fresh nonce on each page request; Next puts that nonce on its own scripts, and
// 'strict-dynamic' lets them load the app's chunks. The headers every answer carries are in next.config.mjs.

/** Paths that are not pages: the API, Next's files, and the pictures the app serves (each with a CSP of its own). */
const NOT_PAGES = /^\/(?:api(?:\/|$)|_next\/|placeholders\/|images\/|favicon\.ico$)/;

export const isPagePath = (pathname: string): boolean => !NOT_PAGES.test(pathname);

/** 128 random bits, base64: a nonce no page can guess. */
export const newNonce = (): string => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");

/**
 * Scripts: only those carrying the nonce, and what they load. Styles: inline allowed, as React's style
 * attributes and Scalar's injected styles need. Pictures: this origin (the picture proxy) and data: URLs.
 * `next dev` also needs eval (React's debugging information).
 */
export function pageContentSecurityPolicy(nonce: string, dev = process.env.NODE_ENV === "development"): string {
  return [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
