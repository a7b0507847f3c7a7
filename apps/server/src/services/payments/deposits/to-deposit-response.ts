import type { DepositResponse } from '@quicklinks/core/api/deposits'
import { getAddress } from 'viem'
import type { Deposit, DepositTransfer } from '../../../db/schema.ts'
import { formatTokenAmount } from '../../tokens/parse-token-amount.ts'
import type { RoutingToken } from '../route/routing-provider.ts'
import type { DepositSetup } from './get-deposit-setup.ts'
import { type DepositAmountToken, listDepositChains } from './list-deposit-chains.ts'

/** A deposit and its transfers as the API answers them (docs/api.md#deposit-object). Pure. */
export function toDepositResponse(options: {
  deposit: Deposit
  transfers: readonly DepositTransfer[]
  setup: Pick<DepositSetup, 'chains'>
  tokens: readonly RoutingToken[]
  linkToken: DepositAmountToken
  nowMs: number
}): DepositResponse {
  const { deposit, transfers, linkToken } = options
  const address = getAddress(deposit.address)
  const amountUnits = deposit.amountUnits === null ? null : BigInt(deposit.amountUnits)
  return {
    id: deposit.id,
    address,
    expiresAt: deposit.expiresAt.toISOString(),
    ...(amountUnits === null ? {} : { amount: formatTokenAmount(amountUnits, linkToken.decimals) }),
    linkToken: {
      chainId: linkToken.chainId,
      address: linkToken.address,
      symbol: linkToken.symbol,
      decimals: linkToken.decimals,
    },
    invoiceId: deposit.invoiceId,
    refundAddress: deposit.refundAddress === null ? null : getAddress(deposit.refundAddress),
    state: options.nowMs < deposit.expiresAt.getTime() ? 'open' : 'expired',
    chains: listDepositChains({
      setup: options.setup,
      tokens: options.tokens,
      address,
      amountUnits,
      linkToken,
    }),
    transfers: transfers.map((transfer) => ({
      chainId: transfer.chainId,
      token: transfer.token,
      amount: transfer.amount,
      txHash: transfer.txHash,
      state: transfer.state,
      sender: transfer.sender === null ? null : getAddress(transfer.sender),
      refundTo: readRefundTo(deposit, transfer),
      intentId: transfer.intentId,
      actionTxHash: transfer.actionTxHash,
      gasCostWei: transfer.gasCostWei,
      error: transfer.state === 'failed' || transfer.state === 'dropped' ? transfer.lastError : null,
      note: transfer.state === 'detected' ? transfer.lastError : null,
    })),
  }
}

/**
 * Where a refund of a transfer goes (docs/decisions/0032): the refund address in the deposit's terms,
 * else the address the sender named with a signed message, else the sender; null when none is known.
 */
export function readRefundTo(deposit: Deposit, transfer: DepositTransfer): `0x${string}` | null {
  const to = deposit.refundAddress ?? transfer.refundTo ?? transfer.sender
  return to === null ? null : getAddress(to)
}
