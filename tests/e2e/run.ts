// npm run test:e2e: Debian's chromium (playwright-core, never a downloaded browser) against `next start` on a
// private seeded PGlite database: explorer, search, paging, a token page, a creator page, the API reference.
// Needs `next build` first. Screenshots go to tests/e2e/artifacts/ (gitignored).
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Page } from "playwright-core";

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

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });

async function scenario(page: Page, base: string) {
  await page.goto(`${base}/`);
  const rows = page.locator('[data-testid="results"] li');
  await rows.first().waitFor();
  assert.equal(await rows.count(), 20);
  await page.getByText("page 1").waitFor();
  await shot(page, "1-explorer");

  // Paging: the next page holds other tokens; back returns to the first.
  const firstPage = await rows.allTextContents();
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByText("page 2").waitFor();
  await page.waitForFunction((before) => document.querySelector('[data-testid="results"] li')?.textContent !== before, firstPage[0]);
  const secondPage = await rows.allTextContents();
  assert.ok(secondPage.every((t) => !firstPage.includes(t)), "page 2 repeats tokens of page 1");
  await shot(page, "2-page-2");
  await page.getByRole("button", { name: "Previous" }).click();
  await page.getByText("page 1").waitFor();

  // Search by the symbol of a listed token: the total shrinks and the token is listed.
  const target = (await (await fetch(`${base}/api/tokens?limit=1`)).json()).data[0];
  const allTotal = await page.getByTestId("total").innerText();
  const box = page.getByRole("textbox", { name: "Search" });
  await box.fill(target.symbol);
  await box.press("Enter");
  await page.waitForFunction((before) => document.querySelector('[data-testid="total"]')?.textContent !== before, allTotal);
  await page.locator('[data-testid="results"] li', { hasText: target.name }).first().waitFor();
  await shot(page, "3-search");

  // Open the token, then its creator.
  await page.locator('[data-testid="results"] li a', { hasText: target.name }).first().click();
  await page.getByTestId("token-name").waitFor();
  assert.match(await page.getByTestId("token-name").innerText(), new RegExp(target.symbol));
  await page.getByRole("heading", { name: "Market" }).waitFor();
  await shot(page, "4-token");
  await page.locator("dd a").first().click();
  await page.getByTestId("creator-name").waitFor();
  await shot(page, "5-creator");

  // The API reference, rendered by the app from its OpenAPI document.
  await page.goto(`${base}/docs`);
  await page.getByRole("heading", { name: "API reference" }).waitFor();
  assert.ok((await page.getByTestId("operation").count()) > 40);
  await page.getByText("/api/webhooks", { exact: true }).first().waitFor();
  await shot(page, "6-docs");
}

async function main() {
  mkdirSync(ARTIFACTS, { recursive: true });
  const dataDir = mkdtempSync(path.join(tmpdir(), "tls-e2e-"));
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "warn" };
  delete (env as Record<string, string | undefined>).DATABASE_URL;
  const seeded = spawnSync("npx", ["tsx", "lib/cli/seed.ts", "--tokens", String(SEED_TOKENS)], { cwd: ROOT, env, stdio: "inherit" });
  assert.equal(seeded.status, 0, "seeding failed");
  const port = await freePort();
  const server = spawn("npx", ["tsx", "lib/cli/start.ts"], { cwd: ROOT, env: { ...env, PORT: String(port) }, stdio: "inherit", detached: true });
  const stop = () => {
    try {
      process.kill(-server.pid!, "SIGTERM");
    } catch {}
  };
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      // The machine has no network: without these chromium keeps trying to reach its own services.
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ] });
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitUp(base, server);
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 }); // phone-sized
    page.setDefaultTimeout(30_000);
    await scenario(page, base).catch(async (error) => {
      await shot(page, "failure").catch(() => {});
      console.error(`failed at ${page.url()}`);
      throw error;
    });
    console.log(`e2e passed; screenshots in ${path.relative(ROOT, ARTIFACTS)}/`);
  } finally {
    await browser.close();
    stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
