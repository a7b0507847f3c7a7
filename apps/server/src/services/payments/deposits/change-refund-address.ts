import {
  buildRefundAddressMessage,
  type RefundAddressRequest,
  refundAddressMessageMaxSeconds,
} from '@quicklinks/core/api/deposits'
import { AppError } from '@quicklinks/core/app-error'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, eq, inArray, notInArray } from 'drizzle-orm'
import { getAddress, type Hex } from 'viem'
import { type DepositTransfer, depositTransfers } from '../../../db/schema.ts'
import { listDepositTransfers, readDeposit } from './deposits-repository.ts'
import type { DepositSetup } from './get-deposit-setup.ts'

/** A clock this far behind ours still has its message accepted (seconds). */
const clockSkewSeconds = 60
/** States whose refund is sent, or that will never be refunded: their refund address is final. */
const settledStates = ['routed', 'refunding', 'refunded'] as const

const refuse = (code: 'FORBIDDEN' | 'CONFLICT' | 'VALIDATION_FAILED', userMessage: string, field?: string) =>
  new AppError(code, { userMessage, ...(field === undefined ? {} : { field }) })

/**
 * Names another refund address for the signer's transfers into a deposit (docs/decisions/0032,
 * docs/api.md#deposit-refund-address): the signer must have sent a transfer into the deposit that
 * is not refunded yet (a refund goes to it), and must have signed the EIP-191 message
 * buildRefundAddressMessage builds for this deposit, address and expiry; viem's verifyMessage checks
 * it on the transfer's chain, plain keys and ERC-1271 / ERC-6492 smart wallets alike. Throws AppError
 * 404 for an unknown deposit; 422 for an expired or too-distant message, or a deposit whose refund
 * address is fixed in its contract; 403 when the signer sent nothing here or the signature is not
 * the signer's; 409 when the refund was already sent, nothing of the signer's awaits a refund, or a
 * newer message already named the address (an old signature cannot undo it).
 */
export async function changeRefundAddress(
  context: { db: Database; setup: DepositSetup; nowMs: number },
  depositId: string,
  request: RefundAddressRequest,
): Promise<void> {
  const { db, setup, nowMs } = context
  const deposit = await readDeposit(db, depositId)
  if (!deposit) throw new AppError('NOT_FOUND', { userMessage: 'This deposit does not exist.' })
  if (deposit.refundAddress !== null) {
    throw refuse(
      'VALIDATION_FAILED',
      `This deposit's refund address (${getAddress(deposit.refundAddress)}) is fixed in its contract: refunds can go nowhere else.`,
      'refundAddress',
    )
  }
  const expiresAtMs = Date.parse(request.expiresAt)
  if (expiresAtMs <= nowMs)
    throw refuse('VALIDATION_FAILED', 'This message has expired: sign a new one.', 'expiresAt')
  if (expiresAtMs > nowMs + (refundAddressMessageMaxSeconds + clockSkewSeconds) * 1000) {
    throw refuse('VALIDATION_FAILED', 'The message may expire at most one hour ahead.', 'expiresAt')
  }
  const signer = request.signer.toLowerCase()
  const mine = (await listDepositTransfers(db, deposit.id)).filter((transfer) => transfer.sender === signer)
  const [first] = mine
  if (!first) {
    throw refuse(
      'FORBIDDEN',
      'Only an address that sent funds to this deposit may name where its refund goes.',
    )
  }
  const message = buildRefundAddressMessage(
    {
      depositId: deposit.id,
      refundAddress: request.refundAddress as `0x${string}`,
      expiresAt: request.expiresAt,
    },
    getAddress,
  )
  const isSigned = await setup
    .getClient(first.chainId)
    .verifyMessage({ address: getAddress(request.signer), message, signature: request.signature as Hex })
  if (!isSigned) throw refuse('FORBIDDEN', 'The signature is not the sending address’s for this message.')

  const open = mine.filter((transfer) => !isSettled(transfer))
  if (open.length === 0) {
    const isRefunded = mine.some(
      (transfer) => transfer.state === 'refunding' || transfer.state === 'refunded',
    )
    throw refuse(
      'CONFLICT',
      isRefunded
        ? 'The refund was already sent: it cannot go elsewhere now.'
        : 'Nothing of yours waits for a refund: your transfers went to the receiver.',
    )
  }
  const refundTo = request.refundAddress.toLowerCase()
  const isOlder = open.some(
    (transfer) =>
      transfer.refundToSignedUntil !== null &&
      (expiresAtMs < transfer.refundToSignedUntil.getTime() ||
        (expiresAtMs === transfer.refundToSignedUntil.getTime() && transfer.refundTo !== refundTo)),
  )
  if (isOlder) throw refuse('CONFLICT', 'A newer message already named the refund address.')
  // Only rows whose refund is not sent meanwhile (the worker may have moved one since the read).
  await db
    .update(depositTransfers)
    .set({ refundTo, refundToSignedUntil: new Date(expiresAtMs), updatedAt: new Date(nowMs) })
    .where(
      and(
        inArray(
          depositTransfers.id,
          open.map((transfer) => transfer.id),
        ),
        eq(depositTransfers.sender, signer),
        notInArray(depositTransfers.state, [...settledStates]),
      ),
    )
}

function isSettled(transfer: DepositTransfer): boolean {
  return (settledStates as readonly string[]).includes(transfer.state)
}
