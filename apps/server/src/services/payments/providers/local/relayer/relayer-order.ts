import type { Hash } from 'viem'
import type { RelayerDeposit } from '../../../../../db/schema.ts'
import type { PayRouterOrder } from '../payrouter/get-pay-router-order-key.ts'

/** A cross-chain order exactly as PayRouter's `Deposited` event gave it; `fill`, `settle` and `refund` take it. */
export type RelayerOrder = PayRouterOrder

/** The order fields a relayer_deposits row keeps (addresses lower-case, amounts as decimal strings). */
export type RelayerOrderFields = Pick<
  RelayerDeposit,
  | 'intentId'
  | 'sourceChainId'
  | 'payer'
  | 'escrowToken'
  | 'escrowAmount'
  | 'receiver'
  | 'destinationChainId'
  | 'destinationToken'
  | 'minAmountOut'
  | 'fillDeadline'
>

/** Rebuilds the on-chain Order of a stored deposit, field for field. */
export function buildRelayerOrder(deposit: RelayerOrderFields): RelayerOrder {
  return {
    intentId: deposit.intentId as Hash,
    sourceChainId: BigInt(deposit.sourceChainId),
    payer: deposit.payer as `0x${string}`,
    escrowToken: deposit.escrowToken as `0x${string}`,
    escrowAmount: BigInt(deposit.escrowAmount),
    receiver: deposit.receiver as `0x${string}`,
    destinationChainId: BigInt(deposit.destinationChainId),
    destinationToken: deposit.destinationToken as `0x${string}`,
    minAmountOut: BigInt(deposit.minAmountOut),
    fillDeadline: BigInt(deposit.fillDeadline),
  }
}

/** The row fields of an Order from a `Deposited` event (addresses lower-case). */
export function readRelayerOrderFields(order: RelayerOrder): RelayerOrderFields {
  return {
    intentId: order.intentId.toLowerCase(),
    sourceChainId: Number(order.sourceChainId),
    payer: order.payer.toLowerCase(),
    escrowToken: order.escrowToken.toLowerCase(),
    escrowAmount: order.escrowAmount.toString(),
    receiver: order.receiver.toLowerCase(),
    destinationChainId: Number(order.destinationChainId),
    destinationToken: order.destinationToken.toLowerCase(),
    minAmountOut: order.minAmountOut.toString(),
    fillDeadline: Number(order.fillDeadline),
  }
}
