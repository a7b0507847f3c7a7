import { createHash } from 'node:crypto'
import { depositFactoryBytecode } from '@quicklinks/contracts/generated/deposit-factory'
import { depositForwarderBytecode } from '@quicklinks/contracts/generated/deposit-forwarder'
import { entryPointV07Bytecode } from '@quicklinks/contracts/generated/entry-point-v07'
import { entryPointV08Bytecode } from '@quicklinks/contracts/generated/entry-point-v08'
import { fiatTokenBytecode } from '@quicklinks/contracts/generated/fiat-token'
import { multicall3DeployedBytecode } from '@quicklinks/contracts/generated/multicall3'
import { payRouterBytecode } from '@quicklinks/contracts/generated/pay-router'
import { quickLinksAccountFactoryBytecode } from '@quicklinks/contracts/generated/quick-links-account-factory'
import { quickLinksMultiOwnerAccountFactoryBytecode } from '@quicklinks/contracts/generated/quick-links-multi-owner-account-factory'
import { simple7702AccountBytecode } from '@quicklinks/contracts/generated/simple7702-account'
import { sponsorPaymasterBytecode } from '@quicklinks/contracts/generated/sponsor-paymaster'
import { testTokenBytecode } from '@quicklinks/contracts/generated/test-token'
import { uniswapV2FactoryBytecode } from '@quicklinks/contracts/generated/uniswap-v2-factory'
import { uniswapV2Router02Bytecode } from '@quicklinks/contracts/generated/uniswap-v2-router02'
import { weth9Bytecode } from '@quicklinks/contracts/generated/weth9'
import type { DevnetChainConfig } from './devnet-chains.ts'

/** Bump when the deploy steps change in a way the bytecode part of the fingerprint cannot see. */
const deployScriptVersion = 4

/**
 * A hash of everything that determines what `deployDevnetChain` builds for this chain (the bytecode
 * it deploys, the chain's parameters, the deploy steps' version). Saved state whose fingerprint
 * differs is stale and gets redeployed. Pure; never throws.
 */
export function getDeploymentFingerprint(chain: DevnetChainConfig): string {
  const hash = createHash('sha256')
  hash.update(
    JSON.stringify({
      deployScriptVersion,
      chainId: chain.chainId,
      name: chain.name,
      nativeSymbol: chain.nativeSymbol,
      wrappedNativeSymbol: chain.wrappedNativeSymbol,
      nativeUsdcPrice: chain.nativeUsdcPrice,
    }),
  )
  for (const bytecode of [
    fiatTokenBytecode,
    testTokenBytecode,
    weth9Bytecode,
    uniswapV2FactoryBytecode,
    uniswapV2Router02Bytecode,
    multicall3DeployedBytecode,
    payRouterBytecode,
    entryPointV07Bytecode,
    entryPointV08Bytecode,
    quickLinksAccountFactoryBytecode,
    quickLinksMultiOwnerAccountFactoryBytecode,
    simple7702AccountBytecode,
    sponsorPaymasterBytecode,
    depositFactoryBytecode,
    depositForwarderBytecode,
  ]) {
    hash.update(bytecode)
  }
  return hash.digest('hex')
}
