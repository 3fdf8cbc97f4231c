// Trees and raw uploads for the airdrop and allowlist tests, and the chain state an upload must match.
import { encodeAbiParameters, keccak256, parseAbiParameters, parseEther, toHex, type Address, type Hex } from "viem";
import { findTokenCreated, sendDeployToken, waitForReceipt } from "@/lib/platform/chain";
import { presaleAbi, tokenAirdropAbi } from "@/dev/chain/artifacts";
import { buildStandardTree, type StandardDump } from "@/lib/domains/merkle/build";
import { defaultDeploymentConfig, type TestChain } from "@/tests/helpers/chain";
import { insertToken } from "@/tests/api/creators/fixtures";

/** A deterministic address per index, in mixed case (clients send any case). */
export function address(i: number): string {
  const hex = (BigInt(i + 1) * 0x9e3779b97f4a7c15n).toString(16).padStart(40, "0").slice(-40);
  return `0x${[...hex].map((c, k) => (k % 3 === 0 ? c.toUpperCase() : c)).join("")}`;
}

export function makeTree(count: number, amount = (i: number) => BigInt(i + 1) * 10n ** 17n) {
  const values = Array.from({ length: count }, (_, i) => [address(i), amount(i)] as const);
  return buildStandardTree(values);
}

export type Tree = { root: `0x${string}`; dump: StandardDump };

/** A deep copy of a dump to tamper with. */
export const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value));

type Handler = (request: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/**
 * POSTs raw bytes the way SDKs and scripts do: no content-type unless given (fetch with a string body
 * sends text/plain), optionally split into many small chunks.
 */
export async function postRaw(
  handler: Handler,
  path: string,
  body: string | Uint8Array,
  options: { headers?: Record<string, string>; chunk?: number; ip?: string } = {},
) {
  const bytes = typeof body === "string" ? Buffer.from(body) : body;
  const chunk = options.chunk ?? 65_536;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < bytes.length; at += chunk) controller.enqueue(bytes.subarray(at, at + chunk));
      controller.close();
    },
  });
  const request = new Request(`http://localhost:3000${path}`, {
    method: "POST",
    headers: { "x-forwarded-for": options.ip ?? "203.0.113.7", ...options.headers },
    body: stream,
    duplex: "half",
  } as RequestInit);
  const response = await handler(request, { params: Promise.resolve({}) });
  const text = await response.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: response.status, headers: response.headers, body: json, text };
}

/**
 * POSTs `head` and, once the server has handled it (it asks for the next chunk only after awaiting the last one's
 * handling, and this stream keeps nothing queued), waits for `release` before it sends `tail`.
 */
export function heldUpload(handler: Handler, path: string, head: string, tail: string, ip = "203.0.113.9") {
  let handled!: () => void;
  let release!: () => void;
  const headHandled = new Promise<void>((resolve) => (handled = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const parts = [head, tail];
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(c) {
        if (parts.length === 1) {
          handled();
          await released;
        }
        const part = parts.shift();
        if (part === undefined) c.close();
        else c.enqueue(new TextEncoder().encode(part));
      },
    },
    { highWaterMark: 0 },
  );
  const request = new Request(`http://localhost:3000${path}`, {
    method: "POST",
    body,
    duplex: "half",
    headers: { "x-forwarded-for": ip },
  } as RequestInit);
  const answer = handler(request, { params: Promise.resolve({}) });
  return { headHandled, release, answer };
}

let launches = 0;

/**
 * Launches a token on the test chain with the airdrop extension holding `root` (admin: account 2), and
 * indexes it (its tokens row): what an uploaded tree must match.
 */
export async function tokenWithAirdrop(c: TestChain, root: Hex): Promise<Address> {
  const config = defaultDeploymentConfig(c, { salt: keccak256(toHex(`airdrop-${++launches}-${Date.now()}`)) });
  config.extensionConfigs = [
    {
      extension: c.contracts.airdrop,
      msgValue: 0n,
      extensionBps: 1000,
      extensionData: encodeAbiParameters(parseAbiParameters("address, bytes32, uint256, uint256"), [
        c.accounts[2]!,
        root,
        86_400n,
        0n,
      ]),
    },
  ];
  const receipt = await waitForReceipt(c.chainId, await sendDeployToken(c.chainId, config));
  const token = findTokenCreated(receipt)[0]!.tokenAddress;
  await insertToken({ address: token, msgSender: c.deployment.deployer });
  return token;
}

/** The airdrop's admin (account 2) replaces its root on chain, as the platform's airdrop allows before claims. */
export async function updateAirdropRoot(c: TestChain, token: Address, root: Hex): Promise<void> {
  const hash = await c.wallet(2).writeContract({
    address: c.contracts.airdrop,
    abi: tokenAirdropAbi,
    functionName: "updateMerkleRoot",
    args: [token, root],
  });
  await c.publicClient.waitForTransactionReceipt({ hash });
}

/** Starts a presale on the test chain with allowlist `root` (owner: account 2); returns its id. */
export async function presaleWithAllowlist(c: TestChain, root: Hex): Promise<number> {
  const owner = c.wallet(2);
  const config = defaultDeploymentConfig(c, { salt: keccak256(toHex(`presale-${++launches}-${Date.now()}`)) });
  config.extensionConfigs = [{ extension: c.contracts.presale, msgValue: 0n, extensionBps: 1000, extensionData: "0x" }];
  const hash = await owner.writeContract({
    address: c.contracts.presale,
    abi: presaleAbi,
    functionName: "startPresale",
    args: [
      config,
      parseEther("1"),
      parseEther("10"),
      3600n,
      owner.account.address,
      86_400n,
      0n,
      c.contracts.presale, // the local presale's built-in allowlist
      encodeAbiParameters([{ type: "bytes32" }], [root]),
    ],
  });
  await c.publicClient.waitForTransactionReceipt({ hash });
  return Number(
    await c.publicClient.readContract({ address: c.contracts.presale, abi: presaleAbi, functionName: "presaleCount" }),
  );
}

/** The presale's owner (account 2) replaces its allowlist root on chain. */
export async function updateAllowlistRoot(c: TestChain, presaleId: number, root: Hex): Promise<void> {
  const hash = await c.wallet(2).writeContract({
    address: c.contracts.presale,
    abi: presaleAbi,
    functionName: "setMerkleRoot",
    args: [BigInt(presaleId), root],
  });
  await c.publicClient.waitForTransactionReceipt({ hash });
}
