import type { RpcRelayRequest, RpcRelayResponse } from '@quicklinks/core/api/json-rpc-relay'
import { bundlerRelayedMethods } from '@quicklinks/core/api/smart-accounts'
import { type Address, getAddress, isAddressEqual, type PublicClient } from 'viem'
import { forwardJsonRpc } from '../chains/forward-json-rpc.ts'
import { findOwnAccountKind } from './find-own-account-kind.ts'
import { JsonRpcError, jsonRpcErrorCodes } from './json-rpc-error.ts'
import type { SmartAccountChain } from './list-smart-account-chains.ts'
import { rpcUserOperationSchema } from './rpc-user-operation.ts'

/** How long the relay waits for the bundler (an estimate simulates the whole operation). */
const bundlerTimeoutMs = 30_000

const relayedMethods: ReadonlySet<string> = new Set(bundlerRelayedMethods)
const methodsWithSender: ReadonlySet<string> = new Set([
  'eth_sendUserOperation',
  'eth_estimateUserOperationGas',
])

/**
 * Forwards one JSON-RPC request to `chain`'s bundler for the signed-in user and returns the
 * bundler's answer as it came. Only `bundlerRelayedMethods` pass, and eth_sendUserOperation and
 * eth_estimateUserOperationGas only for EntryPoint v0.8 and a sender that is one of the user's own
 * accounts (`findOwnAccountKind`), so the relay never spends the server's bundler access on other
 * people's operations. Rejects with JsonRpcError (HTTP 422 for another method or malformed params,
 * 403 for another sender), AppError 503 when the bundler does not answer.
 */
export async function relayBundlerRequest(input: {
  chain: SmartAccountChain
  client: PublicClient
  userAddress: Address
  request: RpcRelayRequest
  fetch?: typeof fetch
}): Promise<RpcRelayResponse> {
  const { request, chain } = input
  if (!relayedMethods.has(request.method)) {
    throw new JsonRpcError({
      code: jsonRpcErrorCodes.methodNotFound,
      message: `The method ${request.method} is not relayed to the bundler.`,
      httpStatus: 422,
    })
  }
  if (methodsWithSender.has(request.method)) await assertOwnSender(input)
  return forwardJsonRpc({
    url: chain.bundlerUrl,
    request,
    timeoutMs: bundlerTimeoutMs,
    upstream: `Bundler relay: the bundler of chain ${chain.chainId}`,
    unavailableMessage: 'The bundler did not answer. Try again shortly.',
    fetch: input.fetch,
  })
}

async function assertOwnSender(input: {
  chain: SmartAccountChain
  client: PublicClient
  userAddress: Address
  request: RpcRelayRequest
}): Promise<void> {
  const [rawOperation, entryPoint] = input.request.params ?? []
  const parsed = rpcUserOperationSchema.safeParse(rawOperation)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new JsonRpcError({
      code: jsonRpcErrorCodes.invalidParams,
      message:
        `The user operation is malformed: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim(),
      httpStatus: 422,
    })
  }
  if (
    typeof entryPoint !== 'string' ||
    !/^0x[0-9a-fA-F]{40}$/.test(entryPoint) ||
    !isAddressEqual(getAddress(entryPoint), input.chain.entryPoint)
  ) {
    throw new JsonRpcError({
      code: jsonRpcErrorCodes.invalidParams,
      message: `Only EntryPoint v0.8 (${input.chain.entryPoint}) is relayed.`,
      httpStatus: 422,
    })
  }
  const kind = await findOwnAccountKind({
    client: input.client,
    chain: input.chain,
    userAddress: input.userAddress,
    operation: parsed.data,
  })
  if (kind === undefined) {
    throw new JsonRpcError({
      code: jsonRpcErrorCodes.notYourAccount,
      message: `Only your own accounts' operations are sent; ${parsed.data.sender} is not one of them.`,
      data: { reason: 'NOT_YOUR_ACCOUNT', sender: parsed.data.sender },
      httpStatus: 403,
    })
  }
}
