import { existsSync } from 'node:fs'
import { AppError } from '@quicklinks/core/app-error'
import type { DevnetDeployment } from '@quicklinks/devnet/devnet-deployment'
import { getDevnetDeploymentOrThrow } from '@quicklinks/runtime/devnet/get-devnet-deployment-or-throw'
import { getChainRpcUrl } from '../../../chains/get-chain-rpc-url.ts'
import {
  nativeTokenAddress,
  type RoutingChain,
  type RoutingProvider,
  type RoutingToken,
} from '../../route/routing-provider.ts'
import { createLocalRouteHandlers, type LocalRouteHandlersOptions } from './create-local-route-handlers.ts'
import { type LocalProviderData, localProviderDataSchema } from './local-provider-data.ts'
import { readPoolUsdPrices } from './uniswap/read-pool-usd-prices.ts'

/** The network identifiers of the chains the devnet simulates (a link's `chain`, docs/api.md#link-object). */
const networkIdentifiers: Readonly<Record<number, string>> = {
  8453: 'base',
  43114: 'avalanche',
  42161: 'arbitrum',
}

const tokenNames: Readonly<Record<string, string>> = {
  USDC: 'USD Coin',
  USDT: 'Tether USD',
  WETH: 'Wrapped Ether',
  WAVAX: 'Wrapped AVAX',
  ETH: 'Ether',
  AVAX: 'Avalanche',
}

export type LocalRoutingProviderOptions = {
  devnetDeploymentFile: string
  /** Without dev mode a missing deployment file means nobody configured any chain. */
  devMode: boolean
  /** The relayer's address: cross-chain routes answer 503 without one. */
  relayerAddress?: `0x${string}` | undefined
  /** RPC_URL_<chainId> overrides (config.rpcUrls); the deployment's URL otherwise. */
  rpcUrls?: Readonly<Record<number, string>>
} & Pick<LocalRouteHandlersOptions, 'readFillHint' | 'onDepositConfirmed'>

/**
 * The `local` routing provider: chains and tokens from the devnet deployment file, read afresh
 * on each call (the devnet may deploy after the server starts). No icons: nothing may be fetched
 * from another origin on the devnet, so `chainIconURI` and `logoURI` are empty.
 */
export function createLocalRoutingProvider(
  options: LocalRoutingProviderOptions,
): RoutingProvider<LocalProviderData> {
  const readDeployment = async (): Promise<DevnetDeployment> => {
    if (!options.devMode && !existsSync(options.devnetDeploymentFile)) {
      throw new AppError('SERVICE_UNAVAILABLE', {
        message: `No devnet deployment file at ${options.devnetDeploymentFile} and DEV_MODE is off`,
        userMessage:
          'No chains configured: the local routing provider reads the devnet deployment, which is not there. Run with DEV_MODE=true (npm start), set DEVNET_DEPLOYMENT_FILE, or set ROUTING_PROVIDER=squid.',
      })
    }
    return getDevnetDeploymentOrThrow(options.devnetDeploymentFile)
  }

  return {
    name: 'local',
    providerDataSchema: localProviderDataSchema,
    // Our own relayer fills within seconds of the deposit's confirmations.
    isQuick: true,
    async chains() {
      const deployment = await readDeployment()
      return deployment.chains.map(
        (chain): RoutingChain => ({
          chainId: chain.chainId,
          networkIdentifier:
            networkIdentifiers[chain.chainId] ?? chain.name.toLowerCase().replace(/\s+/g, '-'),
          networkName: chain.name,
          chainIconURI: '',
          type: 'evm',
          enabled: true,
          visible: true,
          nativeCurrency: { symbol: chain.nativeSymbol, decimals: 18 },
          rpcUrl: chain.rpcUrl,
          blockExplorerUrl: '',
          // No axelarChainName: the devnet bridges through its own relayer, not Axelar.
          contracts: { router: chain.contracts.payRouter, multicall: chain.contracts.multicall3 },
        }),
      )
    },
    async tokens(tokensOptions) {
      const deployment = await readDeployment()
      // Prices come fresh from the pools on every call (one Multicall3 eth_call per chain); a
      // chain whose RPC does not answer lists its tokens with usdPrice null (USDC still 1).
      const chainPrices = await Promise.all(
        deployment.chains.map((chain) =>
          tokensOptions?.withoutPrices
            ? readStablecoinPrices(chain.tokens)
            : readPoolUsdPrices(
                chain,
                getChainRpcUrl({ rpcUrls: options.rpcUrls ?? {} }, chain.chainId, deployment.chains),
              ).catch(() => readStablecoinPrices(chain.tokens)),
        ),
      )
      const priceOf = (chainIndex: number, address: string): number | null =>
        chainPrices[chainIndex]?.get(address.toLowerCase()) ?? null
      return deployment.chains.flatMap((chain, chainIndex): RoutingToken[] => [
        {
          chainId: chain.chainId,
          address: nativeTokenAddress,
          symbol: chain.nativeSymbol,
          name: tokenNames[chain.nativeSymbol] ?? chain.nativeSymbol,
          decimals: 18,
          type: 'evm',
          logoURI: '',
          active: true,
          visible: true,
          usdPrice: priceOf(chainIndex, nativeTokenAddress),
        },
        ...chain.tokens.map(
          (token): RoutingToken => ({
            chainId: chain.chainId,
            address: token.address,
            symbol: token.symbol,
            name: tokenNames[token.symbol] ?? token.symbol,
            decimals: token.decimals,
            type: 'evm',
            logoURI: '',
            active: true,
            visible: true,
            usdPrice: priceOf(chainIndex, token.address),
            ...(token.signatures?.permit === true && {
              permit: { name: token.signatures.name, version: token.signatures.version },
            }),
          }),
        ),
      ])
    },
    ...createLocalRouteHandlers(options),
  }
}

/** Without a pool read, only USDC's price is known: it is the devnet's dollar. */
function readStablecoinPrices(tokens: readonly { symbol: string; address: string }[]): Map<string, number> {
  const usdc = tokens.find((token) => token.symbol === 'USDC')
  return new Map(usdc ? [[usdc.address.toLowerCase(), 1]] : [])
}
