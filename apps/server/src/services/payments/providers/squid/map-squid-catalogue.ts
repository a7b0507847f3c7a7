import type { ChainContracts } from '@quicklinks/core/api/routing'
import { getAddress, isAddress } from 'viem'
import {
  isNativeTokenAddress,
  nativeTokenAddress,
  type RouteAction,
  type RouteTokenRef,
  type RoutingChain,
  type RoutingToken,
} from '../../route/routing-provider.ts'
import type { SquidAction, SquidChain, SquidToken } from './squid-schemas.ts'

/** How Squid names itself on a step that names no provider of its own. */
export const squidProviderLabel = 'Squid'

export function toChecksummed(address: string): string {
  if (isNativeTokenAddress(address))
    return address.toLowerCase() === nativeTokenAddress.toLowerCase() ? nativeTokenAddress : address
  return isAddress(address, { strict: false }) ? getAddress(address) : address
}

export function toPositiveChainId(value: string): number | null {
  if (!/^\d+$/.test(value)) return null
  const id = Number(value)
  return Number.isSafeInteger(id) && id > 0 ? id : null
}

export function toRoutingChain(chain: SquidChain): RoutingChain | null {
  if (chain.chainType !== 'evm') return null
  const chainId = toPositiveChainId(chain.chainId)
  if (chainId === null) return null
  const networkName = chain.networkName ?? chain.chainName ?? chain.axelarChainName ?? String(chainId)
  const contracts = chain.squidContracts ?? {}
  return {
    chainId,
    networkIdentifier: (chain.networkIdentifier ?? chain.axelarChainName ?? networkName)
      .toLowerCase()
      .replace(/\s+/g, '-'),
    ...(chain.axelarChainName ? { axelarChainName: chain.axelarChainName } : {}),
    networkName,
    chainIconURI: chain.chainIconURI ?? '',
    type: 'evm',
    enabled: true,
    visible: true,
    nativeCurrency: {
      symbol: chain.nativeCurrency?.symbol ?? 'ETH',
      decimals: chain.nativeCurrency?.decimals ?? 18,
    },
    rpcUrl: chain.rpc ?? '',
    blockExplorerUrl: (chain.blockExplorerUrls?.[0] ?? '').replace(/\/+$/, ''),
    // What the pay modal's spender falls back to (docs/product.md#approval-and-spender).
    contracts: {
      ...toContractAddress('router', contracts.squidRouter),
      ...toContractAddress('multicall', contracts.squidMulticall),
      ...toContractAddress('coralMulticall', contracts.squidCoralMulticall),
    },
  }
}

/** `{[name]: address}` checksummed, or nothing when Squid gives no address. */
function toContractAddress(name: keyof ChainContracts, address: string | undefined): ChainContracts {
  return address !== undefined && isAddress(address, { strict: false }) ? { [name]: getAddress(address) } : {}
}

export function toRoutingToken(token: SquidToken): RoutingToken | null {
  if (token.type !== undefined && token.type !== 'evm') return null
  const chainId = toPositiveChainId(token.chainId)
  if (chainId === null || !isAddress(token.address, { strict: false })) return null
  const price = typeof token.usdPrice === 'string' ? Number(token.usdPrice) : token.usdPrice
  return {
    chainId,
    address: toChecksummed(token.address),
    symbol: token.symbol,
    name: token.name ?? token.symbol,
    decimals: token.decimals,
    type: 'evm',
    logoURI: token.logoURI ?? '',
    active: token.disabled !== true,
    visible: true,
    usdPrice: typeof price === 'number' && Number.isFinite(price) ? price : null,
  }
}

export function toTokenRef(token: SquidAction['fromToken'], fallbackChainId: number): RouteTokenRef {
  const chainId = token.chainId === undefined ? null : toPositiveChainId(token.chainId)
  return {
    chainId: chainId ?? fallbackChainId,
    address: toChecksummed(token.address),
    symbol: token.symbol,
    decimals: token.decimals,
    logoURI: token.logoURI ?? '',
  }
}

/** Squid's action types: swaps and wraps are one-chain steps; bridges, intents (rfq) and IBC move between chains. */
export function toRouteAction(action: SquidAction, routeDurationSeconds: number): RouteAction | null {
  const fromChainId = toPositiveChainId(action.fromChain)
  const toChainId = toPositiveChainId(action.toChain)
  if (fromChainId === null || toChainId === null) return null
  const kind = action.type.toLowerCase()
  let type: RouteAction['type']
  if (['swap', 'wrap'].includes(kind)) type = fromChainId === toChainId ? 'swap' : 'bridge'
  else if (['bridge', 'rfq', 'ibc-transfer', 'squid-send'].includes(kind))
    type = fromChainId === toChainId ? 'swap' : 'bridge'
  else return null // fee and custom-call actions are not steps of the payment
  const seconds = action.estimatedDuration ?? (type === 'bridge' ? routeDurationSeconds : 0)
  return {
    type,
    fromChainId,
    toChainId,
    fromToken: toTokenRef(action.fromToken, fromChainId),
    toToken: toTokenRef(action.toToken, toChainId),
    fromAmount: action.fromAmount,
    toAmount: action.toAmount,
    toAmountMin: action.toAmountMin ?? action.toAmount,
    provider: action.provider ?? action.data?.provider ?? action.data?.name ?? squidProviderLabel,
    providerLogoURI: action.logoURI ?? '',
    estimatedMs: Math.max(0, Math.round(seconds * 1000)),
  }
}
