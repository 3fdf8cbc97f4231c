// The platform presale extension's events, as the service decodes them (PresaleStarted carries the whole
// DeploymentConfig). The local Presale contract emits the same events; tests/unit/chain/artifacts.test.ts
// checks each item here against the compiled contract.
export const presaleEventsAbi = [
  {
    anonymous: false,
    inputs: [
      {
        indexed: true,
        internalType: "uint256",
        name: "presaleId",
        type: "uint256",
      },
      {
        indexed: false,
        internalType: "bytes32",
        name: "allowlistRoot",
        type: "bytes32",
      },
    ],
    name: "AllowlistRootUpdated",
    type: "event",
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: true,
        internalType: "uint256",
        name: "presaleId",
        type: "uint256",
      },
      {
        indexed: true,
        internalType: "address",
        name: "recipient",
        type: "address",
      },
      {
        indexed: false,
        internalType: "uint256",
        name: "ethAmount",
        type: "uint256",
      },
    ],
    name: "EthClaimed",
    type: "event",
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: true,
        internalType: "uint256",
        name: "presaleId",
        type: "uint256",
      },
      {
        indexed: true,
        internalType: "address",
        name: "buyer",
        type: "address",
      },
      {
        indexed: false,
        internalType: "uint256",
        name: "ethAmount",
        type: "uint256",
      },
      {
        indexed: false,
        internalType: "uint256",
        name: "ethRaised",
        type: "uint256",
      },
    ],
    name: "PresaleBuy",
    type: "event",
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: true,
        internalType: "uint256",
        name: "presaleId",
        type: "uint256",
      },
      {
        indexed: true,
        internalType: "address",
        name: "token",
        type: "address",
      },
      {
        indexed: false,
        internalType: "uint256",
        name: "tokenSupply",
        type: "uint256",
      },
    ],
    name: "PresaleDeployed",
    type: "event",
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: true,
        internalType: "uint256",
        name: "presaleId",
        type: "uint256",
      },
      {
        indexed: true,
        internalType: "address",
        name: "presaleOwner",
        type: "address",
      },
      {
        components: [
          {
            components: [
              {
                internalType: "address",
                name: "tokenAdmin",
                type: "address",
              },
              {
                internalType: "string",
                name: "name",
                type: "string",
              },
              {
                internalType: "string",
                name: "symbol",
                type: "string",
              },
              {
                internalType: "bytes32",
                name: "salt",
                type: "bytes32",
              },
              {
                internalType: "string",
                name: "image",
                type: "string",
              },
              {
                internalType: "string",
                name: "metadata",
                type: "string",
              },
              {
                internalType: "string",
                name: "context",
                type: "string",
              },
              {
                internalType: "uint256",
                name: "originatingChainId",
                type: "uint256",
              },
            ],
            internalType: "struct TokenConfig",
            name: "tokenConfig",
            type: "tuple",
          },
          {
            components: [
              {
                internalType: "address",
                name: "hook",
                type: "address",
              },
              {
                internalType: "address",
                name: "pairedToken",
                type: "address",
              },
              {
                internalType: "int24",
                name: "tickIfToken0IsClanker",
                type: "int24",
              },
              {
                internalType: "int24",
                name: "tickSpacing",
                type: "int24",
              },
              {
                internalType: "bytes",
                name: "poolData",
                type: "bytes",
              },
            ],
            internalType: "struct PoolConfig",
            name: "poolConfig",
            type: "tuple",
          },
          {
            components: [
              {
                internalType: "address",
                name: "locker",
                type: "address",
              },
              {
                internalType: "address[]",
                name: "rewardAdmins",
                type: "address[]",
              },
              {
                internalType: "address[]",
                name: "rewardRecipients",
                type: "address[]",
              },
              {
                internalType: "uint16[]",
                name: "rewardBps",
                type: "uint16[]",
              },
              {
                internalType: "int24[]",
                name: "tickLower",
                type: "int24[]",
              },
              {
                internalType: "int24[]",
                name: "tickUpper",
                type: "int24[]",
              },
              {
                internalType: "uint16[]",
                name: "positionBps",
                type: "uint16[]",
              },
              {
                internalType: "bytes",
                name: "lockerData",
                type: "bytes",
              },
            ],
            internalType: "struct LockerConfig",
            name: "lockerConfig",
            type: "tuple",
          },
          {
            components: [
              {
                internalType: "address",
                name: "mevModule",
                type: "address",
              },
              {
                internalType: "bytes",
                name: "mevModuleData",
                type: "bytes",
              },
            ],
            internalType: "struct MevModuleConfig",
            name: "mevModuleConfig",
            type: "tuple",
          },
          {
            components: [
              {
                internalType: "address",
                name: "extension",
                type: "address",
              },
              {
                internalType: "uint256",
                name: "msgValue",
                type: "uint256",
              },
              {
                internalType: "uint16",
                name: "extensionBps",
                type: "uint16",
              },
              {
                internalType: "bytes",
                name: "extensionData",
                type: "bytes",
              },
            ],
            internalType: "struct ExtensionConfig[]",
            name: "extensionConfigs",
            type: "tuple[]",
          },
        ],
        indexed: false,
        internalType: "struct DeploymentConfig",
        name: "deploymentConfig",
        type: "tuple",
      },
      {
        indexed: false,
        internalType: "uint256",
        name: "minEthGoal",
        type: "uint256",
      },
      {
        indexed: false,
        internalType: "uint256",
        name: "maxEthGoal",
        type: "uint256",
      },
      {
        indexed: false,
        internalType: "uint256",
        name: "endTime",
        type: "uint256",
      },
      {
        indexed: false,
        internalType: "bytes32",
        name: "allowlistRoot",
        type: "bytes32",
      },
      {
        indexed: false,
        internalType: "uint256",
        name: "lockupDuration",
        type: "uint256",
      },
      {
        indexed: false,
        internalType: "uint256",
        name: "vestingDuration",
        type: "uint256",
      },
    ],
    name: "PresaleStarted",
    type: "event",
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: true,
        internalType: "uint256",
        name: "presaleId",
        type: "uint256",
      },
      {
        indexed: false,
        internalType: "uint8",
        name: "status",
        type: "uint8",
      },
      {
        indexed: false,
        internalType: "uint256",
        name: "ethRaised",
        type: "uint256",
      },
    ],
    name: "PresaleStatusChanged",
    type: "event",
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: true,
        internalType: "uint256",
        name: "presaleId",
        type: "uint256",
      },
      {
        indexed: true,
        internalType: "address",
        name: "buyer",
        type: "address",
      },
      {
        indexed: false,
        internalType: "uint256",
        name: "tokenAmount",
        type: "uint256",
      },
    ],
    name: "TokensClaimed",
    type: "event",
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: true,
        internalType: "uint256",
        name: "presaleId",
        type: "uint256",
      },
      {
        indexed: true,
        internalType: "address",
        name: "buyer",
        type: "address",
      },
      {
        indexed: false,
        internalType: "uint256",
        name: "ethAmount",
        type: "uint256",
      },
      {
        indexed: false,
        internalType: "uint256",
        name: "ethRaised",
        type: "uint256",
      },
    ],
    name: "WithdrawFromPresale",
    type: "event",
  },
] as const;
