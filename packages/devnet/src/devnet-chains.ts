/** Everything the devnet needs to know about one chain it simulates. */
export type DevnetChainConfig = {
  chainId: number
  /** Local port the chain's anvil listens on. */
  port: number
  /** Display name, as the web app shows it. */
  name: string
  nativeSymbol: string
  /** Symbol shown for the wrapped native token (WETH9's own `symbol()` always says WETH). */
  wrappedNativeSymbol: string
  /** USDC paid for one native token in the seeded wrapped-native/USDC pool. */
  nativeUsdcPrice: number
}

/** The chains `npm start` runs: Base, Avalanche C-Chain and Arbitrum One, each on its own anvil. */
export const devnetChains = [
  {
    chainId: 8453,
    port: 8545,
    name: 'Base',
    nativeSymbol: 'ETH',
    wrappedNativeSymbol: 'WETH',
    nativeUsdcPrice: 3000,
  },
  {
    chainId: 43114,
    port: 8546,
    name: 'Avalanche',
    nativeSymbol: 'AVAX',
    wrappedNativeSymbol: 'WAVAX',
    nativeUsdcPrice: 30,
  },
  {
    chainId: 42161,
    port: 8547,
    name: 'Arbitrum',
    nativeSymbol: 'ETH',
    wrappedNativeSymbol: 'WETH',
    nativeUsdcPrice: 3000,
  },
] as const satisfies readonly DevnetChainConfig[]

/** The well-known anvil/Hardhat test mnemonic; accounts 0-9 derive from it and are funded. */
export const devnetMnemonic = 'test test test test test test test test test test test junk'

/** How many accounts of the mnemonic are unlocked and funded on every chain. */
export const devnetAccountCount = 10

/**
 * The mnemonic account that is the devnet's relayer (fills cross-chain intents, settles escrows);
 * the last funded one, whose inventory the deploy tops up. See `getDevnetRelayerAccount`.
 */
export const devnetRelayerAccountIndex = 9
