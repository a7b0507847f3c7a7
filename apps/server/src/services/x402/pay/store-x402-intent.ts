import type { RouteAction } from '@quicklinks/core/api/routing'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import type { PaymentRequirements } from '@x402/core/types'
import { eip3009ABI } from '@x402/evm'
import { encodeFunctionData, getAddress, type Hex, parseErc6492Signature, parseSignature } from 'viem'
import { createIntentId } from '../../payments/route/build-route.ts'
import { insertRouteIntent } from '../../payments/route/route-intents-repository.ts'
import type { X402Resource } from './read-x402-resource.ts'

/** The `exact` EVM payload: the payer's EIP-3009 authorization and its signature. */
export type ExactEvmPayload = {
  signature: Hex
  authorization: {
    from: `0x${string}`
    to: `0x${string}`
    value: string
    validAfter: string
    validBefore: string
    nonce: Hex
  }
}

/**
 * The token's transferWithAuthorization call for a payload, encoded as `@x402/evm`'s facilitator
 * sends it (v, r, s for a 65-byte signature, else the signature bytes): the route's transaction the
 * tracker matches the mined one against. Pure.
 */
export function encodeTransferWithAuthorization(payload: ExactEvmPayload): Hex {
  const { signature } = parseErc6492Signature(payload.signature)
  const auth = payload.authorization
  const base = [
    getAddress(auth.from),
    getAddress(auth.to),
    BigInt(auth.value),
    BigInt(auth.validAfter),
    BigInt(auth.validBefore),
    auth.nonce,
  ] as const
  if (signature.length === 132) {
    const parsed = parseSignature(signature)
    return encodeFunctionData({
      abi: eip3009ABI,
      functionName: 'transferWithAuthorization',
      args: [...base, Number(parsed.v ?? parsed.yParity), parsed.r, parsed.s],
    })
  }
  return encodeFunctionData({
    abi: eip3009ABI,
    functionName: 'transferWithAuthorization',
    args: [...base, signature],
  })
}

/**
 * Stores a same-chain x402 payment as a route intent before it is settled (docs/decisions/0031):
 * its transaction is the token's transferWithAuthorization (`x402: true`, so any sender may submit
 * it), from the payer to the link's receiver for the requirement's amount, of the resource's link
 * and invoice. The tracker then verifies it like any payment once its hash is recorded. Answers
 * the intent id.
 */
export async function storeX402Intent(
  db: Database,
  options: {
    resource: X402Resource
    requirement: PaymentRequirements
    payload: ExactEvmPayload
    providerName: string
    requestId: string
  },
): Promise<`0x${string}`> {
  const { resource, requirement, payload } = options
  const { link, linkToken } = resource
  const intentId = createIntentId()
  const token = requirement.asset.toLowerCase()
  const amount = requirement.amount
  const tokenRef = {
    chainId: link.chainId,
    address: getAddress(requirement.asset),
    symbol: linkToken.symbol,
    decimals: linkToken.decimals,
    logoURI: linkToken.logoURI ?? '',
  }
  const action: RouteAction = {
    type: 'transfer',
    fromChainId: link.chainId,
    toChainId: link.chainId,
    fromToken: tokenRef,
    toToken: tokenRef,
    fromAmount: amount,
    toAmount: amount,
    toAmountMin: amount,
    provider: 'x402',
    providerLogoURI: '',
    estimatedMs: 0,
  }
  const data = encodeTransferWithAuthorization(payload)
  await insertRouteIntent(db, {
    id: intentId,
    provider: options.providerName,
    linkId: link.id,
    invoiceId: resource.invoiceId,
    fromChainId: link.chainId,
    toChainId: link.chainId,
    fromToken: token,
    toToken: token,
    fromAmount: amount,
    toAmount: amount,
    toAmountMin: amount,
    fromAddress: payload.authorization.from.toLowerCase(),
    toAddress: link.receiverAddress.toLowerCase(),
    slippage: 0,
    transactionRequest: {
      to: getAddress(requirement.asset),
      target: getAddress(requirement.asset),
      data,
      value: '0',
      x402: true,
    },
    actions: [action],
    providerData: { kind: 'x402', network: requirement.network },
    estimatedDurationMs: 0,
    requestId: options.requestId,
  })
  return intentId
}
