// Hostile events on the local chain, planted as anyone could: tokens deployed straight at the factory with hostile
// text, and TokenCreated logs from a contract that emits whatever it is called with (indexed when it is named in
// TOKEN_INDEX_EXTRA_FACTORIES). Used by tests/api/deploy/hostile-chain.test.ts and `npm run reliability -- --hostile`.
import {
  encodeAbiParameters,
  encodeEventTopics,
  getAbiItem,
  getAddress,
  keccak256,
  padHex,
  toHex,
  type AbiParameter,
  type Address,
  type Hex,
} from "viem";
import { tokenFactoryAbi, type DeploymentConfig } from "@/lib/platform/chain";
import { defaultDeploymentConfig, type TestChain } from "./chain";

/** A deployment straight at the factory from a user's wallet, with `over` in its token configuration. */
export async function deployDirect(c: TestChain, label: string, over: Partial<DeploymentConfig["tokenConfig"]> = {}) {
  const config = defaultDeploymentConfig(c, { salt: keccak256(toHex(label)), name: label });
  config.tokenConfig = { ...config.tokenConfig, ...over };
  const wallet = c.wallet(4);
  const request = { address: c.contracts.factory, abi: tokenFactoryAbi, functionName: "deployToken", args: [config] };
  const { result: token } = await c.publicClient.simulateContract({ account: wallet.account, ...request } as never);
  const hash = await wallet.writeContract(request as never);
  await c.publicClient.waitForTransactionReceipt({ hash });
  return token as Address;
}

/** The poison token's text (plain ASCII on chain): escapes of lone surrogates, controls, bidi and zero-width, javascript:. */
export const POISON = {
  name: "Poison\u0000\u0007\u202eevil\u200d",
  symbol: "P\u0000\u001bOIS",
  image: "javascript:alert(1)",
  metadata:
    '{"description":"Fr\\ud800og\\u0000","socialMediaUrls":[{"platform":"x\\udc00","url":"https://x.com/p"},' +
    '{"platform":"web","url":"javascript:alert(1)"}],"auditUrls":["https://audit.example/\\udbff"]}',
  context: '{"interface":"bot\\ud800","platform":"farcaster","messageId":"0x\\udc00","id":"12"}',
};

// A contract that emits whatever it is called with: calldata = topic0, topic1, topic2, then the log's data (LOG3).
const LOGGER_RUNTIME = "366000600037604051602051600051606036036060a300";
const LOGGER_INIT = `0x6017600c60003960176000f3${LOGGER_RUNTIME}` as Hex;

export async function deployLogger(c: TestChain): Promise<Address> {
  const hash = await c.wallet(5).sendTransaction({ data: LOGGER_INIT, to: null } as never);
  const receipt = await c.publicClient.waitForTransactionReceipt({ hash });
  return getAddress(receipt.contractAddress!);
}

const tokenCreated = getAbiItem({ abi: tokenFactoryAbi, name: "TokenCreated" });
/** TokenCreated's data members, with `bytes` where the event has `string` (the same encoding, any bytes allowed). */
const dataParams = tokenCreated.inputs
  .filter((p) => !p.indexed)
  .map((p) => ({ ...p, type: p.type === "string" ? "bytes" : p.type })) as AbiParameter[];

export type Planted = { token: Address; name?: Hex; symbol?: Hex; metadata?: Hex; context?: Hex; tick?: number };

/** TokenCreated's data for a planted token (its text given as raw bytes). */
export function plantedData(c: TestChain, p: Planted): Hex {
  return encodeAbiParameters(dataParams, [
    c.accounts[5],
    toHex("https://example.com/p.png"),
    p.name ?? toHex("Planted"),
    p.symbol ?? toHex("PLNT"),
    p.metadata ?? toHex("{}"),
    p.context ?? toHex("{}"),
    p.tick ?? -230_400,
    c.contracts.staticFeeHook,
    keccak256(p.token),
    c.contracts.weth,
    c.contracts.locker,
    c.contracts.mevModule,
    0n,
    [],
  ]);
}

/** Has `logger` emit one log with TokenCreated's topics (token and admin) and `data`. */
export async function emit(c: TestChain, logger: Address, token: Address, data: Hex): Promise<void> {
  const [topic0] = encodeEventTopics({ abi: tokenFactoryAbi, eventName: "TokenCreated" });
  const calldata = `0x${[topic0, padHex(token), padHex(c.accounts[5]!), data].map((h) => h!.slice(2)).join("")}` as Hex;
  const hash = await c.wallet(5).sendTransaction({ to: logger, data: calldata, gas: 59_000_000n });
  const receipt = await c.publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error(`the planted log for ${token} reverted`);
}

export const plantedAddress = (n: number) => padHex(toHex(0xdead0000 + n), { size: 20 }) as Address;

/** Bytes that are not UTF-8: each of the last seven decodes as U+FFFD. */
export const INVALID_UTF8: Hex = "0x4142ff80c0afeda080";

/**
 * Plants, through `logger`: a log that does not decode, invalid UTF-8, a megabyte name and a megabyte metadata, JSON
 * 10,000 levels deep (then the same token again with 5,000 links), 100,000 links, the int24 ticks at both ends, and
 * the same TokenCreated twice. Returns each planted token's address by what it carries.
 */
export async function plantHostileLogs(c: TestChain, logger: Address) {
  const planted = {
    undecodable: plantedAddress(1),
    utf8: plantedAddress(2),
    bigName: plantedAddress(3),
    bigMetadata: plantedAddress(4),
    deep: plantedAddress(5),
    manyLinks: plantedAddress(6),
    maxTick: plantedAddress(7),
    minTick: plantedAddress(8),
    replay: plantedAddress(9),
  };
  const plant = (token: Address, p: Omit<Planted, "token"> = {}) =>
    emit(c, logger, token, plantedData(c, { token, ...p }));
  const links = (n: number) => toHex(JSON.stringify({ socialMediaUrls: Array.from({ length: n }, () => "a") }));
  const deep = toHex(`${"[".repeat(10_000)}${"]".repeat(10_000)}`);
  await emit(c, logger, planted.undecodable, "0x1234");
  await plant(planted.utf8, { name: INVALID_UTF8, symbol: INVALID_UTF8 });
  await plant(planted.bigName, { name: toHex("N".repeat(1 << 20)) });
  await plant(planted.bigMetadata, { metadata: toHex(JSON.stringify({ description: "d".repeat(1 << 20) })) });
  await plant(planted.deep, { metadata: deep, context: deep });
  await plant(planted.manyLinks, { metadata: links(100_000) });
  await plant(planted.deep, { metadata: links(5_000) });
  await plant(planted.maxTick, { tick: 8_388_607 });
  await plant(planted.minTick, { tick: -8_388_608 });
  await plant(planted.replay, { name: toHex("Replayed") });
  await plant(planted.replay, { name: toHex("Replayed") });
  return planted;
}
