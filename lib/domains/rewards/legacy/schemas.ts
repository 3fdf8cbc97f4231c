// Parameters of get-claim-info and get-lp-info/{address}, as the platform's API reference lists them.
import { z } from "zod";
import { zAddress } from "@/lib/core/input";

export const claimInfoQuery = z.object({ address: zAddress.describe("the token's contract address") });
export const lpInfoParams = z.object({ address: zAddress.describe("the token's contract address (not WETH)") });
