import { toX402Network, x402Version } from '@quicklinks/core/api/x402'
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { type Address, erc20Abi, type Hash, parseEventLogs } from 'viem'
import type { PaymentDevnet } from './payment-test-kit.ts'

/** The devnet account that pays in the x402 tests, and the one it pays. */
export const x402PayerIndex = 2
export const x402ReceiverIndex = 5

/**
 * An `exact` requirement for USDC on `chainId` paying `payTo`, as a resource server offers it: the
 * token's EIP-712 domain from the deployment in `extra`.
 */
export function usdcRequirements(
  devnet: PaymentDevnet,
  chainId: number,
  payTo: Address,
  amount: bigint,
): PaymentRequirements {
  const token = devnet.chain(chainId).tokens.find((candidate) => candidate.symbol === 'USDC')
  if (!token?.signatures?.authorizations) throw new Error(`no EIP-3009 USDC on chain ${chainId}`)
  return {
    scheme: 'exact',
    network: toX402Network(chainId),
    asset: token.address,
    amount: amount.toString(),
    payTo,
    maxTimeoutSeconds: 120,
    extra: { name: token.signatures.name, version: token.signatures.version },
  }
}

/**
 * What a stock x402 client sends for `requirements`: `@x402/evm`'s client `exact` scheme signing the
 * EIP-3009 authorization with the devnet account `payerIndex` (a viem account). `edit` changes the
 * requirements it signs for (another amount, payTo, validity) while `accepted` stays the offer.
 */
export async function signX402Payment(
  devnet: PaymentDevnet,
  payerIndex: number,
  requirements: PaymentRequirements,
  edit: (signed: PaymentRequirements) => PaymentRequirements = (same) => same,
): Promise<PaymentPayload> {
  const scheme = new ExactEvmScheme(devnet.account(payerIndex))
  const result = await scheme.createPaymentPayload(x402Version, edit(requirements))
  return { x402Version, accepted: requirements, payload: result.payload }
}

/** A copy of the payload whose authorization has these fields changed (the signature stays). */
export function withAuthorization(payload: PaymentPayload, patch: Record<string, string>): PaymentPayload {
  const inner = payload.payload as { authorization: Record<string, string>; signature: string }
  return { ...payload, payload: { ...inner, authorization: { ...inner.authorization, ...patch } } }
}

/** The USDC `Transfer` logs of a transaction. */
export async function readTransfers(devnet: PaymentDevnet, chainId: number, hash: Hash) {
  const receipt = await devnet.publicClient(chainId).getTransactionReceipt({ hash })
  return parseEventLogs({ abi: erc20Abi, logs: receipt.logs, eventName: 'Transfer' })
}
