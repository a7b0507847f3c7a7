import { payRouterAbi } from '@quicklinks/contracts/generated/pay-router'
import {
  type ContractFunctionName,
  type EncodeFunctionDataParameters,
  encodeFunctionData,
  type Hex,
} from 'viem'

type PayRouterWriteName = ContractFunctionName<typeof payRouterAbi, 'nonpayable' | 'payable'>

/** A PayRouter call by name with its typed arguments (`pay`, `swapAndPay`, `deposit`, `fill`, …). */
export type PayRouterCall<functionName extends PayRouterWriteName = PayRouterWriteName> = Omit<
  EncodeFunctionDataParameters<typeof payRouterAbi, functionName>,
  'abi'
>

/**
 * The calldata of a PayRouter call: what the route builder hands the payer and what the relayer
 * sends for fills, settlements and refunds. Throws only on arguments the ABI cannot encode.
 */
export function encodePayRouterCall<const functionName extends PayRouterWriteName>(
  call: PayRouterCall<functionName>,
): Hex {
  const parameters = { abi: payRouterAbi, ...call } as EncodeFunctionDataParameters<typeof payRouterAbi>
  return encodeFunctionData(parameters)
}
