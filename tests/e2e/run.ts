// npm run test:e2e: Debian's chromium (playwright-core, never a downloaded browser) against `next start` on a
// private seeded PGlite database: at a phone's and a desktop's width, the explorer (rows' figures, paging, search
// and header sorts in the URL, chain names, pictures), a token (presale bar, market chart, block explorer and social
// links, one-line hashes, copying), a creator (its tokens paged), the agents' leaderboard and the 404 page, each
// page checked for overflow and by axe-core; the API reference at both widths (axe, it fits, lists every operation,
// sends a request, calls no other origin). Over HTTP: share tags and cards, 404 statuses, the wrong-chain link.
// Every page: its security headers, and no Content-Security-Policy
// violation in the browser. Hostile token text (a bidi override) stays isolated, and token pictures on other hosts
// come through the service's picture proxy, never from the browser.
// Needs `next build` first. Screenshots go to tests/e2e/artifacts/ (gitignored).
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { Agent, createServer as createHttpServer, request as httpRequest } from "node:http";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { percent, price, usd } from "@/app/_components/api";
import { readCli } from "@/dev/cli/args";
import type { Chain } from "viem";
import * as knownChains from "viem/chains";
import { FRESH_MARKET, HOSTILE } from "./hostile-tokens";

readCli({
  command: "npm run test:e2e",
  description:
    "Runs `next start` (after `npm run build`) on a private seeded embedded database, checks what Next answers\n" +
    "before a handler runs, then drives Debian's chromium (CHROMIUM_PATH, default /usr/bin/chromium) through the\n" +
    "explorer, a token, a creator and the API reference. Screenshots in tests/e2e/artifacts/.",
});

const ROOT = path.resolve(import.meta.dirname, "../..");
const ARTIFACTS = path.join(ROOT, "tests/e2e/artifacts");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const SEED_TOKENS = 45; // more than two pages of 20

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

async function waitUp(base: string, server: ChildProcess) {
  for (let i = 0; i < 240; i++) {
    if (server.exitCode !== null) throw new Error(`next start exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${base}/api/health`)).status < 500) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("next start did not answer within 120 s");
}

/** A screenshot of the whole page, or of the viewport only (the reference's page is tens of thousands of pixels tall). */
const shot = (page: Page, name: string, fullPage = true) =>
  page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage });

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** The page is no wider than the window, and axe-core finds no serious or critical violation. */
async function pageChecks(page: Page, what: string) {
  const [scrollWidth, innerWidth] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    window.innerWidth,
  ]);
  assert.ok(scrollWidth <= innerWidth, `${what}: the page is ${scrollWidth} px wide in a ${innerWidth} px window`);
  // Nor does any card's content stick out of its box (a long figure on a phone).
  const overflowing = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>(".card, .figure")]
      .filter((box) => box.scrollWidth > box.clientWidth + 1)
      .map((box) => `${box.className}: ${box.textContent?.slice(0, 40)}`),
  );
  assert.deepEqual(overflowing, [], `${what}: content wider than its box`);
  // Injected by the context (watchPolicy): an inline <script> would be refused by the page's CSP.
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<any> } }).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations
      .filter((v: { impact: string }) => v.impact === "serious" || v.impact === "critical")
      .map(
        (v: { id: string; impact: string; help: string; nodes: { target: string[] }[] }) =>
          `${v.impact} ${v.id}: ${v.help} (${v.nodes
            .slice(0, 3)
            .map((n) => n.target.join(" "))
            .join("; ")})`,
      );
  });
  assert.deepEqual(violations, [], `${what}: accessibility violations (axe-core)`);
}

type Listed = {
  contract_address: string;
  name: string;
  symbol: string;
  chain_id: number;
  presale_id: number | null;
  img_url: string | null;
  msg_sender: string;
};

/**
 * Collects every Content-Security-Policy violation in the context's pages (the browser's event, and its console
 * error), and gives each page axe-core: the pages' policy refuses an inline script injected into them.
 */
async function watchPolicy(context: BrowserContext): Promise<string[]> {
  const violations: string[] = [];
  await context.exposeBinding("__reportViolation", ({ page }, text: string) => {
    violations.push(`${page.url()}: ${text}`);
  });
  await context.addInitScript(() => {
    const report = (window as unknown as { __reportViolation: (text: string) => void }).__reportViolation;
    document.addEventListener(
      "securitypolicyviolation",
      (e) => report(`${e.effectiveDirective} refused ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`),
      true,
    );
  });
  await context.addInitScript({ content: AXE_SOURCE });
  context.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy/i.test(message.text()))
      violations.push(`${message.page()?.url()}: ${message.text()}`);
  });
  return violations;
}

/** In `holder`, the symbol's badge is drawn after the name on its line: an override in the name did not reorder it. */
async function expectSymbolAfterName(holder: ReturnType<Page["locator"]>, what: string) {
  const [nameRight, nameBottom, badgeLeft, badgeTop] = await holder.evaluate((element) => {
    const badge = element.querySelector(".badge");
    if (!badge) throw new Error("no symbol badge");
    const name = document.createRange();
    name.setStart(element, 0);
    name.setEndBefore(badge);
    const n = name.getBoundingClientRect();
    const b = badge.getBoundingClientRect();
    return [n.right, n.bottom, b.left, b.top];
  });
  assert.ok(badgeTop < nameBottom, `${what}: the symbol wrapped below the name`);
  assert.ok(
    badgeLeft >= nameRight - 1,
    `${what}: the symbol (at x ${badgeLeft}) is drawn inside the name (to x ${nameRight})`,
  );
}

/** Scrolls to the page's end and back: pictures load lazily, as they come near the window. */
async function scrollThrough(page: Page) {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let y = 0; y < height; y += 600) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await page.waitForTimeout(50);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
}

/** A chain's block explorer as viem defines it (the token page's links), or null. */
function blockExplorer(chainId: number): string | null {
  const chain = (Object.values(knownChains) as Chain[]).find((c) => c?.id === chainId);
  return chain?.blockExplorers?.default.url.replace(/\/+$/, "") ?? null;
}

/**
 * Dense rows at every width: each row shows price, changes, transactions, volume, market cap and age, inside the
 * window; the newest tokens (given figures of now by hostile-tokens.ts) show those figures.
 */
async function rowFigureChecks(page: Page, width: number) {
  const first = page.locator('[data-testid="results"] li').first();
  for (const key of ["price", "h1", "h24", "txns", "volume", "mcap", "age"]) {
    const cell = first.getByTestId(`cell-${key}`).locator(".num");
    assert.ok(await cell.isVisible(), `${width} px: the ${key} figure is shown`);
    const box = await cell.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= width, `${width} px: the ${key} figure is inside the window`);
  }
  await page.waitForFunction(
    (price) => document.querySelector('[data-testid="cell-price"] .num')?.textContent === price,
    price(FRESH_MARKET.price_usd),
  );
  const overrun = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>(".rows-fig .num")]
      .filter((e) => e.scrollWidth > e.clientWidth + 1)
      .map((e) => e.textContent),
  );
  assert.deepEqual(overrun, [], `${width} px: figures wider than their column`);
  const figure = async (key: string) => first.getByTestId(`cell-${key}`).locator(".num").textContent();
  assert.equal(await figure("mcap"), usd(FRESH_MARKET.market_cap_usd));
  assert.equal(await figure("h24"), percent(FRESH_MARKET.price_change_24h));
  assert.equal(await figure("volume"), usd(FRESH_MARKET.volume_24h_usd));
  assert.equal(await figure("txns"), String(FRESH_MARKET.tx_count_24h));
  for (const age of await page.getByTestId("cell-age").locator(".num").allTextContents())
    assert.match(age, /^\d+ (s|min|h|d|mo|y)$/, "an age");
}

/**
 * The token page: links to the chain's block explorer (token, deploy transaction), the token's social links,
 * addresses and hashes on one line in monospace with copy buttons, a description that wraps at words.
 */
async function tokenPageChecks(page: Page, target: Listed) {
  const token = (
    await (
      await fetch(`${new URL(page.url()).origin}/api/tokens?q=${target.contract_address}&chainId=${target.chain_id}`)
    ).json()
  ).data[0];
  const explorer = blockExplorer(target.chain_id);
  if (explorer) {
    assert.equal(
      await page.getByTestId("token-address").getAttribute("href"),
      `${explorer}/token/${token.contract_address}`,
    );
    assert.equal(await page.getByTestId("deploy-tx").getAttribute("href"), `${explorer}/tx/${token.tx_hash}`);
  }
  const socials = (token.metadata?.socialMediaUrls ?? []).filter((s: { url?: string }) =>
    /^https?:\/\//.test(s.url ?? ""),
  );
  assert.deepEqual(
    await page.getByTestId("social-link").evaluateAll((links) => links.map((a) => a.getAttribute("href"))),
    socials.map((s: { url: string }) => s.url),
    "the token's social links",
  );
  const lines = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>(".hash")].map((e) => [e.textContent, e.getClientRects().length]),
  );
  assert.ok(lines.length >= 3, "addresses and hashes are marked");
  for (const [text, count] of lines) assert.equal(count, 1, `${text} takes ${count} lines`);
  assert.equal(
    await page.getByTestId("token-address").evaluate((e) => getComputedStyle(e).fontFamily.includes("monospace")),
    true,
  );
  await page.getByTestId("copy").first().click();
  await page.getByTestId("copy").first().filter({ hasText: "Copied" }).waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), token.contract_address);
  const description = page.getByTestId("token-description");
  if (await description.count())
    assert.notEqual(await description.evaluate((e) => getComputedStyle(e).wordBreak), "break-all");
}

/** The creator page: name (and picture), every token 20 a page, a second page of others when there are more. */
async function creatorPageChecks(page: Page, address: string) {
  const creator = await (await fetch(`${new URL(page.url()).origin}/api/creator/${address}`)).json();
  const launched: number = creator.stats.tokensLaunched;
  if (creator.user)
    assert.match((await page.getByTestId("creator-name").textContent()) ?? "", new RegExp(`@${creator.user.username}`));
  await page.waitForFunction(() => {
    const img = document.querySelector<HTMLImageElement>('[data-testid="creator-avatar"]');
    return img?.complete && img.naturalWidth > 0;
  });
  const rows = page.locator('[data-testid="results"] li');
  assert.equal(await rows.count(), Math.min(20, launched), "the first page of the creator's tokens");
  await rowFigureCells(page);
  if (launched > 20) {
    const first = await rows.allTextContents();
    await page.getByTestId("next-page").click();
    await page.waitForURL(/[?&]page=2$/);
    assert.equal(await rows.count(), Math.min(20, launched - 20));
    assert.ok(
      (await rows.allTextContents()).every((t) => !first.includes(t)),
      "page 2 repeats tokens of page 1",
    );
    await page.goBack();
  }
}

/** Every row of the page has its figure cells (values or "—"). */
async function rowFigureCells(page: Page) {
  const cells = await page.getByTestId("cell-mcap").count();
  assert.equal(cells, await page.locator('[data-testid="results"] li').count(), "every row has its figures");
}

/** A 404 page at this width: styled, checked, and its search box leads to the explorer's search. */
async function notFoundChecks(page: Page, base: string, width: number) {
  await page.goto(`${base}/tokens/0x00000000000000000000000000000000000dead1`);
  await page.getByTestId("not-found").waitFor();
  await pageChecks(page, `${width} px not found`);
  await shot(page, `${width}-7-not-found`);
  const box = page.getByRole("searchbox", { name: "Search tokens" });
  await box.fill("zz");
  await box.press("Enter");
  await page.waitForURL((url) => url.pathname === "/" && url.searchParams.get("q") === "zz");
  await page.getByTestId("total").waitFor();
}

/** The <meta> and <link> tags of a page's HTML, as name (or property, or rel) to content (or href). */
function headTags(html: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const [tag] of html.matchAll(/<(meta|link)\b[^>]*>/g)) {
    const attr = (name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
    const key = attr("property") ?? attr("name") ?? (attr("rel") ? `rel:${attr("rel")}` : undefined);
    const value = attr("content") ?? attr("href");
    if (key && value !== undefined && !tags.has(key)) tags.set(key, value.replaceAll("&amp;", "&"));
  }
  return tags;
}

/** A PNG's width and height, from its IHDR chunk. */
async function pngSize(res: Response): Promise<[number, number]> {
  assert.equal(res.status, 200, res.url);
  assert.equal(res.headers.get("content-type"), "image/png", res.url);
  const bytes = Buffer.from(await res.arrayBuffer());
  assert.equal(bytes.subarray(1, 4).toString(), "PNG", `${res.url}: not a PNG`);
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

/**
 * Sharing and errors, as a crawler sees them: each token and creator page has its own title, description and
 * share card (an image that renders offline, the hostile name too); an unknown token or creator is a 404 with the
 * styled page; a token linked with another chain's id names the chain it is on.
 */
async function sharingChecks(base: string) {
  const listed: Listed[] = (await (await fetch(`${base}/api/tokens?limit=100`)).json()).data;
  for (const token of [listed.find((t) => t.name === HOSTILE.name)!, listed.find((t) => t.presale_id !== null)!]) {
    const res = await fetch(`${base}/tokens/${token.contract_address}?chainId=${token.chain_id}`);
    assert.equal(res.status, 200);
    const html = await res.text();
    const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "";
    assert.ok(title.includes(token.symbol), `the token's title: ${title}`);
    const tags = headTags(html);
    assert.ok(tags.get("og:title")?.includes(token.symbol), "og:title");
    assert.ok(tags.get("description"), "description");
    assert.equal(tags.get("twitter:card"), "summary_large_image");
    assert.ok(tags.get("rel:icon"), "a favicon");
    const image = tags.get("og:image") ?? "";
    assert.match(image, new RegExp(`^${base}/tokens/${token.contract_address}/opengraph-image`), "og:image");
    assert.deepEqual(await pngSize(await fetch(image)), [1200, 630]);
    assert.deepEqual(await pngSize(await fetch(tags.get("twitter:image") ?? "")), [1200, 630]);
    assert.equal((await fetch(`${base}${tags.get("rel:icon")}`)).status, 200, "the favicon");

    const creator = await fetch(`${base}/creators/${token.msg_sender}`);
    const creatorTags = headTags(await creator.text());
    assert.equal(creator.status, 200);
    assert.ok(creatorTags.get("og:title"), "the creator's og:title");
    assert.deepEqual(await pngSize(await fetch(creatorTags.get("og:image") ?? "")), [1200, 630]);

    // The right address with another chain's id: a link to the chain that has it.
    const other = await fetch(`${base}/tokens/${token.contract_address}?chainId=999999`);
    const otherHtml = await other.text();
    assert.match(otherHtml, /Found on/);
    assert.ok(
      otherHtml.includes(`href="/tokens/${token.contract_address}?chainId=${token.chain_id}"`),
      "the right chain",
    );
  }
  for (const path of [
    "/tokens/0x00000000000000000000000000000000000dead1",
    "/creators/0x00000000000000000000000000000000000dead1",
    "/creators/0x1",
    "/no-such-page",
  ]) {
    const res = await fetch(`${base}${path}`);
    assert.equal(res.status, 404, path);
    // The 404 page (its search box is checked in the browser); thrown by a page, Next sends it in its flight data.
    assert.match(await res.text(), /Nothing is at this address/, `${path}: the 404 page`);
  }
}

/**
 * The explorer at one width: list (paging, chain names, pictures), search (in the URL, shared, restored by Back),
 * sort by 24 h transactions (its column shown), a token with its presale bar and market chart, its creator, and
 * the agents' leaderboard with sparklines. Each page: no horizontal overflow, no serious axe violation, a screenshot.
 */
async function scenario(page: Page, base: string, width: number) {
  const name = (n: string) => `${width}-${n}`;
  await page.goto(`${base}/`);
  const rows = page.locator('[data-testid="results"] li');
  await rows.first().waitFor();
  assert.equal(await rows.count(), 20);
  await page.getByText("page 1").waitFor();

  // Chain names, not ids: rows name their chain, and the filter offers the served chains by name.
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-testid="chain-name"]')].every(
      (e) => !/^chain \d+$/i.test(e.textContent ?? ""),
    ),
  );
  const served = (await (await fetch(`${base}/api/metadata/chains`)).json()).chains.filter((c: any) => c.served);
  const offered = await page.getByTestId("chain-filter").locator("option").allTextContents();
  assert.deepEqual(offered, ["Any", ...served.map((c: any) => c.name)], "the chain filter offers the served chains");
  assert.ok(offered.includes("Base"));
  // Every picture loads: the demo's own placeholders, and the fallback where a picture is missing or broken.
  await scrollThrough(page);
  await page.waitForFunction(() =>
    [...document.querySelectorAll<HTMLImageElement>('[data-testid="token-image"]')].every(
      (img) => img.complete && img.naturalWidth > 0,
    ),
  );
  await rowFigureChecks(page, width);
  await pageChecks(page, `${width} px explorer`);
  await shot(page, name("1-explorer"));

  // Paging: the next page holds other tokens, and is in the URL; Previous returns to the first.
  const firstPage = await rows.allTextContents();
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByText("page 2").waitFor();
  await page.waitForFunction(
    (before) => document.querySelector('[data-testid="results"] li')?.textContent !== before,
    firstPage[0],
  );
  assert.match(page.url(), /[?&]pages=/);
  const secondPage = await rows.allTextContents();
  assert.ok(
    secondPage.every((t) => !firstPage.includes(t)),
    "page 2 repeats tokens of page 1",
  );
  await page.getByRole("button", { name: "Previous" }).click();
  await page.getByText("page 1").waitFor();

  // Search for the token that has a presale: the total shrinks, the token is listed, the search is in the URL.
  const listed: Listed[] = (await (await fetch(`${base}/api/tokens?limit=100`)).json()).data;
  const target = listed.find((t) => t.presale_id !== null);
  assert.ok(target, "the seeded dataset has a token with a presale");
  const allTotal = await page.getByTestId("total").textContent();
  const box = page.getByRole("searchbox", { name: "Search" });
  await box.fill(target.symbol);
  await box.press("Enter");
  await page.waitForFunction(
    (before) => document.querySelector('[data-testid="total"]')?.textContent !== before,
    allTotal,
  );
  await page.locator('[data-testid="results"] li', { hasText: target.name }).first().waitFor();
  assert.equal(new URL(page.url()).searchParams.get("q"), target.symbol, "the search is in the URL");
  await pageChecks(page, `${width} px search`);
  await shot(page, name("2-search"));

  // A shared search URL opens the same search.
  const shared = await page.context().newPage();
  await shared.goto(page.url());
  await shared.locator('[data-testid="results"] li', { hasText: target.name }).first().waitFor();
  assert.equal(await shared.getByRole("searchbox", { name: "Search" }).inputValue(), target.symbol);
  await shared.close();

  // Sort by 24 h transactions from its column's header (no Apply button): in the URL, the column visible; a second
  // click reverses the order.
  await page.getByTestId("sort-txns").click();
  await page.waitForURL((url) => url.searchParams.get("sortBy") === "tx-h24");
  await page.getByTestId("sort-order").filter({ hasText: "Transactions 24 h, largest first" }).waitFor();
  assert.equal(await page.getByTestId("sort-txns").getAttribute("aria-pressed"), "true");
  const values = page.getByTestId("cell-txns").locator(".num");
  await values.first().waitFor();
  assert.ok(await values.first().isVisible(), "the sorted column is visible");
  for (const v of await values.allTextContents()) assert.match(v, /^(\d[\d,]*|—)$/, "a transaction count");
  await page.getByTestId("sort-txns").click();
  await page.waitForURL((url) => url.searchParams.get("sort") === "asc");
  await page.getByTestId("sort-txns").click();
  await page.waitForURL((url) => url.searchParams.get("sortBy") === "tx-h24" && !url.searchParams.has("sort"));
  await page.getByTestId("sort-order").filter({ hasText: "largest first" }).waitFor();
  await pageChecks(page, `${width} px sorted`);
  await shot(page, name("3-sorted"));
  const sortedUrl = page.url();

  // The token: its presale as a bar against its goal, its market chart drawn from stored snapshots.
  await page.locator('[data-testid="results"] li a', { hasText: target.name }).first().click();
  await page.getByTestId("token-name").waitFor();
  assert.match((await page.getByTestId("token-name").textContent()) ?? "", new RegExp(target.symbol));
  await page.getByTestId("presale").getByRole("progressbar").waitFor();
  assert.match((await page.getByTestId("presale").textContent()) ?? "", new RegExp(`#${target.presale_id}`));
  await page.getByTestId("market-chart").locator("svg path.line").waitFor();
  assert.doesNotMatch((await page.getByTestId("chain-name").textContent()) ?? "", /^chain \d+$/i);
  await tokenPageChecks(page, target);
  await pageChecks(page, `${width} px token`);
  await shot(page, name("4-token"));

  // Back restores the search and the sort, in the URL and in the form.
  await page.goBack();
  await page.getByTestId("sort-order").filter({ hasText: "Transactions 24 h" }).waitFor();
  assert.equal(page.url(), sortedUrl);
  assert.equal(await page.getByRole("searchbox", { name: "Search" }).inputValue(), target.symbol);
  assert.equal(await page.getByTestId("sort-txns").getAttribute("aria-pressed"), "true");
  await page.goForward();
  await page.getByTestId("token-name").waitFor();

  // Its creator: name and picture, launches by chain, every token (20 a page).
  await page.getByTestId("creator-link").click();
  await page.getByTestId("creator-name").waitFor();
  await page.getByTestId("launches-by-chain").getByRole("progressbar").first().waitFor();
  await creatorPageChecks(page, target.msg_sender);
  await pageChecks(page, `${width} px creator`);
  await shot(page, name("5-creator"));

  // The agents' leaderboard, each row with a sparkline of its runs.
  await page.getByRole("link", { name: "Leaderboard" }).click();
  await page.getByTestId("leaderboard").locator("tbody tr").first().waitFor();
  await page.getByTestId("leaderboard").locator("svg.spark").first().waitFor();
  await pageChecks(page, `${width} px leaderboard`);
  await shot(page, name("6-leaderboard"));

  await notFoundChecks(page, base, width);
}

/** A token picture that does not load is replaced by the generated one (every img_url refused here). */
async function brokenPictureChecks(browser: Browser, base: string) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 });
  await context.route(/\/placeholders\/(?!0x)|\/images\/tokens\//, (route) => route.fulfill({ status: 404, body: "" }));
  const page = await context.newPage();
  try {
    await page.goto(`${base}/`);
    await page.locator('[data-testid="results"] li').first().waitFor();
    await scrollThrough(page);
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLImageElement>('[data-testid="token-image"]')].every(
        (img) => img.complete && img.naturalWidth > 0 && /\/placeholders\/0x/.test(img.src),
      ),
    );
  } finally {
    await context.close();
  }
}

/** The picture host of a hostile token: another origin, which only the service may ask (requests' user agents). */
async function startPictureHost() {
  const png = Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
    "base64",
  );
  const agents: string[] = [];
  const server = createHttpServer((req, res) => {
    agents.push(req.headers["user-agent"] ?? "");
    res.writeHead(200, { "content-type": "image/png" }).end(png);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, agents, close: () => server.close() };
}

/**
 * Hostile token text and pictures (tests/e2e/hostile-tokens.ts): a name holding U+202E leaves the symbol after it
 * in place (list, token page, creator page) and is shown as stored; the picture on another host reaches the page
 * through /images/ (only the service asks that host); a javascript: picture is never put in the page.
 */
async function hostileChecks(browser: Browser, base: string, pictureHost: { origin: string; agents: string[] }) {
  const listed: Listed[] = (await (await fetch(`${base}/api/tokens?limit=100`)).json()).data;
  const mirrored = listed.find((t) => t.name === HOSTILE.name);
  const scripted = listed.find((t) => t.img_url === HOSTILE.scriptPicture);
  assert.ok(mirrored && scripted, "the hostile tokens are listed");
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, deviceScaleFactor: 1 });
  context.setDefaultTimeout(30_000);
  const violations = await watchPolicy(context);
  const askedDirectly: string[] = [];
  context.on("request", (r) => r.url().startsWith(pictureHost.origin) && askedDirectly.push(r.url()));
  const page = await context.newPage();
  try {
    await page.goto(`${base}/`);
    const row = page.locator('[data-testid="results"] li', { hasText: "Mirror" }).first();
    await row.waitFor();
    await expectSymbolAfterName(row.locator("a").first(), "explorer row");
    assert.equal(await row.locator("a bdi").first().textContent(), HOSTILE.name, "the name is shown as stored");
    await scrollThrough(page);
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLImageElement>('[data-testid="token-image"]')].every(
        (img) => img.complete && img.naturalWidth > 0,
      ),
    );
    const proxied = `/images/tokens/${mirrored.chain_id}/${mirrored.contract_address}`;
    assert.equal(await row.getByTestId("token-image").getAttribute("src"), proxied);
    const scriptedRow = page.locator('[data-testid="results"] li', {
      has: page.locator(`a[href^="/tokens/${scripted.contract_address}"]`),
    });
    assert.match((await scriptedRow.getByTestId("token-image").getAttribute("src")) ?? "", /^\/placeholders\/0x/);
    const scriptUrls = await page.evaluate(() =>
      [...document.querySelectorAll("*")].flatMap((e) =>
        [...e.attributes].filter((a) => /javascript:/i.test(a.value)).map((a) => `${e.tagName} ${a.name}`),
      ),
    );
    assert.deepEqual(scriptUrls, [], "a javascript: URL in the page");

    await page.goto(`${base}/tokens/${mirrored.contract_address}?chainId=${mirrored.chain_id}`);
    await page.getByTestId("token-name").waitFor();
    await expectSymbolAfterName(page.getByTestId("token-name"), "token page");
    assert.equal(await page.getByTestId("token-description").textContent(), HOSTILE.description);
    await pageChecks(page, "hostile token");

    await page.goto(`${base}/creators/${mirrored.msg_sender}`);
    const recent = page.locator("ul.list li", { hasText: "Mirror" }).first();
    await recent.waitFor();
    await expectSymbolAfterName(recent.locator("a").first(), "creator page");

    assert.deepEqual(askedDirectly, [], "the browser asked the picture's host itself");
    assert.ok(pictureHost.agents.length > 0, "the service fetched the picture");
    assert.deepEqual([...new Set(pictureHost.agents)], ["token-launch-images/1"], "only the service asks the host");
    assert.deepEqual(violations, [], "Content-Security-Policy violations");
  } catch (error) {
    await shot(page, "failure-hostile").catch(() => {});
    console.error(`failed at ${page.url()} (hostile tokens)`);
    throw error;
  } finally {
    await context.close();
  }
}

/**
 * The security headers: every page's Content-Security-Policy (a nonce of its own on every script, frame-ancestors
 * 'none', pictures from this origin only), nosniff and the referrer policy on every answer, the API's and the
 * picture proxy's own policy.
 */
async function headerChecks(base: string) {
  const listed: Listed[] = (await (await fetch(`${base}/api/tokens?limit=100`)).json()).data;
  const token = listed[0];
  const pages = [
    "/",
    "/docs",
    "/leaderboard?interval=24h",
    `/tokens/${token.contract_address}?chainId=${token.chain_id}`,
    `/creators/${token.msg_sender}`,
    "/no-such-page",
    "/tokens/%ZZ",
  ];
  const nonces = new Set<string>();
  for (const path of pages) {
    const res = await fetch(`${base}${path}`);
    const policy = res.headers.get("content-security-policy") ?? "";
    const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(policy)?.[1];
    assert.ok(nonce, `${path}: no nonce in "${policy}"`);
    nonces.add(nonce);
    assert.match(policy, /(^|; )script-src 'nonce-[^']+' 'strict-dynamic'(;|$)/, path);
    assert.match(policy, /(^|; )img-src 'self' data:(;|$)/, path);
    assert.match(policy, /(^|; )frame-ancestors 'none'(;|$)/, path);
    assert.match(policy, /(^|; )object-src 'none'(;|$)/, path);
    assert.equal(res.headers.get("x-content-type-options"), "nosniff", path);
    assert.equal(res.headers.get("referrer-policy"), "strict-origin-when-cross-origin", path);
    const scripts = [...(await res.text()).matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    assert.ok(scripts.length > 0, `${path}: no script`);
    for (const tag of scripts)
      assert.ok(tag.includes(` nonce="${nonce}"`), `${path}: a script without the nonce: ${tag}`);
  }
  assert.equal(nonces.size, pages.length, "every answer has a nonce of its own");
  for (const path of ["/api/tokens?limit=1", "/api/openapi.json", "/api/creator/0x1"]) {
    const res = await fetch(`${base}${path}`);
    await res.arrayBuffer();
    assert.equal(res.headers.get("x-content-type-options"), "nosniff", path);
    assert.equal(res.headers.get("content-security-policy"), "default-src 'none'; frame-ancestors 'none'", path);
  }
  const mirrored = listed.find((t) => t.name === HOSTILE.name);
  const scripted = listed.find((t) => t.img_url === HOSTILE.scriptPicture);
  assert.ok(mirrored && scripted, "the hostile tokens are listed");
  const picture = await fetch(`${base}/images/tokens/${mirrored.chain_id}/${mirrored.contract_address}`);
  assert.equal(picture.status, 200, "the proxied picture");
  assert.equal(picture.headers.get("content-type"), "image/png");
  assert.equal(picture.headers.get("content-security-policy"), "default-src 'none'; sandbox");
  assert.equal(picture.headers.get("x-content-type-options"), "nosniff");
  await picture.arrayBuffer();
  const refused = await fetch(`${base}/images/tokens/${scripted.chain_id}/${scripted.contract_address}`);
  assert.equal(refused.status, 404, "a javascript: picture");
}

/** The operations of an OpenAPI document, as `METHOD /path`. */
const operationsOf = (doc: { paths: Record<string, Record<string, unknown>> }) =>
  Object.entries(doc.paths).flatMap(([p, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${p}`));

/**
 * The API reference (/docs: Scalar over /api/openapi.json) at one viewport width: it fits the width, its sidebar
 * lists every operation of the document, a request sent from the try-it panel shows the service's 200 answer, and
 * no request of the page (fonts, scripts, telemetry, the try-it call) goes to another origin.
 */
async function referenceChecks(browser: Browser, base: string, width: number) {
  const doc = await (await fetch(`${base}/api/openapi.json`)).json();
  const context = await browser.newContext({ viewport: { width, height: 900 }, deviceScaleFactor: 1 });
  context.setDefaultTimeout(60_000); // Scalar renders a 50-operation document on a loaded 2-core machine
  const violations = await watchPolicy(context);
  const foreign: string[] = [];
  const note = (url: string, what: string) => {
    const { protocol, origin } = new URL(url);
    if (protocol !== "data:" && protocol !== "blob:" && origin !== base) foreign.push(`${what} ${url}`);
  };
  context.on("request", (r) => note(r.url(), r.method()));
  context.on("page", (p) => p.on("websocket", (ws) => note(ws.url().replace(/^ws/, "http"), "WebSocket")));
  let page = await context.newPage();
  const name = `reference-${width}`;
  try {
    await page.goto(`${base}/docs`);
    await page.getByRole("heading", { name: doc.info.title, level: 1 }).waitFor();
    await pageChecks(page, `${width} px reference`);
    const fits = () => page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    let [scrollWidth, innerWidth] = await fits();
    assert.ok(scrollWidth <= innerWidth, `${width} px: the reference is ${scrollWidth} px wide`);
    await shot(page, `6-${name}`, false);

    // Every operation in the sidebar (a drawer below Scalar's breakpoint), once each tag's group is open.
    if (await page.getByRole("button", { name: "Open Menu" }).isVisible()) {
      await page.getByRole("button", { name: "Open Menu" }).click();
    }
    const sidebar = page.locator('aside[aria-label^="Sidebar for"]:visible');
    const closedGroup = sidebar.getByRole("button", { name: /^Open Group - (?!Models$)/ });
    while ((await closedGroup.count()) > 0) await closedGroup.first().click();
    const listed = new Set(
      (await sidebar.locator("[data-sidebar-id]").evaluateAll((items) => items.map((i) => i.dataset.sidebarId ?? "")))
        .map((id) => /\/(GET|POST|PUT|PATCH|DELETE)(\/.*)$/.exec(id))
        .filter((m) => m !== null)
        .map((m) => `${m[1]} ${m[2]}`),
    );
    const expected = operationsOf(doc);
    assert.ok(expected.length > 40, `the document has ${expected.length} operations`);
    assert.deepEqual(
      expected.filter((op) => !listed.has(op)),
      [],
      `${width} px: operations missing from the sidebar`,
    );
    await shot(page, `7-${name}-operations`, false);

    // Try it: GET /api/tokens from its operation's "Test Request" (opened by its link), sent to this origin, the 200
    // shown.
    await page.close();
    page = await context.newPage();
    await page.goto(`${base}/docs#tag/tokens/GET/api/tokens`);
    const operation = page.locator('[id$="/tag/tokens/GET/api/tokens"]').first();
    await operation.getByRole("button", { name: /Test Request/ }).click();
    const send = page.getByRole("button", { name: `Send get request to ${base}/api/tokens` });
    const answered = page.waitForResponse(
      (r) => r.url().startsWith(`${base}/api/tokens`) && r.request().method() === "GET",
    );
    await send.click();
    assert.equal((await answered).status(), 200, "the try-it request");
    await page.getByText("200 OK", { exact: true }).waitFor();
    [scrollWidth, innerWidth] = await fits();
    assert.ok(scrollWidth <= innerWidth, `${width} px: with the try-it panel open, ${scrollWidth} px wide`);
    await shot(page, `8-${name}-try-it`, false);

    assert.deepEqual(foreign, [], `${width} px: requests to other origins than ${base}`);
    assert.deepEqual(violations, [], `${width} px: Content-Security-Policy violations`);
  } catch (error) {
    await shot(page, `failure-${name}`, false).catch(() => {});
    console.error(`failed at ${page.url()} (${width} px)`);
    throw error;
  } finally {
    await context.close();
  }
}

/** Asserts the error envelope (no-store, the body's request id in x-request-id) and returns the answer. */
async function expectEnvelope(res: Response, status: number, code: string, what: string) {
  const text = await res.text();
  assert.equal(res.status, status, `${what}: ${res.status} ${text.slice(0, 200)}`);
  const body = JSON.parse(text);
  assert.equal(typeof body.error, "string", `${what}: error must be the message string`);
  assert.equal(body.code, code, what);
  assert.equal(res.headers.get("cache-control"), "no-store", what);
  assert.equal(res.headers.get("x-request-id"), body.requestId, what);
  return res;
}

/** node:http, for the methods fetch refuses to send. */
const rawRequest = (url: string, method: string) =>
  new Promise<{ status: number; allow?: string; body: string }>((resolve, reject) => {
    httpRequest(url, { method }, (res) => {
      let body = "";
      res
        .setEncoding("utf8")
        .on("data", (c) => (body += c))
        .on("end", () => resolve({ status: res.statusCode!, allow: res.headers.allow, body }));
    })
      .on("error", reject)
      .end();
  });

/** node:http over one keep-alive socket at most, as pooling clients send: status, headers and body of each answer. */
function pooledRequest(agent: Agent, url: string, method: string, body?: Buffer) {
  return new Promise<{ status: number; connection?: string; body: string }>((resolve, reject) => {
    const req = httpRequest(
      url,
      { method, agent, headers: body ? { "content-length": String(body.length) } : {} },
      (res) => {
        let text = "";
        res
          .setEncoding("utf8")
          .on("data", (c) => (text += c))
          .on("end", () => resolve({ status: res.statusCode!, connection: res.headers.connection, body: text }));
      },
    );
    req.on("error", reject);
    // A server that answers early may stop reading: the rest of the body then has nowhere to go.
    req.on("socket", (socket) => socket.on("error", () => {}));
    req.end(body);
  });
}

/** A tree upload refused part-way (an unknown token: 404 after the members, 2 MB left unread) leaves the client's pool usable. */
async function rejectedBodyChecks(base: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const head = `{"tokenAddress":"0x${"00".repeat(19)}aa","merkleRoot":"0x${"ab".repeat(32)}","tree":{"format":"standard-v1","values":[`;
  const body = Buffer.from(`${head}${" ".repeat(2 * 1024 * 1024)}]}}`);
  for (let round = 0; round < 3; round++) {
    const refused = await pooledRequest(agent, `${base}/api/airdrops`, "POST", body);
    assert.equal(refused.status, 404, refused.body.slice(0, 200));
    assert.equal(refused.connection, "close", "an answer before the body's end closes the connection");
    const next = await pooledRequest(agent, `${base}/api/ping`, "GET");
    assert.equal(next.status, 200, "the next request on the pool");
  }
  agent.destroy();
}

/** What Next answers before any handler runs (proxy.ts, lib/http/refusals.ts), and the client address of per-IP limits. */
async function requestChecks(base: string) {
  // A malformed escape in a dynamic segment: Next's own answer was a bare 500.
  for (const [method, path] of [
    ["GET", "/api/creator/%ZZ"],
    ["GET", "/api/tokens/deploy/%ZZ"],
    ["DELETE", "/api/pretoken/%ZZ"],
    ["GET", "/api/creator/%C3%28"],
    ["GET", "/api/no-such/%ZZ"],
  ]) {
    await expectEnvelope(await fetch(`${base}${path}`, { method }), 400, "invalid_request", `${method} ${path}`);
  }
  const normal404 = await fetch(`${base}/no-such-page`);
  for (const path of ["/tokens/%ZZ", "/creators/%C3%28"]) {
    const res = await fetch(`${base}${path}`);
    assert.equal(res.status, 404, path);
    assert.match(res.headers.get("content-type") ?? "", /^text\/html/, path);
    assert.equal(res.headers.get("cache-control"), normal404.headers.get("cache-control"), path);
    // The page as drawn (its nonces, and the data after it that names the path asked for, differ per answer).
    const drawn = (html: string) => html.slice(0, html.indexOf("</main>")).replace(/ nonce="[^"]*"/g, "");
    assert.equal(drawn(await res.text()), drawn(await normal404.clone().text()), path);
  }

  const propfind = await expectEnvelope(
    await fetch(`${base}/api/ping`, { method: "PROPFIND" }),
    405,
    "method_not_allowed",
    "PROPFIND",
  );
  assert.equal(propfind.headers.get("allow"), "GET, HEAD, POST, DELETE, OPTIONS");
  const trace = await rawRequest(`${base}/api/creator/0x1`, "TRACE");
  assert.equal(trace.status, 405, `TRACE: ${trace.body.slice(0, 200)}`);
  assert.equal(JSON.parse(trace.body).code, "method_not_allowed");
  assert.equal(trace.allow, "GET, HEAD, POST, DELETE, OPTIONS");

  // Every request comes from this socket: a client-chosen X-Forwarded-For must not buy a fresh bucket.
  const verify = (n: number) =>
    fetch(`${base}/api/admin/verify`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": `198.51.100.${n}` },
      body: JSON.stringify({ secret: "not-the-admin-secret" }),
    });
  let first = await verify(0);
  const reset = Number(first.headers.get("x-ratelimit-reset"));
  if (reset < 5) {
    // Fixed windows: start in a fresh one rather than straddle two.
    await new Promise((r) => setTimeout(r, (reset + 1) * 1000));
    first = await verify(0);
  }
  const limit = Number(first.headers.get("x-ratelimit-limit"));
  assert.ok(limit > 0 && limit < 100, "admin verify is rate limited");
  const statuses = [first.status];
  for (let n = 1; n <= limit; n++) statuses.push((await verify(n)).status);
  assert.ok(
    statuses.slice(0, limit).every((s) => s !== 429),
    `statuses: ${statuses}`,
  );
  const refused = await expectEnvelope(await verify(limit + 1), 429, "rate_limited", "per-IP limit");
  assert.ok(Number(refused.headers.get("retry-after")) > 0);
}

async function main() {
  rmSync(ARTIFACTS, { recursive: true, force: true }); // no screenshot of an earlier run, a failure's above all
  mkdirSync(ARTIFACTS, { recursive: true });
  const dataDir = mkdtempSync(path.join(tmpdir(), "tls-e2e-"));
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "warn" };
  delete (env as Record<string, string | undefined>).DATABASE_URL;
  const seeded = spawnSync("npx", ["tsx", "dev/cli/seed.ts", "--tokens", String(SEED_TOKENS)], {
    cwd: ROOT,
    env,
    stdio: "inherit",
  });
  assert.equal(seeded.status, 0, "seeding failed");
  const pictureHost = await startPictureHost();
  const hostile = spawnSync("npx", ["tsx", "tests/e2e/hostile-tokens.ts", `${pictureHost.origin}/pic.png`], {
    cwd: ROOT,
    env,
    stdio: "inherit",
  });
  assert.equal(hostile.status, 0, "the hostile tokens");
  const port = await freePort();
  const server = spawn("npx", ["tsx", "dev/cli/start.ts"], {
    cwd: ROOT,
    // The picture host is on this machine: the proxy may fetch from it (the embedded default says so too).
    env: { ...env, PORT: String(port), IMAGE_PROXY_ALLOW_PRIVATE: "true" },
    stdio: "inherit",
    detached: true,
  });
  const stop = () => {
    try {
      process.kill(-server.pid!, "SIGTERM");
    } catch {}
  };
  let browser: Browser | undefined;
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitUp(base, server);
    await requestChecks(base);
    await rejectedBodyChecks(base);
    await headerChecks(base);
    await sharingChecks(base);
    console.log("request checks passed");
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        // The machine has no network: without these chromium keeps trying to reach its own services.
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    for (const width of [390, 1400]) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, deviceScaleFactor: 1 });
      context.setDefaultTimeout(30_000);
      await context.grantPermissions(["clipboard-read", "clipboard-write"]);
      const violations = await watchPolicy(context);
      const page = await context.newPage();
      await scenario(page, base, width).catch(async (error) => {
        await shot(page, `failure-${width}`).catch(() => {});
        console.error(`failed at ${page.url()} (${width} px)`);
        throw error;
      });
      assert.deepEqual(violations, [], `${width} px: Content-Security-Policy violations`);
      await context.close();
    }
    await brokenPictureChecks(browser, base);
    await hostileChecks(browser, base, pictureHost);
    console.log("explorer checks passed");
    for (const width of [390, 1400]) await referenceChecks(browser, base, width);
    console.log(`e2e passed; screenshots in ${path.relative(ROOT, ARTIFACTS)}/`);
  } finally {
    await browser?.close();
    stop();
    pictureHost.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
