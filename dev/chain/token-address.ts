// The local factory's token init code, for checking address predictions against the local chain. The
// platform's token bytecode is not known to the service, which is why simulation is the prediction it relies on.
import { encodeDeployData, keccak256, type Hex } from "viem";
import { TOKEN_SUPPLY, type TokenConfig } from "@/lib/platform/chain";
import { tokenAbi, tokenBytecode } from "./artifacts";

/**
 * Init code hash of the local factory's token (its constructor arguments are part of the init code,
 * so it depends on the config).
 */
export function localTokenInitCodeHash(token: TokenConfig): Hex {
  return keccak256(
    encodeDeployData({
      abi: tokenAbi,
      bytecode: tokenBytecode,
      args: [token.name, token.symbol, TOKEN_SUPPLY, token.tokenAdmin, token.image, token.metadata, token.context],
    }),
  );
}
