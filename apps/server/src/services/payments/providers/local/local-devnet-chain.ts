import { AppError } from '@quicklinks/core/app-error'
import { isNativeTokenAddress, nativeTokenAddress, zeroAddress } from '@quicklinks/core/native-token-address'
import type { DevnetChainDeployment, DevnetDeployment } from '@quicklinks/devnet/devnet-deployment'
import { getAddress } from 'viem'

/** A token of a devnet chain as routes use it: native tokens travel as the wrapped one on Uniswap. */
export type LocalToken = {
  chainId: number
  /** Checksummed; the all-e placeholder for the native token. */
  address: `0x${string}`
  symbol: string
  decimals: number
  isNative: boolean
  /** What PayRouter takes for this token: address(0) for native. */
  contractAddress: `0x${string}`
  /** What a Uniswap V2 path uses: the wrapped native token for native. */
  poolAddress: `0x${string}`
}

/** Finds a devnet chain by id, or throws a 422 naming the field. */
export function getLocalChainOrThrow(
  deployment: DevnetDeployment,
  chainId: number,
  field: 'fromChain' | 'toChain',
): DevnetChainDeployment {
  const chain = deployment.chains.find((candidate) => candidate.chainId === chainId)
  if (!chain) {
    throw new AppError('VALIDATION_FAILED', {
      field,
      userMessage: `Chain ${chainId} is not supported. Supported chains: ${deployment.chains.map((candidate) => `${candidate.name} (${candidate.chainId})`).join(', ')}.`,
    })
  }
  return chain
}

/** Resolves a token address (any case; all-e or zero for native) on a devnet chain, or throws a 422. */
export function getLocalTokenOrThrow(
  chain: DevnetChainDeployment,
  address: string,
  field: 'fromToken' | 'toToken',
): LocalToken {
  if (isNativeTokenAddress(address)) {
    return {
      chainId: chain.chainId,
      address: nativeTokenAddress,
      symbol: chain.nativeSymbol,
      decimals: 18,
      isNative: true,
      contractAddress: zeroAddress,
      poolAddress: chain.contracts.weth,
    }
  }
  const token = chain.tokens.find((candidate) => candidate.address.toLowerCase() === address.toLowerCase())
  if (!token) {
    throw new AppError('VALIDATION_FAILED', {
      field,
      userMessage: `Token ${address} is not available on ${chain.name}.`,
    })
  }
  const checksummed = getAddress(token.address)
  return {
    chainId: chain.chainId,
    address: checksummed,
    symbol: token.symbol,
    decimals: token.decimals,
    isNative: false,
    contractAddress: checksummed,
    poolAddress: checksummed,
  }
}

/** The chain's USDC: the escrow token of cross-chain routes and the hub of every swap path. */
export function getLocalUsdcOrThrow(chain: DevnetChainDeployment): LocalToken {
  const usdc = chain.tokens.find((token) => token.symbol === 'USDC')
  if (!usdc) {
    throw new AppError('SERVICE_UNAVAILABLE', {
      message: `No USDC in the devnet deployment of chain ${chain.chainId}`,
      userMessage: `${chain.name} has no USDC deployed; restart the devnet.`,
    })
  }
  return getLocalTokenOrThrow(chain, usdc.address, 'toToken')
}
