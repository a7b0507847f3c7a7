import { randomUUID } from 'node:crypto'
import { type DepositTerms, getDepositAddress } from '@quicklinks/contracts/deposit-address'
import {
  type CreateDepositRequest,
  type DepositResponse,
  depositLifetimeSeconds,
} from '@quicklinks/core/api/deposits'
import { AppError } from '@quicklinks/core/app-error'
import { isNativeTokenAddress, zeroAddress } from '@quicklinks/core/native-token-address'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { getAddress } from 'viem'
import type { Link } from '../../../db/schema.ts'
import { getLinkTokenOrThrow } from '../../links/get-link-token-or-throw.ts'
import { parseTokenAmountOrThrow } from '../../tokens/parse-token-amount.ts'
import { assertRoutePaysInvoice } from '../route/assert-route-pays-invoice.ts'
import type { RoutingProvider } from '../route/routing-provider.ts'
import { insertDeposit, readInvoiceDue } from './deposits-repository.ts'
import type { DepositSetup } from './get-deposit-setup.ts'
import { toDepositResponse } from './to-deposit-response.ts'

export type CreateDepositContext = {
  db: Database
  provider: RoutingProvider
  setup: DepositSetup
  nowMs: number
}

/**
 * Makes a deposit address for a link (docs/api.md#deposits-create): a CREATE2 forwarder address,
 * the same on every chain of the setup, committed to the link's receiver, chain and token, the
 * payer's refund address (if given) and an expiry 60 minutes ahead (at most the invoice's
 * monitoring window). The amount is the invoice's remaining due, else the link's fixed amount, else
 * the payer's `amount`, else none. Nothing is deployed: the address receives funds as it is.
 * Throws AppError 404 for an unknown invoice, 422 for an invoice that takes no more payments, an
 * amount with too many decimals, or a link whose chain has no deposit contracts.
 */
export async function createDeposit(
  context: CreateDepositContext,
  link: Link,
  request: CreateDepositRequest,
): Promise<DepositResponse> {
  const { db, provider, setup, nowMs } = context
  if (!setup.chains.some((chain) => chain.chainId === link.chainId)) {
    throw new AppError('VALIDATION_FAILED', {
      field: 'slug',
      userMessage: "This link's chain takes no deposits on this server: connect a wallet instead.",
    })
  }
  const linkToken = await getLinkTokenOrThrow(provider, link)
  const invoiceId = request.invoiceId ?? null
  let amountUnits: bigint | null = null
  let expiresAtMs = nowMs + depositLifetimeSeconds * 1000
  if (invoiceId !== null) {
    await assertRoutePaysInvoice(
      db,
      {
        linkId: link.id,
        invoiceId,
        toChain: link.chainId,
        toToken: link.tokenAddress as `0x${string}`,
        toAddress: link.receiverAddress as `0x${string}`,
      },
      nowMs,
    )
    const due = await readInvoiceDue(db, invoiceId)
    if (due && due.dueUnits > 0n) amountUnits = due.dueUnits
    if (due) expiresAtMs = Math.min(expiresAtMs, due.monitorUntil.getTime())
  } else if (link.amount) {
    amountUnits = parseTokenAmountOrThrow(link.amount, linkToken)
  } else if (request.amount) {
    amountUnits = parseTokenAmountOrThrow(request.amount, linkToken)
  }

  const id = randomUUID()
  const refundAddress = request.refundAddress ? getAddress(request.refundAddress) : null
  const terms: DepositTerms = {
    depositId: `0x${'0'.repeat(32)}${id.replaceAll('-', '')}`,
    payRouter: setup.payRouter,
    receiver: getAddress(link.receiverAddress),
    destinationChainId: BigInt(link.chainId),
    destinationToken: isNativeTokenAddress(link.tokenAddress) ? zeroAddress : getAddress(link.tokenAddress),
    refundAddress: refundAddress ?? zeroAddress,
    expiresAt: BigInt(Math.floor(expiresAtMs / 1000)),
  }
  const address = getDepositAddress(setup.operator.address, terms)
  const deposit = await insertDeposit(db, {
    id,
    linkId: link.id,
    invoiceId,
    address: address.toLowerCase(),
    refundAddress: refundAddress?.toLowerCase() ?? null,
    amountUnits: amountUnits?.toString() ?? null,
    terms: {
      ...terms,
      destinationChainId: terms.destinationChainId.toString(),
      expiresAt: terms.expiresAt.toString(),
    },
    // The contract's clock is whole seconds: the stored expiry is the one it enforces.
    expiresAt: new Date(Number(terms.expiresAt) * 1000),
    createdAt: new Date(nowMs),
  })
  return toDepositResponse({
    deposit,
    transfers: [],
    setup,
    tokens: await provider.tokens(),
    linkToken,
    nowMs,
  })
}
