import { payRouterAbi } from '@quicklinks/contracts/generated/pay-router'
import { type AbiParameterToPrimitiveType, encodeAbiParameters, getAbiItem, type Hash, keccak256 } from 'viem'
import type { RelayerDeposit } from '../../db/schema.ts'

/** PayRouter's `Order` tuple, as the ABI declares it (the only input of `orderKeyOf`). */
const orderParameter = getAbiItem({ abi: payRouterAbi, name: 'orderKeyOf' }).inputs[0]

/** A cross-chain order exactly as PayRouter's `Deposited` event gave it; `fill`, `settle` and `refund` take it. */
export type RelayerOrder = AbiParameterToPrimitiveType<typeof orderParameter>

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

/**
 * PayRouter's key of an order: keccak256 of its ABI encoding (`orderKeyOf`). The relayer computes
 * it from what it stored and compares it with the event's, so a row always rebuilds the very
 * Order that fill, settle and refund must pass.
 */
export function getRelayerOrderKey(order: RelayerOrder): Hash {
  return keccak256(encodeAbiParameters([orderParameter], [order]))
}
