import { type Address, type Hex, hexToBigInt, numberToHex, type PublicClient } from 'viem'
import { formatUserOperationRequest, type UserOperation } from 'viem/account-abstraction'
import { forwardJsonRpc } from '../chains/forward-json-rpc.ts'
import { JsonRpcError, jsonRpcErrorCodes } from './json-rpc-error.ts'
import type { SmartAccountChain } from './list-smart-account-chains.ts'
import { type RpcUserOperation, toViemUserOperation } from './rpc-user-operation.ts'

// What the sponsor pays is gas × fee, and the user sets both: without bounds one operation with a
// huge preVerificationGas or maxFeePerGas makes the bundler's beneficiary the paymaster's heir. Fees
// are bounded by the chain's own, read now; gas limits by what the bundler estimates now.

/** How far above the chain's current fee cap (twice the base fee plus the node's tip) an operation may go. */
export const sponsorFeeMultiple = 3n
/** Room above an estimate (the state may move a little between the client's estimate and ours). */
const estimateHeadroomNumerator = 3n
const estimateHeadroomDenominator = 2n
const estimateSlackGas = 25_000n
/** How long the sponsor waits for the bundler's estimate (it simulates the whole operation). */
const estimateTimeoutMs = 30_000

/** A 65-byte ECDSA signature that recovers to some address: what an estimate needs when the client sent none. */
const stubAccountSignature: Hex =
  '0xfffffffffffffffffffffffffffffff0000000000000000000000000000000007aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1c'

/** The operation's gas limits the bundler's estimate bounds. */
export type GasEstimate = { verificationGasLimit: bigint; callGasLimit: bigint; preVerificationGas: bigint }

/** The highest maxFeePerGas sponsored now: `sponsorFeeMultiple` × (2 × latest base fee + the node's tip). */
export async function readSponsoredFeeCeiling(client: PublicClient): Promise<bigint> {
  const [block, tip] = await Promise.all([client.getBlock(), client.estimateMaxPriorityFeePerGas()])
  return sponsorFeeMultiple * (2n * (block.baseFeePerGas ?? 0n) + tip)
}

/** Refuses (NOT_SPONSORED) fees above `ceiling`, or a tip above the fee cap. */
export function assertFeesBounded(operation: RpcUserOperation, ceiling: bigint, policyId: string): void {
  if (operation.maxFeePerGas > ceiling) {
    throw outOfBounds(
      `The operation's maxFeePerGas (${operation.maxFeePerGas} wei) is above what is sponsored now, ${ceiling} wei (${sponsorFeeMultiple}× the chain's current fees). Estimate the fees again.`,
      { policyId, field: 'maxFeePerGas', limit: numberToHex(ceiling) },
    )
  }
  if (operation.maxPriorityFeePerGas > operation.maxFeePerGas) {
    throw outOfBounds("The operation's maxPriorityFeePerGas is above its maxFeePerGas.", {
      policyId,
      field: 'maxPriorityFeePerGas',
      limit: numberToHex(operation.maxFeePerGas),
    })
  }
}

/**
 * Asks the chain's bundler to estimate the operation's gas as it would run with this paymaster
 * (the stub's paymaster fields, the client's stub signature or a 65-byte one). Refuses
 * (NOT_SPONSORED) an operation the bundler cannot estimate (it would not run); rejects with
 * AppError 503 when the bundler does not answer.
 */
export async function estimateSponsoredGas(input: {
  chain: SmartAccountChain
  operation: RpcUserOperation
  paymaster: {
    paymaster: Address
    paymasterVerificationGasLimit: bigint
    paymasterPostOpGasLimit: bigint
    paymasterData: Hex
  }
  policyId: string
}): Promise<GasEstimate> {
  const { chain, operation, policyId } = input
  const userOperation: UserOperation<'0.8'> = {
    ...toViemUserOperation(operation, input.paymaster),
    signature: (operation.signature ?? stubAccountSignature) as Hex,
    ...(operation.eip7702Auth == null
      ? {}
      : {
          authorization: {
            address: operation.eip7702Auth.address,
            chainId: Number(operation.eip7702Auth.chainId),
            nonce: Number(operation.eip7702Auth.nonce),
            r: numberToHex(operation.eip7702Auth.r, { size: 32 }),
            s: numberToHex(operation.eip7702Auth.s, { size: 32 }),
            yParity: Number(operation.eip7702Auth.yParity),
          },
        }),
  }
  const answer = await forwardJsonRpc({
    url: chain.bundlerUrl,
    request: {
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_estimateUserOperationGas',
      params: [formatUserOperationRequest(userOperation), chain.entryPoint],
    },
    timeoutMs: estimateTimeoutMs,
    upstream: `Sponsor service: the bundler of chain ${chain.chainId}`,
    unavailableMessage: 'The bundler did not answer. Try again shortly.',
  })
  const result = 'result' in answer ? answer.result : undefined
  const read = (field: keyof GasEstimate): bigint | undefined => {
    const value =
      typeof result === 'object' && result !== null ? (result as Record<string, unknown>)[field] : undefined
    return typeof value === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(value)
      ? hexToBigInt(value as Hex)
      : undefined
  }
  const estimate = {
    verificationGasLimit: read('verificationGasLimit'),
    callGasLimit: read('callGasLimit'),
    preVerificationGas: read('preVerificationGas'),
  }
  if (
    estimate.verificationGasLimit === undefined ||
    estimate.callGasLimit === undefined ||
    estimate.preVerificationGas === undefined
  ) {
    const reason = 'error' in answer && answer.error ? `: ${String(answer.error.message).slice(0, 300)}` : ''
    throw new JsonRpcError({
      code: jsonRpcErrorCodes.sponsorRefused,
      message: `The bundler could not estimate this operation, so it is not sponsored${reason}`,
      data: { reason: 'NOT_SPONSORED', policyId },
    })
  }
  return {
    verificationGasLimit: estimate.verificationGasLimit,
    callGasLimit: estimate.callGasLimit,
    preVerificationGas: estimate.preVerificationGas,
  }
}

/** The most gas sponsored for a field the bundler estimated at `estimated`: half again, plus a little. */
export function boundEstimatedGas(estimated: bigint): bigint {
  return (estimated * estimateHeadroomNumerator) / estimateHeadroomDenominator + estimateSlackGas
}

/** Refuses (NOT_SPONSORED) gas limits above the bound of the bundler's estimate, naming the field. */
export function assertGasBounded(operation: RpcUserOperation, estimate: GasEstimate, policyId: string): void {
  for (const field of ['preVerificationGas', 'verificationGasLimit', 'callGasLimit'] as const) {
    const limit = boundEstimatedGas(estimate[field])
    if (operation[field] > limit) {
      throw outOfBounds(
        `The operation's ${field} (${operation[field]}) is above what is sponsored, ${limit} (the bundler estimates ${estimate[field]}). Estimate the gas again.`,
        { policyId, field, limit: numberToHex(limit) },
      )
    }
  }
}

function outOfBounds(message: string, data: Record<string, unknown>): JsonRpcError {
  return new JsonRpcError({
    code: jsonRpcErrorCodes.sponsorRefused,
    message,
    data: { reason: 'NOT_SPONSORED', ...data },
  })
}
