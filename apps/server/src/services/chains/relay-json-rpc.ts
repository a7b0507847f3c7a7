import {
  type RpcRelayRequest,
  type RpcRelayResponse,
  relayedJsonRpcMethods,
} from '@quicklinks/core/api/json-rpc-relay'
import { AppError } from '@quicklinks/core/app-error'
import { recoverTransactionAddress, type TransactionSerialized } from 'viem'
import { forwardJsonRpc } from './forward-json-rpc.ts'

/** How long the relay waits for the node before it answers 503. */
const relayTimeoutMs = 15_000

const relayedMethods: ReadonlySet<string> = new Set(relayedJsonRpcMethods)

/**
 * Forwards one JSON-RPC request to `rpcUrl` for the signed-in user `senderAddress` and returns the
 * node's answer as it came. Only `relayedJsonRpcMethods` pass, and `eth_sendRawTransaction` only
 * with a transaction signed by `senderAddress` itself, so the relay is never a way to broadcast for
 * others or to reach the node's own accounts. Throws AppError 422 for another method or a foreign
 * transaction, 503 when the node does not answer.
 */
export async function relayJsonRpc(input: {
  rpcUrl: string
  senderAddress: string
  request: RpcRelayRequest
  fetch?: typeof fetch
}): Promise<RpcRelayResponse> {
  const { request } = input
  if (!relayedMethods.has(request.method)) {
    throw new AppError('VALIDATION_FAILED', {
      field: 'method',
      message: `RPC relay refused method ${request.method}`,
      userMessage: `The method ${request.method} is not relayed.`,
    })
  }
  if (request.method === 'eth_sendRawTransaction') await assertOwnTransaction(request, input.senderAddress)
  return forwardJsonRpc({
    url: input.rpcUrl,
    request,
    timeoutMs: relayTimeoutMs,
    upstream: 'RPC relay: the node',
    unavailableMessage: 'The network did not answer. Try again shortly.',
    fetch: input.fetch,
  })
}

async function assertOwnTransaction(request: RpcRelayRequest, senderAddress: string): Promise<void> {
  const serialized = request.params?.[0]
  let sender: string | undefined
  if (typeof serialized === 'string' && /^0x[0-9a-fA-F]+$/.test(serialized)) {
    sender = await recoverTransactionAddress({
      serializedTransaction: serialized as TransactionSerialized,
    }).catch(() => undefined)
  }
  if (sender?.toLowerCase() !== senderAddress.toLowerCase()) {
    throw new AppError('VALIDATION_FAILED', {
      field: 'params',
      message: `RPC relay refused a transaction from ${sender ?? 'an unreadable signer'}`,
      userMessage: 'Only transactions signed by your own wallet are sent.',
    })
  }
}
