import { payRouterAbi } from '@quicklinks/contracts/generated/pay-router'
import { type AbiParameterToPrimitiveType, encodeAbiParameters, getAbiItem, type Hash, keccak256 } from 'viem'

/** PayRouter's `Order` tuple, as the ABI declares it (the only input of `orderKeyOf`). */
const orderParameter = getAbiItem({ abi: payRouterAbi, name: 'orderKeyOf' }).inputs[0]

/**
 * A cross-chain order exactly as PayRouter's `Deposited` event gives it; `fill`, `settle` and
 * `refund` take it, and its key is what escrows and fills are looked up by.
 */
export type PayRouterOrder = AbiParameterToPrimitiveType<typeof orderParameter>

/**
 * PayRouter's key of an order: keccak256 of its ABI encoding (what the contract's `orderKeyOf`
 * returns), computed off chain. Never throws for a well-typed order.
 */
export function getPayRouterOrderKey(order: PayRouterOrder): Hash {
  return keccak256(encodeAbiParameters([orderParameter], [order]))
}
