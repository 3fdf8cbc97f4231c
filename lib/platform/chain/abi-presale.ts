// The platform presale extension (ClankerPresaleEthToCreator v4.1, Base 0xeeBbC567C3D612f50a67820f39CDD30dcCF7E6b8)
// as the service reads it: the presale events the refresh decodes and getPresale, the presale's record; the
// platform allowlist (ClankerPresaleAllowlist v4.1) holds allowlist roots (`allowlists`). These are the
// platform SDK's ABI (clanker-sdk, src/abi/v4.1) with internalType naming the local contract's types:
// tests/unit/chain/presale-abi.test.ts compares them with the SDK's (names, types, indexed flags, order),
// tests/dev/artifacts.test.ts with the local Presale contract (exactly).
import { deploymentConfigComponents } from "./abis";

export const presaleEventsAbi = [
  {
    type: "event",
    name: "PresaleStarted",
    inputs: [
      {
        type: "uint256",
        name: "presaleId",
        indexed: false,
        internalType: "uint256",
      },
      {
        type: "address",
        name: "allowlist",
        indexed: false,
        internalType: "address",
      },
      {
        type: "tuple",
        name: "deploymentConfig",
        indexed: false,
        internalType: "struct DeploymentConfig",
        components: deploymentConfigComponents,
      },
      {
        type: "uint256",
        name: "minEthGoal",
        indexed: false,
        internalType: "uint256",
      },
      {
        type: "uint256",
        name: "maxEthGoal",
        indexed: false,
        internalType: "uint256",
      },
      {
        type: "uint256",
        name: "presaleDuration",
        indexed: false,
        internalType: "uint256",
      },
      {
        type: "address",
        name: "presaleOwner",
        indexed: false,
        internalType: "address",
      },
      {
        type: "uint256",
        name: "lockupDuration",
        indexed: false,
        internalType: "uint256",
      },
      {
        type: "uint256",
        name: "vestingDuration",
        indexed: false,
        internalType: "uint256",
      },
      {
        type: "uint256",
        name: "clankerFeeBps",
        indexed: false,
        internalType: "uint256",
      },
    ],
    anonymous: false,
  },
  {
    type: "event",
    name: "PresaleBuy",
    inputs: [
      {
        type: "uint256",
        name: "presaleId",
        indexed: true,
        internalType: "uint256",
      },
      {
        type: "address",
        name: "buyer",
        indexed: false,
        internalType: "address",
      },
      {
        type: "uint256",
        name: "ethToUse",
        indexed: false,
        internalType: "uint256",
      },
      {
        type: "uint256",
        name: "ethRaised",
        indexed: false,
        internalType: "uint256",
      },
    ],
    anonymous: false,
  },
  {
    type: "event",
    name: "WithdrawFromPresale",
    inputs: [
      {
        type: "uint256",
        name: "presaleId",
        indexed: true,
        internalType: "uint256",
      },
      {
        type: "address",
        name: "withdrawer",
        indexed: false,
        internalType: "address",
      },
      {
        type: "uint256",
        name: "amount",
        indexed: false,
        internalType: "uint256",
      },
      {
        type: "uint256",
        name: "ethRaised",
        indexed: false,
        internalType: "uint256",
      },
    ],
    anonymous: false,
  },
  {
    type: "event",
    name: "PresaleFailed",
    inputs: [
      {
        type: "uint256",
        name: "presaleId",
        indexed: true,
        internalType: "uint256",
      },
    ],
    anonymous: false,
  },
  {
    type: "event",
    name: "PresaleDeployed",
    inputs: [
      {
        type: "uint256",
        name: "presaleId",
        indexed: true,
        internalType: "uint256",
      },
      {
        type: "address",
        name: "token",
        indexed: false,
        internalType: "address",
      },
    ],
    anonymous: false,
  },
  {
    type: "event",
    name: "ClaimTokens",
    inputs: [
      {
        type: "uint256",
        name: "presaleId",
        indexed: true,
        internalType: "uint256",
      },
      {
        type: "address",
        name: "claimer",
        indexed: false,
        internalType: "address",
      },
      {
        type: "uint256",
        name: "tokenAmount",
        indexed: false,
        internalType: "uint256",
      },
    ],
    anonymous: false,
  },
  {
    type: "event",
    name: "ClaimEth",
    inputs: [
      {
        type: "uint256",
        name: "presaleId",
        indexed: true,
        internalType: "uint256",
      },
      {
        type: "address",
        name: "recipient",
        indexed: false,
        internalType: "address",
      },
      {
        type: "uint256",
        name: "ethAmount",
        indexed: false,
        internalType: "uint256",
      },
      {
        type: "uint256",
        name: "fee",
        indexed: false,
        internalType: "uint256",
      },
    ],
    anonymous: false,
  },
] as const;

/** getPresale(presaleId): the presale's record (status: PresaleStatus, lib/platform/chain PRESALE_STATUS). */
export const presaleAbi = [
  {
    type: "function",
    name: "getPresale",
    inputs: [
      {
        type: "uint256",
        name: "presaleId_",
        internalType: "uint256",
      },
    ],
    outputs: [
      {
        type: "tuple",
        name: "",
        internalType: "struct Presale.Presale",
        components: [
          {
            type: "uint8",
            name: "status",
            internalType: "enum Presale.PresaleStatus",
          },
          {
            type: "tuple",
            name: "deploymentConfig",
            internalType: "struct DeploymentConfig",
            components: deploymentConfigComponents,
          },
          {
            type: "address",
            name: "allowlist",
            internalType: "address",
          },
          {
            type: "address",
            name: "presaleOwner",
            internalType: "address",
          },
          {
            type: "uint256",
            name: "minEthGoal",
            internalType: "uint256",
          },
          {
            type: "uint256",
            name: "maxEthGoal",
            internalType: "uint256",
          },
          {
            type: "uint256",
            name: "endTime",
            internalType: "uint256",
          },
          {
            type: "address",
            name: "deployedToken",
            internalType: "address",
          },
          {
            type: "uint256",
            name: "ethRaised",
            internalType: "uint256",
          },
          {
            type: "uint256",
            name: "tokenSupply",
            internalType: "uint256",
          },
          {
            type: "bool",
            name: "deploymentExpected",
            internalType: "bool",
          },
          {
            type: "bool",
            name: "ethClaimed",
            internalType: "bool",
          },
          {
            type: "uint256",
            name: "lockupDuration",
            internalType: "uint256",
          },
          {
            type: "uint256",
            name: "vestingDuration",
            internalType: "uint256",
          },
          {
            type: "uint256",
            name: "lockupEndTime",
            internalType: "uint256",
          },
          {
            type: "uint256",
            name: "vestingEndTime",
            internalType: "uint256",
          },
          {
            type: "uint256",
            name: "clankerFee",
            internalType: "uint256",
          },
        ],
      },
    ],
    stateMutability: "view",
  },
] as const;

/** The platform allowlist's record of a presale: its owner, Merkle root and whether it is enforced. */
export const presaleAllowlistAbi = [
  {
    type: "function",
    name: "allowlists",
    inputs: [
      {
        type: "uint256",
        name: "presaleId",
        internalType: "uint256",
      },
    ],
    outputs: [
      {
        type: "address",
        name: "presaleOwner",
        internalType: "address",
      },
      {
        type: "bytes32",
        name: "merkleRoot",
        internalType: "bytes32",
      },
      {
        type: "bool",
        name: "enabled",
        internalType: "bool",
      },
    ],
    stateMutability: "view",
  },
] as const;
