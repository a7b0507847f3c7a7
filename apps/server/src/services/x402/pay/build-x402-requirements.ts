import { toX402Network } from '@quicklinks/core/api/x402'
import type { PaymentRequirements } from '@x402/core/types'
import type { FastifyBaseLogger } from 'fastify'
import { getAddress } from 'viem'
import type { DepositSetup } from '../../payments/deposits/get-deposit-setup.ts'
import { createIntentId } from '../../payments/route/build-route.ts'
import { quoteRoute } from '../../payments/route/quote-route.ts'
import type { RoutingProvider } from '../../payments/route/routing-provider.ts'
import type { X402Chain, X402Token } from '../read-x402-setup.ts'
import type { X402Resource } from './read-x402-resource.ts'

/** How long a payer has between signing and settlement (`validBefore` = signing time + this). */
export const x402MaxTimeoutSeconds = 120

/** The slippage (percent) a deposit's route is quoted with (build-deposit-route.ts uses the same). */
const depositSlippage = 1

/** The `exact` requirement on one chain, and whether it pays into the deposit address. */
export type X402Requirement = { requirement: PaymentRequirements; isDeposit: boolean }

/**
 * One `exact` requirement per chain with an EIP-3009 token (docs/decisions/0031): on the link's
 * chain in the link's token (when it has EIP-3009), paid straight to the receiver for the amount;
 * on any other chain (or in another token), paid into `depositAddress` for what an exact-output
 * quote from that address says the route needs, so the receiver gets at least the amount. A chain
 * the deposit setup does not cover, or that the provider cannot quote, is left out (logged). Reads
 * the provider's quotes only; writes nothing.
 */
export async function buildX402Requirements(options: {
  resource: X402Resource
  chains: readonly X402Chain[]
  depositSetup: Pick<DepositSetup, 'chains'> | undefined
  depositAddress: () => Promise<`0x${string}`>
  provider: RoutingProvider
  logger: FastifyBaseLogger
}): Promise<X402Requirement[]> {
  const { resource, provider } = options
  const { link, amountUnits, linkToken } = resource
  const receiver = getAddress(link.receiverAddress)
  const linkTokenAddress = link.tokenAddress.toLowerCase()
  const depositChains = new Set(options.depositSetup?.chains.map((chain) => chain.chainId) ?? [])
  const canDeposit = depositChains.has(link.chainId)
  const built: X402Requirement[] = []
  for (const chain of options.chains) {
    const direct =
      chain.chainId === link.chainId
        ? chain.tokens.find((token) => token.address.toLowerCase() === linkTokenAddress)
        : undefined
    if (direct) {
      built.push({
        requirement: toRequirement(chain.chainId, direct, receiver, amountUnits),
        isDeposit: false,
      })
      continue
    }
    if (!canDeposit || !depositChains.has(chain.chainId)) continue
    const token = chain.tokens.find((candidate) => candidate.symbol === linkToken.symbol) ?? chain.tokens[0]
    if (!token) continue
    try {
      const payTo = await options.depositAddress()
      const { fromAmount } = await quoteRoute(
        provider,
        {
          fromChainId: chain.chainId,
          toChainId: link.chainId,
          fromToken: getAddress(token.address),
          toToken: link.tokenAddress as `0x${string}`,
          fromAddress: payTo,
          toAddress: receiver,
          slippage: depositSlippage,
          intentId: createIntentId(),
        },
        { toAmount: amountUnits },
      )
      built.push({ requirement: toRequirement(chain.chainId, token, payTo, fromAmount), isDeposit: true })
    } catch (error) {
      // One chain without a route leaves the others payable.
      options.logger.warn(
        { err: error, chainId: chain.chainId, linkId: link.id },
        'No x402 offer on this chain',
      )
    }
  }
  return built
}

/** The requirement as x402 writes it: CAIP-2 network, atomic amount, the token's EIP-712 name and version. */
function toRequirement(
  chainId: number,
  token: X402Token,
  payTo: `0x${string}`,
  amount: bigint,
): PaymentRequirements {
  return {
    scheme: 'exact',
    network: toX402Network(chainId),
    asset: getAddress(token.address),
    amount: amount.toString(),
    payTo: getAddress(payTo),
    maxTimeoutSeconds: x402MaxTimeoutSeconds,
    extra: { name: token.signatures.name, version: token.signatures.version },
  }
}
